package app

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cdxtheme/app/editing"
	"cdxtheme/core/chat"
	"cdxtheme/core/checkpoint"
	"cdxtheme/core/contrast"
	"cdxtheme/core/handedit"
	"cdxtheme/core/theme"
	"cdxtheme/core/themewatch"
	"cdxtheme/internal/testrig/syncbuf"

	"cdxtheme/internal/testrig/acpstub"
	"github.com/rs/zerolog"
)

func readTheme(t *testing.T, dir string) *theme.Theme {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, theme.FileName))
	if err != nil {
		t.Fatal(err)
	}
	th, err := theme.Parse(b)
	if err != nil {
		t.Fatalf("theme.json invalid after the edit: %v", err)
	}
	return th
}

// A hand edit writes theme.json after a checkpoint, undoes and redoes; the
// next prompt tells the agent; a locked colour the agent changes is put
// back and reported.
func TestHandEditsReachTheAgentAndLocksSurviveItsTurn(t *testing.T) {
	ag := duskAgent()
	a, rec := newStubApp(t, ag)
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "a dusk theme"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "first turn", func() bool { return last(rec.turns[started.TurnID]).Type() == "done" })
	ws, dir := started.WorkspaceID, started.Cwd
	sid := last(rec.turns[started.TurnID]).SessionID
	original, _ := os.ReadFile(filepath.Join(dir, theme.FileName))

	st, err := a.Editor.EditColor(EditColorRequest{WorkspaceID: ws, Path: "syntax.keyword", Hex: "#123456"})
	if err != nil {
		t.Fatal(err)
	}
	if got := readTheme(t, dir).Syntax.Keyword.Hex(); got != "#123456" {
		t.Fatalf("theme.json keyword %s after the edit", got)
	}
	if !st.CanUndo || len(st.Changed) != 1 || st.Changed[0] != "syntax.keyword" {
		t.Fatalf("state after the edit: %+v", st)
	}
	list, _ := checkpoint.List(dir)
	if len(list) == 0 || list[len(list)-1].Kind != checkpoint.KindEdit {
		t.Fatalf("no checkpoint before the hand edit: %+v", list)
	}
	// Undo gives back the very bytes; redo the edit.
	if _, err := a.Editor.UndoEdit(ws); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, theme.FileName)); string(now) != string(original) {
		t.Fatal("undo did not restore theme.json as it was")
	}
	if st, err = a.Editor.RedoEdit(ws); err != nil || readTheme(t, dir).Syntax.Keyword.Hex() != "#123456" || st.CanRedo {
		t.Fatalf("redo: %v %+v", err, st)
	}

	if _, err := a.Editor.SetLock(ws, "syntax.keyword", true); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Editor.EditColor(EditColorRequest{WorkspaceID: ws, Path: "syntax.comment", Hex: "#8890a0"}); err != nil {
		t.Fatal(err)
	}

	// The agent's next turn rewrites the whole theme (its keyword #ff9e64).
	id, err := a.Turns.Send(SendRequest{WorkspaceID: ws, SessionID: sid, Prompt: "refine it #theme"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "second turn", func() bool { return last(rec.turns[id]).Type() == "done" })
	prompts := ag.Params("session/prompt")
	prompt := string(prompts[len(prompts)-1])
	for _, want := range []string{"hand-edits", "syntax.comment = #8890a0", "LOCKED", "syntax.keyword = #123456"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the prompt the agent got lacks %q", want)
		}
	}
	th := readTheme(t, dir)
	if th.Syntax.Keyword.Hex() != "#123456" {
		t.Errorf("locked keyword is %s after the agent's turn, want #123456 kept; the turn's warnings: %q", th.Syntax.Keyword, warnings(rec, id))
	}
	if th.Syntax.Comment.Hex() == "#8890a0" {
		t.Errorf("the unlocked comment was restored too; only locks are")
	}
	// The agent wrote the keyword twice (#c586c0, then #ff9e64); whoever
	// put each back, one warning names it once, as the agent's doing.
	var named []string
	for _, w := range warnings(rec, id) {
		if strings.Contains(w, "syntax.keyword") {
			named = append(named, w)
		}
	}
	if len(named) != 1 || !strings.HasPrefix(named[0], editing.TurnLocksLead) || strings.Count(named[0], "syntax.keyword") != 1 || !strings.Contains(named[0], "#ff9e64") {
		t.Errorf("the restore of the locked keyword was not reported once, as the agent's, in the turn: %q", warnings(rec, id))
	}
	st, err = a.Editor.EditorState(ws)
	if err != nil || len(st.Changed) != 0 {
		t.Fatalf("the told changes are still pending: %v %+v", err, st.Changed)
	}
	// The agent wrote since: undo must not throw its work away.
	if _, err := a.Editor.UndoEdit(ws); !errors.Is(err, handedit.ErrChangedSince) {
		t.Fatalf("undo over the agent's write: %v", err)
	}
}

