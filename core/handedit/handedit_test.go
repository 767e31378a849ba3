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
