package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/checkpoint"
	"cdxtheme/core/handedit"
	"cdxtheme/core/theme"
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
	a, rec, logPath := newTestApp(t, "theme")
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "a dusk theme"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "first turn", func() bool { return last(rec.turns[started.TurnID]).Type == "done" })
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
	rec.waitFor(t, "second turn", func() bool { return last(rec.turns[id]).Type == "done" })
	log, _ := os.ReadFile(logPath)
	for _, want := range []string{"hand-edits", "syntax.comment = #8890a0", "LOCKED", "syntax.keyword = #123456"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("the prompt the agent got lacks %q", want)
		}
	}
	th := readTheme(t, dir)
	if th.Syntax.Keyword.Hex() != "#123456" {
		t.Errorf("locked keyword is %s after the agent's turn, want #123456 kept", th.Syntax.Keyword)
	}
	if th.Syntax.Comment.Hex() == "#8890a0" {
		t.Errorf("the unlocked comment was restored too; only locks are")
	}
	var warned bool
	rec.mu.Lock()
	for _, e := range rec.turns[id] {
		warned = warned || e.Type == "warning" && strings.Contains(e.Text, "syntax.keyword") && strings.Contains(e.Text, "#ff9e64")
	}
	rec.mu.Unlock()
	if !warned {
		t.Error("the restore of the locked keyword was not reported in the turn")
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

func TestMakePassAndTryColorMeasureWithoutWriting(t *testing.T) {
	a, rec, _ := newTestApp(t, "theme")
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "a dusk theme"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "turn", func() bool { return last(rec.turns[started.TurnID]).Type == "done" })
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
	fix, err := a.Editor.MakePass(ws, "ui.mutedText", theme.AA)
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
}

// The light variant is derived into theme.json as an edit (checkpoint,
// undo), exported beside the theme, and removed again.
func TestCompanionIsAnEditAndReachesTheExports(t *testing.T) {
	a, rec, _ := newTestApp(t, "theme")
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "a dusk theme"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "turn", func() bool { return last(rec.turns[started.TurnID]).Type == "done" })
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
	if got := theme.Load(dir); got.Companion == nil || got.Companion.Theme.Name != th.Companion.Name || len(got.Companion.Checks) == 0 {
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