// The agent's write of a locked colour is put back by whichever sees it
// first: the watcher, which reads a whole theme.json at its first event and
// so often restores the agent's last write while the turn still runs, or
// the turn's end, when the watcher has not read it yet. The turn's closing
// warning must not depend on that race: the same sentence either way,
// saying the agent changed the lock and naming it once. Each order is made
// to happen, not waited for: the turn runs until the test stops it, and the
// second has no watcher.
func TestLockWarningIsTheSameWhicheverRestoresFirst(t *testing.T) {
	a, rec, _ := newTestApp(t, "theme")
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "a dusk theme"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "first turn", func() bool { return last(rec.turns[started.TurnID]).Type() == "done" })
	ws, dir := started.WorkspaceID, started.Cwd
	sid := last(rec.turns[started.TurnID]).SessionID
	if _, err := a.Editor.EditColor(EditColorRequest{WorkspaceID: ws, Path: "syntax.keyword", Hex: "#123456"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Editor.SetLock(ws, "syntax.keyword", true); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, theme.FileName)
	// agentWrites rewrites the locked keyword as the agent would, the
	// whole file at once.
	agentWrites := func(hex string) {
		t.Helper()
		before, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		th, err := theme.Parse(before)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := theme.ParseColor(hex)
		if _, err := theme.SetColor(th, "syntax.keyword", c); err != nil {
			t.Fatal(err)
		}
		after, err := theme.Rewrite(before, th)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, after, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// turn runs a turn that lasts until it is stopped, lets write happen
	// in it and returns its closing warnings.
	turn := func(write func()) []string {
		t.Helper()
		id, err := a.Turns.Send(SendRequest{WorkspaceID: ws, SessionID: sid, Prompt: "hold on #stall"})
		if err != nil {
			t.Fatal(err)
		}
		rec.waitFor(t, "the agent at work", func() bool { return strings.Contains(text(rec.turns[id]), "Working on it") })
		write()
		if err := a.Turns.Cancel(id); err != nil {
			t.Fatal(err)
		}
		rec.waitFor(t, "the turn's end", func() bool { return last(rec.turns[id]).Type() == "done" })
		return warnings(rec, id)
	}

	// The watcher first: the turn goes on until the watcher has put the
	// agent's colour back.
	watcherFirst := turn(func() {
		rec.mu.Lock()
		seen := len(rec.editor)
		rec.mu.Unlock()
		agentWrites("#ff9e64")
		rec.waitFor(t, "the watcher's restore", func() bool {
			for _, e := range rec.editor[seen:] {
				if strings.Contains(e.Notice, "#ff9e64") {
					return true
				}
			}
			return false
		})
	})
	// The turn's end first: no watcher sees the agent's write.
	a.Themes.stopWatchers()
	turnFirst := turn(func() { agentWrites("#ff9e64") })

	want := "The agent changed locked colours; they were restored: syntax.keyword (#ff9e64 was written, #123456 kept)"
	for _, c := range []struct {
		order string
		got   []string
	}{{"the watcher restored it first", watcherFirst}, {"the turn's end restored it", turnFirst}} {
		if !slices.Equal(c.got, []string{want}) {
			t.Errorf("%s: the turn's warnings are %q, want only %q", c.order, c.got, want)
		}
	}
	if got := readTheme(t, dir).Syntax.Keyword.Hex(); got != "#123456" {
		t.Errorf("the locked keyword is %s after the turns, want #123456", got)
	}
}

// warnings are the texts of the turn's warnings, for a failure's message.
func warnings(rec *recorder, id string) []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var out []string
	for _, e := range rec.turns[id] {
		if e.Type() == "warning" {
			out = append(out, chat.TextOf(e))
		}
	}
	return out
}

