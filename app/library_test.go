package app

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"cdxtheme/internal/testrig/acpstub"
)

// The agent's session/list reaches Home in the background: the first call
// answers from disk at once, a "sessions" event follows, and the next call
// includes what only the agent knows.
func TestSessionsMergeTheAgentsListInTheBackground(t *testing.T) {
	const id = "0199aaaa-0000-7000-8000-0000000000b2"
	ag := acpstub.New()
	ag.Handle("initialize", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"sessionCapabilities":{"list":{}}}}`), nil
	})
	// A session only the agent knows: no rollout of it on disk.
	ag.Handle("session/list", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"sessions":[{"sessionId":"` + id + `","cwd":"/work/x","title":"Known to the agent","updatedAt":"2030-01-01T00:00:00Z"}]}`), nil
	})
	a, rec := newStubApp(t, ag)
	t.Setenv("CODEX_HOME", t.TempDir())
	var got bool
	rec.mu.Lock()
	rec.onEmit = func(name string) {
		if name == "sessions" {
			got = true
		}
	}
	rec.mu.Unlock()
	first, err := a.Library.Sessions(SessionQuery{Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range first.Sessions {
		if s.ID == id {
			t.Fatal("the agent's list was awaited instead of merged in the background")
		}
	}
	rec.waitFor(t, "the sessions event", func() bool { return got })
	second, err := a.Library.Sessions(SessionQuery{Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if len(second.Sessions) != 1 || second.Sessions[0].ID != id || second.Sessions[0].Title != "Known to the agent" {
		t.Fatalf("after the refresh: %+v", second.Sessions)
	}
	// Refreshes are spaced: listing again does not ask the agent again.
	// Sessions decides under the lock before it returns (refreshing is set
	// then), so no wait is needed to see a refresh it started.
	a.Library.lib.mu.Lock()
	asked := a.Library.lib.askedAt
	a.Library.lib.mu.Unlock()
	a.Library.Sessions(SessionQuery{Limit: 50})
	a.Library.lib.mu.Lock()
	defer a.Library.lib.mu.Unlock()
	if !a.Library.lib.askedAt.Equal(asked) || a.Library.lib.refreshing || count(ag.Methods(), "session/list") != 1 {
		t.Fatalf("a second listing asked the agent again right away: %v", ag.Methods())
	}
}

// A missing Codex home reaches Home as a hint code the UI words in its
// language, with the folder it looked in (not only Go's English hint).
func TestSessionsSayWhyTheListIsEmpty(t *testing.T) {
	a, _ := newStubApp(t, acpstub.New())
	missing := filepath.Join(t.TempDir(), "no-codex-here")
	t.Setenv("CODEX_HOME", missing)
	res, err := a.Library.Sessions(SessionQuery{Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	var wire struct{ Hint, HintCode, HintDir string }
	json.Unmarshal(b, &wire)
	if wire.Hint == "" || wire.HintCode == "" || wire.HintDir == "" {
		t.Fatalf("no hint code for a missing home: %s", b)
	}
}
