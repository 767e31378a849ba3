package handedit

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/theme"
)

func parse(b []byte) *theme.Theme {
	t, err := theme.Parse(b)
	if err != nil {
		return nil
	}
	return t
}

func TestLockedColoursAreRestoredAndReported(t *testing.T) {
	th := theme.Example()
	l := &Log{Locked: map[string]string{}, Changed: map[string]string{}}
	if err := l.Lock(th, "ui.accent", true); err != nil {
		t.Fatal(err)
	}
	kept := th.UI.Accent
	// The agent's turn: it changes the accent and the text.
	th.UI.Accent, _ = theme.ParseColor("#00ff00")
	th.UI.Text, _ = theme.ParseColor("#eeeeee")
	got := l.EnforceLocks(th)
	if len(got) != 1 || got[0].Path != "ui.accent" || got[0].Was != "#00ff00" || got[0].Kept != kept.String() {
		t.Fatalf("restored %+v", got)
	}
	if th.UI.Accent != kept || th.UI.Text.Hex() != "#eeeeee" {
		t.Fatalf("accent %s (want %s kept), text %s (unlocked, the agent's)", th.UI.Accent, kept, th.UI.Text)
	}
	if again := l.EnforceLocks(th); len(again) != 0 {
		t.Errorf("a kept lock reported again: %+v", again)
	}
}

func TestPromptNoteNamesChangedAndLockedRolesUntilTold(t *testing.T) {
	th := theme.Example()
	l := &Log{Locked: map[string]string{}, Changed: map[string]string{}}
	if l.PromptNote() != "" {
		t.Fatal("empty record gave a note")
	}
	th.Syntax.Keyword, _ = theme.ParseColor("#aa00aa")
	l.Record(Step{Label: "edit", Paths: []string{"syntax.keyword"}}, th)
	l.Lock(th, "ui.background", true)
	note := l.PromptNote()
	for _, want := range []string{"syntax.keyword = #aa00aa", "LOCKED", "ui.background = " + th.UI.Background.String()} {
		if !strings.Contains(note, want) {
			t.Errorf("note lacks %q:\n%s", want, note)
		}
	}
	told := map[string]string{}
	for k, v := range l.Changed {
		told[k] = v
	}
	l.Told(told)
	if note := l.PromptNote(); strings.Contains(note, "syntax.keyword") || !strings.Contains(note, "ui.background") {
		t.Errorf("after the prompt the change is reported again or the lock dropped:\n%s", note)
	}
}

func TestUndoRedoRefuseWhenTheFileChangedSince(t *testing.T) {
	a, b := theme.ExampleJSON(), []byte(strings.Replace(string(theme.ExampleJSON()), "Harbour Night", "Harbour Noon", 1))
	l := &Log{Locked: map[string]string{}, Changed: map[string]string{}}
	l.Record(Step{Label: "rename", Before: a, After: b}, parse(b))
	if _, err := l.TakeUndo([]byte("agent wrote this"), parse); !errors.Is(err, ErrChangedSince) {
		t.Fatalf("undo over someone else's write: %v", err)
	}
	s, err := l.TakeUndo(b, parse)
	if err != nil || string(s.Before) != string(a) {
		t.Fatalf("undo: %v", err)
	}
	if _, err := l.TakeUndo(a, parse); err == nil {
		t.Error("a second undo of a single step")
	}
	s, err = l.TakeRedo(a, parse)
	if err != nil || string(s.After) != string(b) {
		t.Fatalf("redo: %v", err)
	}
	l.Record(Step{Label: "x", Before: b, After: a}, parse(a))
	if len(l.Redo) != 0 {
		t.Error("a new edit keeps a stale redo")
	}
}

func TestSaveLoadAndADamagedRecordIsSetAside(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ws.json")
	l, err := Load(p)
	if err != nil || len(l.Locked) != 0 {
		t.Fatalf("missing record: %v %+v", err, l)
	}
	l.Locked["ui.text"] = "#ffffff"
	if err := l.Save(p); err != nil {
		t.Fatal(err)
	}
	back, err := Load(p)
	if err != nil || back.Locked["ui.text"] != "#ffffff" {
		t.Fatalf("reload: %v %+v", err, back)
	}
	os.WriteFile(p, []byte("{not json"), 0o600)
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "set aside") {
		t.Fatalf("damaged record: %v", err)
	}
	matches, _ := filepath.Glob(p + ".damaged-*")
	if len(matches) != 1 {
		t.Fatalf("damaged record not kept aside: %v", matches)
	}
	if b, _ := os.ReadFile(matches[0]); string(b) != "{not json" {
		t.Errorf("set-aside copy altered: %q", b)
	}
}