func TestMakePassAndTryColorMeasureWithoutWriting(t *testing.T) {
	a, rec := newStubApp(t, duskAgent())
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "a dusk theme"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "turn", func() bool { return last(rec.turns[started.TurnID]).Type() == "done" })
	ws, dir := started.WorkspaceID, started.Cwd
	before, _ := os.ReadFile(filepath.Join(dir, theme.FileName))
	tr, err := a.Editor.TryColor(TryColorRequest{WorkspaceID: ws, Path: "ui.mutedText", Hex: "#303040"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Pairs) < 2 || tr.Pairs[0].AA {
		t.Fatalf("a dark muted text on a dark background should fail: %+v", tr.Pairs)
	}
	if _, err := a.Editor.EditColor(EditColorRequest{WorkspaceID: ws, Path: "ui.mutedText", Hex: "#303040"}); err != nil {
		t.Fatal(err)
	}
	fix, err := a.Editor.MakePass(ws, "ui.mutedText", contrast.AA)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range fix.Pairs {
		if !p.AA {
			t.Errorf("make-it-pass left %s on %s at %.2f", p.FGRole, p.BGRole, p.Ratio)
		}
	}
	if now, _ := os.ReadFile(filepath.Join(dir, theme.FileName)); string(now) == string(before) || readTheme(t, dir).UI.MutedText.Hex() != "#303040" {
		t.Error("MakePass or TryColor wrote theme.json")
	}
	// A theme.json the agent left broken: the picker is told why, and
	// nothing is measured against a theme that is not there.
	os.WriteFile(filepath.Join(dir, theme.FileName), []byte(`{"name": `), 0o644)
	if tr, err := a.Editor.TryColor(TryColorRequest{WorkspaceID: ws, Path: "ui.mutedText", Hex: "#303040"}); err == nil {
		t.Errorf("a trial on a broken theme: %+v", tr)
	}
}

// A hand-edit record that cannot be read is logged (the note to the agent
// is then empty): the log says why the agent was not told of the edits.
func TestUnreadableHandEditRecordIsLogged(t *testing.T) {
	a, _ := newStubApp(t, acpstub.New())
	var log syncbuf.Buffer
	a.env.log = zerolog.New(&log)
	// A file where the records' folder goes: nothing can be read or saved there.
	os.MkdirAll(filepath.Dir(filepath.Dir(handedit.RecordPath("ws-x"))), 0o700)
	os.WriteFile(filepath.Dir(handedit.RecordPath("ws-x")), []byte("in the way"), 0o600)
	if note, told := a.Editor.edits.Note("ws-x"); note != "" || len(told) != 0 {
		t.Fatalf("note %q, told %v", note, told)
	}
	if !strings.Contains(log.String(), "hand-edit note") {
		t.Fatalf("log: %s", log.String())
	}
}

// The light variant is derived into theme.json as an edit (checkpoint,
// undo), exported beside the theme, and removed again.
func TestCompanionIsAnEditAndReachesTheExports(t *testing.T) {
	a, rec := newStubApp(t, duskAgent())
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "a dusk theme"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "turn", func() bool { return last(rec.turns[started.TurnID]).Type() == "done" })
	ws, dir := started.WorkspaceID, started.Cwd
	if _, err := a.Editor.RemoveCompanion(ws); err == nil {
		t.Error("removing a variant the theme does not have did not fail")
	}
	cps, _ := checkpoint.List(dir)
	st, err := a.Editor.DeriveCompanion(ws)
	if err != nil {
		t.Fatal(err)
	}
	th := readTheme(t, dir)
	if th.Companion == nil || th.Companion.Appearance == th.Appearance {
		t.Fatalf("no companion of the other appearance in theme.json: %+v", th.Companion)
	}
	if !st.CanUndo || !strings.Contains(st.UndoLabel, "variant") {
		t.Errorf("the derivation is not an undoable edit: %+v", st)
	}
	if now, _ := checkpoint.List(dir); len(now) != len(cps)+1 {
		t.Errorf("checkpoints %d → %d; want one taken before the edit", len(cps), len(now))
	}
	if got := themewatch.Load(dir); got.Companion == nil || got.Companion.Theme.Name != th.Companion.Name || len(got.Companion.Checks) == 0 {
		t.Errorf("the preview state lacks the companion: %+v", got.Companion)
	}
	out, err := a.Themes.ExportTheme(ws, "kitty")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, theme.Slug(th.Companion.Name)+".conf")); err != nil {
		t.Errorf("the kitty export has no file for the variant: %v", err)
	}
	if _, err := a.Editor.UndoEdit(ws); err != nil {
		t.Fatal(err)
	}
	if readTheme(t, dir).Companion != nil {
		t.Error("undo kept the companion")
	}
	a.Editor.RedoEdit(ws)
	if _, err := a.Editor.RemoveCompanion(ws); err != nil || readTheme(t, dir).Companion != nil {
		t.Errorf("remove: %v", err)
	}
}

