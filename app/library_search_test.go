package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/app/buildcard"
	"cdxtheme/core/workspace"
	"cdxtheme/internal/testrig/acpstub"
)

// writeRollout writes a small rollout as Codex writes them.
func writeRollout(t *testing.T, home, id, source, user, assistant string) {
	t.Helper()
	dir := filepath.Join(home, "sessions", "2026", "12", "03")
	os.MkdirAll(dir, 0o755)
	data := fmt.Sprintf(`{"timestamp":"2026-12-03T10:00:00Z","type":"session_meta","payload":{"id":%q,"cwd":"/w","source":%s}}
{"timestamp":"2026-12-03T10:00:01Z","type":"event_msg","payload":{"type":"user_message","message":%q}}
{"timestamp":"2026-12-03T10:00:02Z","type":"event_msg","payload":{"type":"agent_message","message":%q}}
`, id, source, user, assistant)
	if err := os.WriteFile(filepath.Join(dir, "rollout-2026-12-03T10-00-00-"+id+".jsonl"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Home's library: text search through the index built in the background,
// the user's own titles, hidden and sub-agent sessions, garbage files.
func TestLibrarySearchRenameHide(t *testing.T) {
	a, rec := newStubApp(t, acpstub.New())
	home := filepath.Join(t.TempDir(), "codex")
	t.Setenv("CODEX_HOME", home)
	const (
		idA = "01a20000-0000-7000-8000-0000000000a1"
		idB = "01a20000-0000-7000-8000-0000000000b1"
		idG = "01a20000-0000-7000-8000-0000000000c1"
		idX = "01a20000-0000-7000-8000-0000000000d1"
	)
	writeRollout(t, home, idA, `"cli"`, "Say hello to the harbour", "Hello! A harbour theme coming up.")
	writeRollout(t, home, idB, `"cli"`, "A lighthouse theme", "Amber and grey.")
	writeRollout(t, home, idG, `{"subagent":{"other":"guardian"}}`, "review: hello harbour", "Approved.")
	os.WriteFile(filepath.Join(home, "sessions", "2026", "12", "03", "rollout-2026-12-03T10-00-00-"+idX+".jsonl"), []byte("\x00garbage\n"), 0o644)

	var events []string
	rec.mu.Lock()
	rec.onEmit = func(name string) { events = append(events, name) }
	rec.mu.Unlock()
	list, err := a.Library.Sessions(SessionQuery{Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	ids := func(r []string) string { return strings.Join(r, ",") }
	var got []string
	for _, s := range list.Sessions {
		got = append(got, s.ID)
		if s.ID == idX && s.Unreadable == "" {
			t.Errorf("garbage listed as readable: %+v", s)
		}
	}
	if len(got) != 3 || strings.Contains(ids(got), idG) {
		t.Fatalf("default list %v: want the two sessions and the unreadable file, no sub-agent", got)
	}
	rec.waitFor(t, "the index build", func() bool {
		for _, e := range events {
			if e == "search-index" {
				return !a.Library.SearchStatus().Building
			}
		}
		return false
	})
	res, err := a.Library.Sessions(SessionQuery{Search: "hello", Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sessions) != 1 || res.Sessions[0].ID != idA || res.Sessions[0].Snippet.Text == "" || len(res.Sessions[0].Marks) == 0 {
		t.Fatalf("search hello: %+v", res.Sessions)
	}
	res, _ = a.Library.Sessions(SessionQuery{Search: "hello", Limit: 50, ShowInternal: true})
	if len(res.Sessions) != 2 {
		t.Errorf("with internal sessions: %d hits, want the guardian's too", len(res.Sessions))
	}

	// Rename: shown in the list, matched by search, in the transcript.
	if err := a.Library.RenameSession(idB, "My lighthouse"); err != nil {
		t.Fatal(err)
	}
	res, _ = a.Library.Sessions(SessionQuery{Search: "my lighthouse", Limit: 50})
	if len(res.Sessions) != 1 || res.Sessions[0].Title != "My lighthouse" {
		t.Errorf("renamed title: %+v", res.Sessions)
	}
	if pg, err := a.Library.TranscriptPage(idB, 0, 10); err != nil || pg.Title != "My lighthouse" {
		t.Errorf("transcript title %q %v", pg.Title, err)
	}
	// and in the Markdown export.
	a.Desktop.saveTo = filepath.Join(t.TempDir(), "out.md")
	if _, err := a.Library.ExportTranscript(idB); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(a.Desktop.saveTo); !strings.HasPrefix(string(b), "# My lighthouse\n") {
		t.Errorf("the export's heading: %.80q", b)
	}
	// Hide, and show hidden ones on request.
	if err := a.Library.HideSession(idB, true); err != nil {
		t.Fatal(err)
	}
	res, _ = a.Library.Sessions(SessionQuery{Limit: 50})
	for _, s := range res.Sessions {
		if s.ID == idB {
			t.Error("hidden session listed")
		}
	}
	res, _ = a.Library.Sessions(SessionQuery{Limit: 50, ShowHidden: true})
	found := false
	for _, s := range res.Sessions {
		found = found || (s.ID == idB && s.Hidden)
	}
	if !found {
		t.Error("hidden session not listed with ShowHidden")
	}
	// The app's store, never CODEX_HOME.
	if _, err := os.Stat(filepath.Join(os.Getenv("CDXTHEME_DATA_DIR"), "sessions.json")); err != nil {
		t.Errorf("notes not in the data dir: %v", err)
	}
	filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), "rollout-") {
			t.Errorf("the app wrote %s into CODEX_HOME", p)
		}
		return nil
	})
}

func TestBuildsCardsRenameDuplicateDeleteUndo(t *testing.T) {
	a, _ := newStubApp(t, acpstub.New())
	root := workspace.Root()
	never, _ := workspace.Create(root, "never sent", "")
	started, _ := workspace.Create(root, "Harbour", "gpt-5.5")
	workspace.AddSession(root, started.ID, "s-1")
	theme, err := os.ReadFile("../core/theme/testdata/example.theme.json")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(started.Dir, "theme.json"), theme, 0o644)

	cards := a.Builds.Builds()
	if len(cards) != 1 || cards[0].ID != started.ID {
		t.Fatalf("cards %+v: want only the build that got its first message", cards)
	}
	c := cards[0]
	if c.Name != "Harbour Night" || len(c.Swatches) == 0 || c.Swatches[0] != "#161a24" || c.Changed.IsZero() {
		t.Errorf("card %+v", c)
	}
	if c.Status != buildcard.Ready && c.Status != buildcard.Failing {
		t.Errorf("status %q", c.Status)
	}
	if _, err := os.Stat(never.Dir); err != nil {
		t.Error("a fresh unsent workspace must not be removed yet (its turn may be starting)")
	}

	if r, err := a.Builds.RenameBuild(started.ID, "Harbour at dusk"); err != nil || r.Title != "Harbour at dusk" {
		t.Errorf("rename: %+v %v", r.Title, err)
	}
	dup, err := a.Builds.DuplicateBuild(started.ID)
	if err != nil || dup.Title != "Harbour at dusk (copy)" || len(dup.SessionIDs) != 0 {
		t.Fatalf("duplicate: %+v %v", dup, err)
	}
	if len(a.Builds.Builds()) != 2 {
		t.Error("the duplicate is not on Home")
	}
	if err := a.Builds.DeleteBuild(started.ID); err != nil {
		t.Fatal(err)
	}
	if cards := a.Builds.Builds(); len(cards) != 1 || cards[0].ID != dup.ID {
		t.Errorf("after delete: %+v", cards)
	}
	if err := a.Builds.RestoreBuild(started.ID); err != nil {
		t.Fatal(err)
	}
	if cards := a.Builds.Builds(); len(cards) != 2 {
		t.Errorf("after undo: %d cards", len(cards))
	}
}

// Kept on newTestApp (the subprocess agent's setup): the agent's program
// is missing, which only a resolved command can be.

// A first message that never leaves (no agent) leaves no build behind.
func TestNewBuildThatFailsToStartKeepsNoWorkspace(t *testing.T) {
	a, _, _ := newTestApp(t, "normal")
	t.Setenv("CDXTHEME_AGENT", filepath.Join(t.TempDir(), "no-such-agent"))
	a.Turns.NewBuild(NewBuildRequest{Prompt: "A calm dusk theme"})
	if list, _ := workspace.List(workspace.Root()); len(list) != 0 {
		if len(a.Builds.Builds()) != 0 {
			t.Errorf("a build whose first message never reached an agent is on Home: %+v", a.Builds.Builds())
		}
	}
}

// An index that cannot be opened (a full or blocked cache dir) leaves
// search to titles and folders: Home is told why, as the CLI's stderr is;
// an index whose last update failed is said to be out of date.
func TestSearchSaysWhenMessageTextIsNotSearched(t *testing.T) {
	a, _ := newStubApp(t, acpstub.New())
	home := filepath.Join(t.TempDir(), "codex")
	t.Setenv("CODEX_HOME", home)
	const id = "01a20000-0000-7000-8000-0000000000e1"
	writeRollout(t, home, id, `"cli"`, "A harbour theme", "Teal and sand.")
	blocker := filepath.Join(t.TempDir(), "cache-is-a-file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CDXTHEME_CACHE_DIR", filepath.Join(blocker, "cache"))

	res, err := a.Library.Sessions(SessionQuery{Search: "teal", Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if res.TitlesOnly == "" || !strings.Contains(res.TitlesOnly, "search index") || len(res.Sessions) != 0 {
		t.Fatalf("search over a blocked cache: titlesOnly %q, %d hits (the text is unsearchable)", res.TitlesOnly, len(res.Sessions))
	}
	if b, _ := json.Marshal(res); !strings.Contains(string(b), `"titlesOnly":`) {
		t.Errorf("the notice does not reach the page: %s", b)
	}
	// SearchStatus, which the page asks for, names the same reason.
	if st := a.Library.SearchStatus(); st.Error == "" || st.Building {
		t.Errorf("SearchStatus over a blocked cache: %+v, want why the index is unavailable", st)
	}
	if res, _ := a.Library.Sessions(SessionQuery{Limit: 50}); res.TitlesOnly != "" || res.Stale != "" || len(res.Sessions) != 1 {
		t.Errorf("a plain listing searches nothing, so it warns of nothing: %+v", res)
	}

	// The cache is usable again: the index opens and is built; then an
	// update fails (as runIndex records it).
	t.Setenv("CDXTHEME_CACHE_DIR", filepath.Join(t.TempDir(), "cache"))
	a.Library.refreshIndex(true)
	a.Library.lib.index.Wait()
	res, _ = a.Library.Sessions(SessionQuery{Search: "teal", Limit: 50})
	if res.TitlesOnly != "" || res.Stale != "" || len(res.Sessions) != 1 {
		t.Fatalf("with a working index: %+v", res)
	}
	a.Library.lib.index.Fail(errors.New("update the search index: database or disk is full"))
	res, _ = a.Library.Sessions(SessionQuery{Search: "teal", Limit: 50})
	if !strings.Contains(res.Stale, "disk is full") || res.TitlesOnly != "" || len(res.Sessions) != 1 {
		t.Errorf("after a failed update: %+v", res)
	}
}