// familyJSON is core/theme's testdata/family.theme.json: a dark theme with
// its light companion.
func familyJSON(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../theme/testdata/family.theme.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestColorAtReadsTheCompanionsColours(t *testing.T) {
	th := parse(familyJSON(t))
	for path, want := range map[string]string{
		"ui.background":               th.UI.Background.String(),
		"companion.ui.background":     "#faf8f2",
		"companion.ui.selection":      "#0b5fc133",
		"companion.palette.sea green": "#1a7f4b",
		"palette.ink":                 th.Palette["ink"].String(),
	} {
		if c, ok := ColorAt(th, path); !ok || c.String() != want {
			t.Errorf("ColorAt(%s) = %s %v, want %s", path, c, ok, want)
		}
	}
	for _, path := range []string{"companion.ui.nope", "companion.palette.ink2", "companion.companion.ui.text"} {
		if _, ok := ColorAt(th, path); ok {
			t.Errorf("ColorAt(%s) found a colour", path)
		}
	}
	if _, ok := ColorAt(theme.Example(), "companion.ui.text"); ok {
		t.Error("a companion colour of a theme without one")
	}
}

// The agent's turn rewrites theme.json and changes a locked companion
// colour (and a locked companion palette entry): both go back into the
// companion, the theme's own colours are not touched, and the report
// names them by their companion paths.
func TestALockedCompanionColourSurvivesTheAgentsTurn(t *testing.T) {
	th := parse(familyJSON(t))
	l := &Log{Locked: map[string]string{}, Changed: map[string]string{}}
	for _, p := range []string{"companion.ui.accent", "companion.palette.paper"} {
		if err := l.Lock(th, p, true); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Lock(th, "companion.ui.nope", true); err == nil {
		t.Error("locked a companion role that does not exist")
	}
	// The agent's rewrite: the companion's accent and paper, and the
	// theme's own accent (unlocked, so it stays the agent's).
	agent := strings.NewReplacer(`"accent": "#0B5FC1"`, `"accent": "#3366ee"`, `"paper": "#FAF8F2"`, `"paper": "#ffffff"`,
		`"accent": "#7fb4ff"`, `"accent": "#80c0ff"`).Replace(string(familyJSON(t)))
	after := parse([]byte(agent))
	if after == nil || after.Companion.UI.Accent.Hex() != "#3366ee" || after.UI.Accent.Hex() != "#80c0ff" {
		t.Fatalf("the agent's rewrite did not take: %+v", after)
	}
	got := l.EnforceLocks(after)
	want := []Restored{{Path: "companion.palette.paper", Was: "#ffffff", Kept: "#faf8f2"}, {Path: "companion.ui.accent", Was: "#3366ee", Kept: "#0b5fc1"}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("restored %+v, want %+v", got, want)
	}
	if after.Companion.UI.Accent.Hex() != "#0b5fc1" || after.Companion.Palette["paper"].Hex() != "#faf8f2" {
		t.Errorf("companion accent %s, paper %s after the restore", after.Companion.UI.Accent, after.Companion.Palette["paper"])
	}
	if after.UI.Accent.Hex() != "#80c0ff" || after.Palette["paper"] != (theme.Color{}) {
		t.Errorf("the restore reached the theme's own colours: accent %s, palette %v", after.UI.Accent, after.Palette)
	}
	if note := l.PromptNote(); !strings.Contains(note, "companion.ui.accent = #0b5fc1") {
		t.Errorf("the agent is not told of the companion's lock:\n%s", note)
	}
}

// A hand edit of the companion is noted by its companion path, undone and
// redone; once the companion is gone its locks and changes are forgotten.
func TestCompanionEditsUndoAndAreForgottenWithTheCompanion(t *testing.T) {
	before := familyJSON(t)
	th := parse(before)
	l := &Log{Locked: map[string]string{}, Changed: map[string]string{}}
	l.Lock(th, "companion.syntax.keyword", true)
	l.Lock(th, "syntax.keyword", true)
	nc, _ := theme.ParseColor("#6a1b9a")
	changed, err := theme.SetColor(th, "companion.syntax.keyword", nc)
	if err != nil {
		t.Fatal(err)
	}
	after, err := theme.Rewrite(before, th)
	if err != nil {
		t.Fatal(err)
	}
	l.Record(Step{Label: "Set companion.syntax.keyword", Paths: changed, Before: before, After: after}, th)
	l.Relock(th, changed)
	if l.Changed["companion.syntax.keyword"] != "#6a1b9a" || l.Locked["companion.syntax.keyword"] != "#6a1b9a" {
		t.Fatalf("changed %v, locked %v", l.Changed, l.Locked)
	}
	if l.Locked["syntax.keyword"] != th.Syntax.Keyword.String() {
		t.Errorf("the theme's own keyword lock moved: %v", l.Locked)
	}
	s, err := l.TakeUndo(after, parse)
	if err != nil || parse(s.Before).Companion.Syntax.Keyword.Hex() != "#8a2bb0" {
		t.Fatalf("undo: %v", err)
	}
	if l.Changed["companion.syntax.keyword"] != "#8a2bb0" {
		t.Errorf("undo did not note the companion's colour back: %v", l.Changed)
	}
	if _, err := l.TakeRedo(before, parse); err != nil {
		t.Fatal(err)
	}
	// The variant is removed: the agent hears no more of its colours.
	th.Companion = nil
	l.Forget(th)
	if _, ok := l.Locked["companion.syntax.keyword"]; ok || l.Changed["companion.syntax.keyword"] != "" {
		t.Errorf("the removed companion's lock or change is kept: %v %v", l.Locked, l.Changed)
	}
	if _, ok := l.Locked["syntax.keyword"]; !ok {
		t.Error("forgetting the companion dropped the theme's own lock")
	}
	if strings.Contains(l.PromptNote(), "companion.") {
		t.Errorf("the note still names the companion:\n%s", l.PromptNote())
	}
}