// The companion is hand-edited through the same bindings with paths under
// "companion.": tried, set, made to pass, undone and redone, locked (the
// lock holds through the agent's rewrite and through "derive again"), and
// forgotten with the companion.
func TestCompanionColoursAreHandEdited(t *testing.T) {
	a, rec := newStubApp(t, duskAgent())
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "a dusk theme"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "turn", func() bool { return last(rec.turns[started.TurnID]).Type() == "done" })
	ws, dir := started.WorkspaceID, started.Cwd
	file := filepath.Join(dir, theme.FileName)
	st, err := a.Editor.DeriveCompanion(ws)
	if err != nil {
		t.Fatal(err)
	}
	main := readTheme(t, dir)
	var listed, flagged int
	for _, r := range st.Roles {
		if strings.HasPrefix(r.Path, theme.CompanionPrefix) {
			listed++
			if r.Companion {
				flagged++
			}
		} else if r.Companion {
			t.Errorf("%s is the theme's own but marked as the companion's", r.Path)
		}
		if r.Path == "companion.ui.background" && r.Color != main.Companion.UI.Background.String() {
			t.Errorf("companion background listed as %s, theme.json has %s", r.Color, main.Companion.UI.Background)
		}
	}
	if listed == 0 || flagged != listed {
		t.Fatalf("the companion's roles are not listed: %d listed, %d marked", listed, flagged)
	}

	// A trial measures the companion's pairs and writes nothing.
	before, _ := os.ReadFile(file)
	tr, err := a.Editor.TryColor(TryColorRequest{WorkspaceID: ws, Path: "companion.ui.mutedText", Hex: "#e0e0e0"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Pairs) < 2 || tr.Pairs[0].FGRole != "companion.ui.mutedText" || tr.Pairs[0].AA {
		t.Fatalf("a pale muted text on the light variant: %+v", tr.Pairs)
	}
	var trialMuted string
	for _, r := range tr.CompanionRoles {
		if r.Path == "ui.mutedText" {
			trialMuted = r.Color
		}
	}
	if trialMuted != "#e0e0e0" || len(tr.Roles) == 0 {
		t.Errorf("the trial's companion roles paint muted text %q", trialMuted)
	}
	if now, _ := os.ReadFile(file); string(now) != string(before) {
		t.Fatal("TryColor wrote theme.json")
	}

	// Set, then made to pass: only the companion changes.
	if st, err = a.Editor.EditColor(EditColorRequest{WorkspaceID: ws, Path: "companion.ui.mutedText", Hex: "#e0e0e0"}); err != nil {
		t.Fatal(err)
	}
	th := readTheme(t, dir)
	if th.Companion.UI.MutedText.Hex() != "#e0e0e0" || th.UI.MutedText != main.UI.MutedText {
		t.Fatalf("companion muted %s, theme's %s (was %s)", th.Companion.UI.MutedText, th.UI.MutedText, main.UI.MutedText)
	}
	if len(st.Changed) != 1 || st.Changed[0] != "companion.ui.mutedText" || !strings.Contains(st.UndoLabel, "companion.ui.mutedText") {
		t.Fatalf("state after the companion edit: changed %v, undo %q", st.Changed, st.UndoLabel)
	}
	fix, err := a.Editor.MakePass(ws, "companion.ui.mutedText", contrast.AA)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range fix.Pairs {
		if !p.AA {
			t.Errorf("make-it-pass left %s on %s at %.2f", p.FGRole, p.BGRole, p.Ratio)
		}
	}
	if _, err := a.Editor.EditColor(EditColorRequest{WorkspaceID: ws, Path: "companion.ui.mutedText", Hex: fix.Hex}); err != nil {
		t.Fatal(err)
	}
	if got := readTheme(t, dir).Companion.UI.MutedText.String(); got != fix.Hex {
		t.Fatalf("companion muted %s after make-it-pass, want %s", got, fix.Hex)
	}

	// Undo, undo: back to the derived colour; redo: the pale one.
	a.Editor.UndoEdit(ws)
	if _, err := a.Editor.UndoEdit(ws); err != nil {
		t.Fatal(err)
	}
	if got := readTheme(t, dir).Companion.UI.MutedText; got != main.Companion.UI.MutedText {
		t.Errorf("undo left the companion's muted text %s, want %s", got, main.Companion.UI.MutedText)
	}
	if _, err := a.Editor.RedoEdit(ws); err != nil || readTheme(t, dir).Companion.UI.MutedText.Hex() != "#e0e0e0" {
		t.Fatalf("redo: %v", err)
	}

	// The next prompt tells the agent of the companion's colour and lock
	// (a keyword of the designer's, not the one derived).
	const kept = "#7a1fa0"
	if _, err := a.Editor.EditColor(EditColorRequest{WorkspaceID: ws, Path: "companion.syntax.keyword", Hex: kept}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Editor.SetLock(ws, "companion.syntax.keyword", true); err != nil {
		t.Fatal(err)
	}
	if note, _ := a.Editor.edits.Note(ws); !strings.Contains(note, "companion.ui.mutedText = #e0e0e0") || !strings.Contains(note, "companion.syntax.keyword = "+kept) {
		t.Errorf("the note to the agent:\n%s", note)
	}
	// The agent's turn rewrites the companion's keyword (and its string,
	// unlocked): the lock puts the keyword back, in the companion.
	agentWrites := func() {
		b, _ := os.ReadFile(file)
		th, _ := theme.Parse(b)
		th.Companion.Syntax.Keyword, _ = theme.ParseColor("#00aa00")
		th.Companion.Syntax.String, _ = theme.ParseColor("#aa0000")
		out, _ := theme.Rewrite(b, th)
		os.WriteFile(file, out, 0o644)
	}
	agentWrites()
	enforceLocks(t, a, ws)
	// Written outside a turn, the build's watcher may restore it first
	// (under Wine it often does); whichever restores, its notice names it.
	rec.waitFor(t, "a restore notice naming the companion's keyword", func() bool {
		for _, e := range rec.editor {
			if strings.Contains(e.Notice, "companion.syntax.keyword") && strings.Contains(e.Notice, "#00aa00") {
				return true
			}
		}
		return false
	})
	// An agent that leaves theme.json broken: the locks cannot be checked,
	// and the user is told so instead of nothing.
	good, _ := os.ReadFile(file)
	os.WriteFile(file, []byte(`{"name": "half-written`), 0o644)
	if msg := enforceLocks(t, a, ws); !strings.Contains(msg, "could not be checked") {
		t.Errorf("a broken theme after the turn: %q", msg)
	}
	os.WriteFile(file, good, 0o644)
	th = readTheme(t, dir)
	if th.Companion.Syntax.Keyword.String() != kept || th.Companion.Syntax.String.Hex() != "#aa0000" || th.Syntax.Keyword.String() == kept {
		t.Errorf("after the turn: companion keyword %s (want %s), string %s (the agent's)", th.Companion.Syntax.Keyword, kept, th.Companion.Syntax.String)
	}

	// Derived again (over the agent's rewrite), the locked keyword keeps
	// its colour; the rest follows the theme.
	agentWrites()
	if _, err := a.Editor.DeriveCompanion(ws); err != nil {
		t.Fatal(err)
	}
	th = readTheme(t, dir)
	if th.Companion.Syntax.Keyword.String() != kept || th.Companion.Syntax.String.Hex() == "#aa0000" {
		t.Errorf("derived again: keyword %s (want %s kept), string %s (want derived)", th.Companion.Syntax.Keyword, kept, th.Companion.Syntax.String)
	}

	// Removed, the companion's lock and changes are forgotten.
	if st, err = a.Editor.RemoveCompanion(ws); err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Roles {
		if r.Companion {
			t.Fatalf("a removed companion's role is listed: %s", r.Path)
		}
	}
	if note, _ := a.Editor.edits.Note(ws); strings.Contains(note, "companion.") {
		t.Errorf("the agent is still told of the removed companion:\n%s", note)
	}
	if _, err := a.Editor.EditColor(EditColorRequest{WorkspaceID: ws, Path: "companion.ui.text", Hex: "#000000"}); err == nil {
		t.Error("a companion colour set on a theme without one")
	}
	// Added again and locked, then the addition undone: the lock goes too.
	a.Editor.DeriveCompanion(ws)
	if _, err := a.Editor.SetLock(ws, "companion.ui.text", true); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Editor.UndoEdit(ws); err != nil || readTheme(t, dir).Companion != nil {
		t.Fatalf("undo of the addition: %v", err)
	}
	if note, _ := a.Editor.edits.Note(ws); strings.Contains(note, "companion.") {
		t.Errorf("the agent is told of an undone companion's lock:\n%s", note)
	}
}

// Issue #37: the agent's rewrite of theme.json leaves out the light variant
// the designer added; the app keeps it, says so in the turn with the
// one-click "drop it" (RemoveCompanion), which Undo-able like any edit.
func TestAgentRewriteKeepsTheCompanion(t *testing.T) {
	a, rec := newStubApp(t, duskAgent())
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "a dusk theme"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "first turn", func() bool { return last(rec.turns[started.TurnID]).Type() == "done" })
	ws, dir := started.WorkspaceID, started.Cwd
	sid := last(rec.turns[started.TurnID]).SessionID
	if _, err := a.Editor.DeriveCompanion(ws); err != nil {
		t.Fatal(err)
	}
	light := readTheme(t, dir).Companion
	if light == nil || light.Appearance != "light" {
		t.Fatalf("no light variant after DeriveCompanion: %+v", light)
	}

	// The fake agent's turn writes theme.json whole, without a companion.
	id, err := a.Turns.Send(SendRequest{WorkspaceID: ws, SessionID: sid, Prompt: "refine it #theme"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "second turn", func() bool { return last(rec.turns[id]).Type() == "done" })
	th := readTheme(t, dir)
	if th.Companion == nil || th.Companion.UI.Background != light.UI.Background || th.Companion.Appearance != "light" {
		t.Fatalf("the light variant was dropped by the agent's rewrite: %+v", th.Companion)
	}
	if th.Syntax.Keyword.Hex() != "#ff9e64" {
		t.Errorf("the agent's own colours were not kept beside the variant: keyword %s", th.Syntax.Keyword)
	}
	var notice *chat.Warning
	rec.mu.Lock()
	for _, e := range rec.turns[id] {
		if w, ok := e.Payload.(chat.Warning); ok && w.Action == chat.WarnDropCompanion {
			notice = &w
		}
	}
	rec.mu.Unlock()
	if notice == nil || !strings.Contains(notice.Text, "Kept the light variant the agent's rewrite left out") {
		t.Fatalf("the turn did not say the variant was kept, with its drop action: %+v", notice)
	}
	// "Drop it" is the variant's own removal.
	if _, err := a.Editor.RemoveCompanion(ws); err != nil {
		t.Fatal(err)
	}
	if readTheme(t, dir).Companion != nil {
		t.Fatal("the variant is still there after dropping it")
	}
}

// enforceLocks runs the check that closes a turn (turnrun): the locked
// colours the agent changed go back.
func enforceLocks(t *testing.T, a *App, workspaceID string) string {
	t.Helper()
	ws, err := a.Editor.openWorkspace(workspaceID)
	if err != nil {
		t.Fatal(err)
	}
	return a.Editor.edits.EnforceLocks(ws)
}
