package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/internal/testrig/acpstub"
)

// Guards a mutation pass found unwatched (issue 25).

// A saved chat the app has no report of (a Codex session from the library)
// shows the agent's own values, not the defaults saved for new builds: a
// mode made the default for new builds must not look like this chat's.
func TestSavedChatsBarDoesNotShowTheNewBuildDefaults(t *testing.T) {
	a, rec := newStubApp(t, codexAgent())
	t.Setenv("CDXTHEME_AGENT", "codex-acp") // the agent's own answers describe the bar
	withRollouts(t)
	finishedBuild(t, a, rec, "hi") // the agent's options for fresh sessions are now known
	if err := a.Chats.SaveBuildDefaults("codex", map[string]any{"mode": "read-only"}); err != nil {
		t.Fatal(err)
	}
	if bar := a.Chats.SessionBar("", ""); modeOf(bar.Options) != "read-only" {
		t.Fatalf("New build shows mode %q, want the saved default", modeOf(bar.Options))
	}
	bar := a.Chats.SessionBar("", rolloutSession)
	if got := modeOf(bar.Options); got != "agent" {
		t.Fatalf("a saved chat's bar shows mode %q, want the agent's own %q", got, "agent")
	}
}

// config.toml naming a model the agent does not offer: New build's bar
// shows one the agent offers, not a value the picker cannot hold.
func TestBarNeverShowsAModelTheAgentDoesNotOffer(t *testing.T) {
	a, rec := newStubApp(t, codexAgent())
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("model = \"gpt-0-unoffered\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CODEX_HOME", home)
	finishedBuild(t, a, rec, "hi")
	t.Setenv("CDXTHEME_AGENT", "") // the bar of Codex itself, which reads config.toml
	bar := a.Chats.SessionBar("", "")
	m, ok := acp.FindConfigOption(bar.Options, acp.CategoryModel, "model")
	if !ok || !bar.Known || !m.HasValue(m.Value) {
		t.Fatalf("the bar's model is %q, not one of the agent's %+v", m.Value, m.Options)
	}
}

// A chat with a Codex rollout is reopened with session/resume: its history
// comes from the rollout, so session/load's replay would show it twice.
func TestChatWithARolloutIsResumedNotLoaded(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("initialize", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"sessionCapabilities":{"resume":{}}}}`), nil
	})
	ag.Handle("session/new", func(*acpstub.Call) (any, error) { // a Codex session id
		return map[string]string{"sessionId": "0199bbbb-0000-7000-8000-0000000000c3"}, nil
	})
	ag.OnLoad(func(c *acpstub.Call) { // what a load would replay
		c.Update(c.SessionID(), `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"make it teal"}}`)
	})
	a, rec := newStubApp(t, ag)
	home := filepath.Join(t.TempDir(), "codex-home")
	t.Setenv("CODEX_HOME", home)
	started, sid := finishedBuild(t, a, rec, "make it teal")
	day := filepath.Join(home, "sessions", "2026", "12", "02")
	if err := os.MkdirAll(day, 0o700); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join("..", "internal", "testrig", "fixtures", "codex-home", "sessions", "2026", "12", "02", "rollout-2026-12-02T09-21-23-"+rolloutSession+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(day, "rollout-2026-12-02T10-00-00-"+sid+".jsonl"), src, 0o600); err != nil {
		t.Fatal(err)
	}
	a.Shutdown(nil) // no warm agent: opening must reconnect
	id, err := a.Turns.OpenChat(OpenRequest{WorkspaceID: started.WorkspaceID, SessionID: sid})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "ready", func() bool { return last(rec.turns[id]).Type() == chat.EventReady })
	if m := ag.Methods(); count(m, "session/resume") != 1 || count(m, "session/load") != 0 {
		t.Fatalf("reopening a chat with a rollout sent %v", m)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, ev := range rec.turns[id] {
		if ev.Replay {
			t.Fatalf("history replayed although the rollout holds it: %+v", ev)
		}
	}
}

// config.toml naming a model Codex's cache does not list, with an effort
// that model's levels lack: before the agent answered, New build's bar and
// a saved chat's bar show an effort the picker offers, never a blank one.
func TestBarNeverShowsAnEffortTheModelDoesNotOffer(t *testing.T) {
	a, _ := newStubApp(t, acpstub.New())
	t.Setenv("CDXTHEME_AGENT", "") // Codex's own files describe the bar
	withRollouts(t)
	cfg := "model = \"gpt-local\"\nmodel_reasoning_effort = \"minimal\"\n"
	if err := os.WriteFile(filepath.Join(os.Getenv("CODEX_HOME"), "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, sid := range []string{"", rolloutSession} {
		bar := a.Chats.SessionBar("", sid)
		m, ok := acp.FindConfigOption(bar.Options, acp.CategoryModel, "model")
		if !ok || m.Value != "gpt-local" || !m.HasValue(m.Value) {
			t.Fatalf("bar of %q: model %q of %+v, want config.toml's gpt-local", sid, m.Value, m.Options)
		}
		eff, ok := acp.FindConfigOption(bar.Options, acp.CategoryThoughtLevel, "reasoning_effort")
		if !ok || !eff.HasValue(eff.Value) {
			t.Fatalf("bar of %q: effort %q, not one of %+v", sid, eff.Value, eff.Options)
		}
	}
}

// config.toml is Codex's: with another agent command (CDXTHEME_AGENT) New
// build's bar shows that agent's own model, not the one config.toml names.
func TestAnotherAgentsBarIgnoresCodexConfig(t *testing.T) {
	a, rec := newStubApp(t, codexAgent())
	t.Setenv("CDXTHEME_AGENT", "other-acp")
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("model = \"gpt-5.4-mini\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CODEX_HOME", home)
	finishedBuild(t, a, rec, "hi")
	bar := a.Chats.SessionBar("", "")
	if m, ok := acp.FindConfigOption(bar.Options, acp.CategoryModel, "model"); !ok || m.Value != "gpt-5.5" {
		t.Fatalf("the bar's model is %q, want the agent's own gpt-5.5 (config.toml is Codex's)", m.Value)
	}
}
