package app

import (
	"path/filepath"
	"testing"

	"cdxtheme/core/themewatch"
	"cdxtheme/core/workspace"
)

// names is every name a build goes by: its card's title, its theme's name
// in theme.json, its session in the list and in the transcript.
type names struct{ card, theme, session, transcript string }

func namesOf(t *testing.T, a *App, wsID, sessionID string) names {
	t.Helper()
	var n names
	for _, c := range a.Builds.Builds() {
		if c.ID == wsID {
			n.card = c.Title
		}
	}
	ws, err := workspace.Open(workspace.Root(), wsID)
	if err != nil {
		t.Fatal(err)
	}
	if st := themewatch.Load(ws.Dir); st.Theme != nil {
		n.theme = st.Theme.Name
	}
	list, err := a.Library.Sessions(SessionQuery{Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range list.Sessions {
		if s.ID == sessionID {
			n.session = s.Title
		}
	}
	pg, err := a.Library.TranscriptPage(sessionID, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	n.transcript = pg.Title
	return n
}

func inStep(name string) names { return names{name, name, name, name} }

// lastBuild is the last "build" event for a workspace's card.
func lastBuild(rec *recorder, wsID string) string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for i := len(rec.builds) - 1; i >= 0; i-- {
		if rec.builds[i].ID == wsID {
			return rec.builds[i].Title
		}
	}
	return ""
}

// An imported build is named after the imported theme; when the agent
// names the theme anew, the build, its session in the list and the
// transcript take the new name, and the open views hear of it.
func TestImportedBuildTakesTheNameTheAgentWrites(t *testing.T) {
	a, rec := newStubApp(t, duskAgent())
	home := filepath.Join(t.TempDir(), "codex")
	t.Setenv("CODEX_HOME", home)
	imp, err := a.Themes.ImportTheme(ImportRequest{FileName: "nightfall-color-theme.json", Data: mustRead(t, "../core/theme/testdata/import/nightfall-color-theme.json")})
	if err != nil {
		t.Fatal(err)
	}
	if imp.Title != "Nightfall" {
		t.Fatalf("imported build titled %q, want the theme's name", imp.Title)
	}
	id, err := a.Turns.Send(SendRequest{WorkspaceID: imp.WorkspaceID, Prompt: "Make it dusk"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "the turn to end", turnDone(rec, id))
	// The watcher saw the agent's write: the build follows without a reload.
	rec.waitFor(t, "the build event", func() bool {
		for _, b := range rec.builds {
			if b.ID == imp.WorkspaceID && b.Title == "Fake Dusk" {
				return true
			}
		}
		return false
	})
	ws, _ := workspace.Open(workspace.Root(), imp.WorkspaceID)
	if len(ws.SessionIDs) != 1 {
		t.Fatalf("sessions %v", ws.SessionIDs)
	}
	sid := ws.SessionIDs[0]
	// Codex names the session after the first prompt; the app shows the build's name.
	writeRollout(t, home, sid, `"cli"`, "Make it dusk", "Done.")
	if got := namesOf(t, a, imp.WorkspaceID, sid); got != inStep("Fake Dusk") {
		t.Errorf("after the agent named the theme: %+v", got)
	}
}

// A rename from Home (or of the build's session) names the build, its
// theme and its session alike; undo and redo take both back and forth; the
// agent's own name for the theme no longer moves the user's; an empty name
// gives the build back to its theme.
func TestRenameKeepsBuildThemeAndSessionInStep(t *testing.T) {
	a, rec := newStubApp(t, duskAgent())
	home := filepath.Join(t.TempDir(), "codex")
	t.Setenv("CODEX_HOME", home)
	imp, err := a.Themes.ImportTheme(ImportRequest{FileName: "nightfall-color-theme.json", Data: mustRead(t, "../core/theme/testdata/import/nightfall-color-theme.json")})
	if err != nil {
		t.Fatal(err)
	}
	wsID := imp.WorkspaceID
	const sid = "01a20000-0000-7000-8000-0000000000e1"
	// Checked: under Wine this run once named the session by its prompt,
	// as if the build did not hold it (open; docs/TESTING.md).
	if _, err := workspace.AddSession(workspace.Root(), wsID, sid); err != nil {
		t.Fatalf("record the session in the build: %v", err)
	}
	writeRollout(t, home, sid, `"cli"`, "Make it dusk", "Done.")
	if got := namesOf(t, a, wsID, sid); got != inStep("Nightfall") {
		t.Fatalf("after the import: %+v", got)
	}

	card, err := a.Builds.RenameBuild(wsID, "Harbour at dusk")
	if err != nil || card.Title != "Harbour at dusk" || card.Name != "Harbour at dusk" {
		t.Fatalf("rename: %+v %v", card, err)
	}
	if got := lastBuild(rec, wsID); got != "Harbour at dusk" {
		t.Errorf("build event %q", got)
	}
	if got := namesOf(t, a, wsID, sid); got != inStep("Harbour at dusk") {
		t.Errorf("after the rename: %+v", got)
	}
	// The theme's rename is a hand edit: a checkpoint before it, and undo.
	st, err := a.Editor.EditorState(wsID)
	if err != nil || !st.CanUndo || st.UndoLabel != `Rename the theme to "Harbour at dusk"` {
		t.Fatalf("editor state %+v %v", st, err)
	}
	if cps, _ := a.Builds.Checkpoints(wsID); len(cps) == 0 {
		t.Error("no checkpoint before the theme's rename")
	}
	if _, err := a.Editor.UndoEdit(wsID); err != nil {
		t.Fatal(err)
	}
	if got := namesOf(t, a, wsID, sid); got != inStep("Nightfall") {
		t.Errorf("after undo: %+v", got)
	}
	if _, err := a.Editor.RedoEdit(wsID); err != nil {
		t.Fatal(err)
	}
	if got := namesOf(t, a, wsID, sid); got != inStep("Harbour at dusk") {
		t.Errorf("after redo: %+v", got)
	}

	// Renaming the build's session renames the build.
	if err := a.Library.RenameSession(sid, "Lighthouse"); err != nil {
		t.Fatal(err)
	}
	if got := namesOf(t, a, wsID, sid); got != inStep("Lighthouse") {
		t.Errorf("after renaming the session: %+v", got)
	}
	if n, _ := a.Library.sessionNotes().Get(); n.Titles[sid] != "" {
		t.Errorf("a build's session got a name of its own: %q", n.Titles[sid])
	}

	// The agent writes its own name: the user's stays the build's.
	id, err := a.Turns.Send(SendRequest{WorkspaceID: wsID, Prompt: "Make it dusk"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "the turn to end", turnDone(rec, id))
	got := namesOf(t, a, wsID, sid)
	if got.card != "Lighthouse" || got.session != "Lighthouse" || got.transcript != "Lighthouse" || got.theme != "Fake Dusk" {
		t.Errorf("after the agent's write: %+v, want the user's name kept", got)
	}

	// An empty name hands the build back to its theme.
	if card, err := a.Builds.RenameBuild(wsID, ""); err != nil || card.Title != "Fake Dusk" || !card.FollowsTheme {
		t.Errorf("empty rename: %+v %v", card, err)
	}
	if got := namesOf(t, a, wsID, sid); got != inStep("Fake Dusk") {
		t.Errorf("after handing the build back to its theme: %+v", got)
	}
}

// A new build starts with the first line of its prompt as its name (which
// NewBuild hands the chat) and takes the theme's name once the agent
// writes one.
func TestNewBuildTakesItsThemesName(t *testing.T) {
	a, rec := newStubApp(t, duskAgent())
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "A calm dusk theme\nwith amber accents"})
	if err != nil {
		t.Fatal(err)
	}
	if started.Title != "A calm dusk theme" {
		t.Errorf("NewBuild title %q, want the prompt's first line", started.Title)
	}
	rec.waitFor(t, "the turn to end", turnDone(rec, started.TurnID))
	cards := a.Builds.Builds()
	if len(cards) != 1 || cards[0].Title != "Fake Dusk" || cards[0].Name != "Fake Dusk" {
		t.Errorf("cards %+v, want the build named after its theme", cards)
	}
}
