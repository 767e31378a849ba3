package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/checkpoint"
	"cdxtheme/core/theme"
	"cdxtheme/core/themeimport"
	"cdxtheme/core/workspace"
	"cdxtheme/internal/testrig/acpstub"
)

func turnDone(rec *recorder, id string) func() bool {
	return func() bool { return last(rec.turns[id]).Type() == "done" }
}

// Every prompt path snapshots the workspace before the agent sees the
// prompt; restoring a turn's checkpoint brings the theme back, compare
// names the changed roles, and the restore is undoable.
func TestTurnsTakeCheckpointsThatRestore(t *testing.T) {
	a, rec := newStubApp(t, duskAgent())
	events := 0
	rec.onEmit = func(name string) {
		if name == "checkpoints" {
			events++
		}
	}
	imp, err := a.Themes.ImportTheme(ImportRequest{FileName: "nightfall-color-theme.json", Data: mustRead(t, "../core/theme/testdata/import/nightfall-color-theme.json")})
	if err != nil {
		t.Fatal(err)
	}
	ws, _ := workspace.Open(workspace.Root(), imp.WorkspaceID)
	imported, _ := os.ReadFile(filepath.Join(ws.Dir, theme.FileName))

	id, err := a.Turns.Send(SendRequest{WorkspaceID: imp.WorkspaceID, Prompt: "Make it dusk"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "the turn to end", turnDone(rec, id))
	list, err := a.Builds.Checkpoints(imp.WorkspaceID)
	if err != nil || len(list) != 1 || list[0].TurnID != id || list[0].Label != "Make it dusk" {
		t.Fatalf("checkpoints = %+v (%v), want one for turn %s", list, err, id)
	}
	now, _ := os.ReadFile(filepath.Join(ws.Dir, theme.FileName))
	if string(now) == string(imported) {
		t.Fatal("the fake agent did not change theme.json")
	}

	cmp, err := a.Builds.CompareCheckpoint(imp.WorkspaceID, list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Before.Theme == nil || cmp.Before.Theme.Name != "Nightfall" || cmp.After.Theme == nil || cmp.After.Theme.Name != "Fake Dusk" {
		t.Fatalf("compare before %+v after %+v", cmp.Before.Theme, cmp.After.Theme)
	}
	if !contains(cmp.Changed, "ui.accent") || contains(cmp.Changed, "ui.nonsense") || len(cmp.Changed) == 0 {
		t.Errorf("changed = %v", cmp.Changed)
	}
	want := theme.Changed(cmp.Before.Theme, cmp.After.Theme)
	if strings.Join(want, ",") != strings.Join(cmp.Changed, ",") {
		t.Errorf("changed %v, want %v", cmp.Changed, want)
	}

	undo, err := a.Builds.RestoreCheckpoint(imp.WorkspaceID, list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(ws.Dir, theme.FileName)); string(b) != string(imported) {
		t.Errorf("after restore theme.json = %s", b)
	}
	if undo.Kind != checkpoint.KindRestore || undo.RestoredTo != list[0].ID {
		t.Errorf("undo = %+v", undo)
	}
	if _, err := a.Builds.RestoreCheckpoint(imp.WorkspaceID, undo.ID); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(ws.Dir, theme.FileName)); string(b) != string(now) {
		t.Errorf("undoing the restore gave %s", b)
	}
	// The workspace still knows its session after two restores.
	ws2, _ := workspace.Open(workspace.Root(), imp.WorkspaceID)
	if len(ws2.SessionIDs) != 1 {
		t.Errorf("sessions after restore: %v", ws2.SessionIDs)
	}
	rec.mu.Lock()
	n := events
	rec.mu.Unlock()
	if n < 3 {
		t.Errorf("%d checkpoints events, want one per turn and restore", n)
	}
}

func TestRestoreRefusedWhileATurnRuns(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		turn.Say("Working on the palette… ")
		<-turn.Cancelled() // works until stopped
		return "cancelled"
	})
	a, rec := newStubApp(t, ag)
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "slowly"})
	if err != nil {
		t.Fatal(err)
	}
	list, _ := a.Builds.Checkpoints(started.WorkspaceID)
	if len(list) != 1 {
		t.Fatalf("NewBuild took %d checkpoints, want 1 before its first prompt", len(list))
	}
	if _, err := a.Builds.RestoreCheckpoint(started.WorkspaceID, list[0].ID); err == nil || !strings.Contains(err.Error(), "a turn is running") {
		t.Errorf("restore during a turn: %v", err)
	}
	a.Turns.Cancel(started.TurnID)
	rec.waitFor(t, "the turn to end", turnDone(rec, started.TurnID))
}

func TestImportThemeBinding(t *testing.T) {
	a, _ := newStubApp(t, acpstub.New())
	res, err := a.Themes.ImportTheme(ImportRequest{FileName: "C:\\Users\\me\\one-light.yaml", Data: mustRead(t, "../core/theme/testdata/import/one-light.yaml"), Name: "  "})
	if err != nil {
		t.Fatal(err)
	}
	if res.Format != "base24" || res.Title != "One Light" || len(res.Mapped)+len(res.Derived) != len(theme.RolePaths()) {
		t.Errorf("result = %+v", res)
	}
	st, err := a.Themes.Theme(res.WorkspaceID)
	if err != nil || st.Theme == nil || st.Theme.Appearance != "light" {
		t.Errorf("theme state %+v %v", st, err)
	}
	_, err = a.Themes.ImportTheme(ImportRequest{FileName: "x.toml", Data: []byte("[colors.primary]\nbackground = \"#12\"\n")})
	if err == nil || !strings.Contains(err.Error(), "x.toml:2: colors.primary.background") {
		t.Errorf("bad drop: %v", err)
	}
	if _, err := a.Themes.ImportTheme(ImportRequest{FileName: "big.json", Data: make([]byte, themeimport.MaxImportSize+1)}); err == nil {
		t.Error("an oversized drop was imported")
	}
	// A name the user gave the import names the theme and its build.
	named, err := a.Themes.ImportTheme(ImportRequest{FileName: "one-light.yaml", Data: mustRead(t, "../core/theme/testdata/import/one-light.yaml"), Name: "Harbour Day"})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := a.Themes.Theme(named.WorkspaceID); err != nil || named.Title != "Harbour Day" || st.Theme == nil || st.Theme.Name != "Harbour Day" {
		t.Errorf("a named import: title %q, theme %+v, %v", named.Title, st.Theme, err)
	}
	if n := len(a.Builds.Workspaces()); n != 2 {
		t.Errorf("%d workspaces, want only the two good imports", n)
	}
}

func TestVSCodeThemeForPreview(t *testing.T) {
	a, _ := newStubApp(t, acpstub.New())
	out, err := a.Themes.VSCodeTheme(string(theme.ExampleJSON()))
	if err != nil {
		t.Fatal(err)
	}
	var vt struct {
		Type   string
		Colors map[string]string
	}
	if err := json.Unmarshal([]byte(out), &vt); err != nil || vt.Type != "dark" || vt.Colors["editor.background"] != "#161a24" {
		t.Errorf("vscode theme %.200s (%v)", out, err)
	}
	if _, err := a.Themes.VSCodeTheme(`{"name": 1}`); err == nil {
		t.Error("an invalid document rendered")
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
