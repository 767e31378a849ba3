package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/chat"
	"cdxtheme/core/settings"
	"cdxtheme/internal/testrig/fakeagent/fakeagenttest"
)

// agentCalls lists the requests the fake agent got (method and params).
func agentCalls(t *testing.T, logPath string) (methods []string, params []json.RawMessage) {
	t.Helper()
	b, err := os.ReadFile(logPath)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		var m struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(line, &m) == nil && m.Method != "" {
			methods = append(methods, m.Method)
			params = append(params, m.Params)
		}
	}
	return methods, params
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestPrewarmedNewBuild(t *testing.T) {
	a, rec, logPath := newTestApp(t, "normal")
	if err := a.Turns.Prewarm(PrewarmRequest{}); err != nil {
		t.Fatal(err)
	}
	// The session opens before the first message is typed, in the folder
	// the build will use; Home does not list it as a build.
	waitUntil(t, "session/new", func() bool {
		m, _ := agentCalls(t, logPath)
		return strings.Join(m, ",") == "initialize,session/new"
	})
	if b := a.Builds.Builds(); len(b) != 0 {
		t.Fatalf("Home lists the unsent New build: %+v", b)
	}
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "A calm dusk theme", Options: map[string]any{"model": "gpt-5.4"}})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "done", func() bool { return last(rec.turns[started.TurnID]).Type() == "done" })
	methods, params := agentCalls(t, logPath)
	if strings.Join(methods, ",") != "initialize,session/new,session/set_config_option,session/prompt" {
		t.Fatalf("the agent got %v: the first message did not go out on the pre-warmed session", methods)
	}
	var nw struct{ Cwd string }
	json.Unmarshal(params[1], &nw)
	if nw.Cwd != started.Cwd {
		t.Fatalf("the session was opened in %s, the build lives in %s", nw.Cwd, started.Cwd)
	}
	b := a.Builds.Builds()
	if len(b) != 1 || b[0].ID != started.WorkspaceID || b[0].Title != "A calm dusk theme" || b[0].Model != "gpt-5.4" {
		t.Fatalf("builds after the first message: %+v", b)
	}
	// The view closes once the chat opens: the build and its agent stay.
	a.Turns.Release(PrewarmRequest{})
	a.Turns.turns.wg.Wait()
	if _, err := os.Stat(started.Cwd); err != nil {
		t.Fatalf("the build's folder went with the view: %v", err)
	}
	if len(fakeAgents(t)) != 1 {
		t.Fatalf("want the chat's warm agent alive, found %v", fakeAgents(t))
	}
}

func TestReleasedNewBuildLeavesNothing(t *testing.T) {
	a, _, logPath := newTestApp(t, "normal")
	if err := a.Turns.Prewarm(PrewarmRequest{}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "session/new", func() bool {
		m, _ := agentCalls(t, logPath)
		return len(m) == 2
	})
	_, params := agentCalls(t, logPath)
	var nw struct{ Cwd string }
	json.Unmarshal(params[1], &nw)
	if len(fakeAgents(t)) != 1 {
		t.Fatalf("agents while pre-warmed: %v", fakeAgents(t))
	}
	a.Turns.Release(PrewarmRequest{})
	a.Turns.turns.wg.Wait()
	if _, err := os.Stat(nw.Cwd); !os.IsNotExist(err) {
		t.Fatalf("the unused New build's folder %s is still there (%v)", nw.Cwd, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(nw.Cwd))
	if len(entries) != 0 {
		t.Fatalf("left in the workspace root: %v", entries)
	}
	if p := fakeAgents(t); len(p) != 0 {
		t.Fatalf("the released agent is still running: %v", p)
	}
}

func TestQuitRemovesThePrewarmedBuild(t *testing.T) {
	a, _, logPath := newTestApp(t, "normal")
	a.Turns.Prewarm(PrewarmRequest{})
	waitUntil(t, "session/new", func() bool { m, _ := agentCalls(t, logPath); return len(m) == 2 })
	_, params := agentCalls(t, logPath)
	var nw struct{ Cwd string }
	json.Unmarshal(params[1], &nw)
	a.Shutdown(nil)
	if _, err := os.Stat(nw.Cwd); !os.IsNotExist(err) {
		t.Fatalf("quitting left the unused New build folder (%v)", err)
	}
	if p := fakeAgents(t); len(p) != 0 {
		t.Fatalf("quitting left agents running: %v", p)
	}
}

func TestPrewarmedSavedChat(t *testing.T) {
	a, rec, logPath := newTestApp(t, "normal")
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "first"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "done", func() bool { return last(rec.turns[started.TurnID]).Type() == "done" })
	sid := last(rec.turns[started.TurnID]).SessionID
	// As after a restart: no warm agent.
	a.closeAll()
	waitUntil(t, "no agent", func() bool { return len(fakeAgents(t)) == 0 })
	before, _ := agentCalls(t, logPath)

	// Opened from Home: the session is resumed before anything is typed.
	if err := a.Turns.Prewarm(PrewarmRequest{WorkspaceID: started.WorkspaceID, SessionID: sid}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "session/resume", func() bool {
		m, _ := agentCalls(t, logPath)
		return strings.Join(m[len(before):], ",") == "initialize,session/resume"
	})
	id, err := a.Turns.Send(SendRequest{WorkspaceID: started.WorkspaceID, SessionID: sid, Prompt: "second"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "done", func() bool { return last(rec.turns[id]).Type() == "done" })
	m, _ := agentCalls(t, logPath)
	if got := strings.Join(m[len(before):], ","); got != "initialize,session/resume,session/prompt" {
		t.Fatalf("the follow-up after opening the chat sent %s", got)
	}
	if !strings.Contains(text(rec.turns[id]), "You said: second") {
		t.Fatalf("reply: %q", text(rec.turns[id]))
	}
}

func TestPrewarmOffWithoutWarmConnections(t *testing.T) {
	a, _, logPath := newTestApp(t, "normal")
	off := false
	if err := a.Settings.SaveSettings(settings.Settings{WarmConnection: &off}); err != nil {
		t.Fatal(err)
	}
	// Were it to pre-warm, Prewarm would make the build's folder before it
	// returns (the agent starts after), so the folder checked below needs
	// no wait; the agent checks are the second line of evidence.
	if err := a.Turns.Prewarm(PrewarmRequest{}); err != nil {
		t.Fatal(err)
	}
	if m, _ := agentCalls(t, logPath); len(m) != 0 || len(fakeAgents(t)) != 0 {
		t.Fatalf("pre-warmed although warm connections are off: %v", m)
	}
	if entries, _ := os.ReadDir(filepath.Join(os.Getenv("CDXTHEME_DATA_DIR"), "theme_builder")); len(entries) != 0 {
		t.Fatalf("a folder was made: %v", entries)
	}
}

func TestChangingTheBuildAgentPrewarmsTheNewOne(t *testing.T) {
	a, rec, logPath := newTestApp(t, "normal")
	t.Setenv("CDXTHEME_AGENT", "")
	bin := os.Getenv(envTestAgent)
	l := a.Agents.Agents()
	l.Agents = append(l.Agents,
		settings.Agent{ID: "one", Name: "One", Kind: settings.KindCustom, Command: bin},
		settings.Agent{ID: "two", Name: "Two", Kind: settings.KindCustom, Command: bin, Env: map[string]string{"FAKE_AGENT_SCENARIO": "echo-blocks"}})
	if err := a.Agents.SaveAgents(l); err != nil {
		t.Fatal(err)
	}
	if err := a.Agents.SetBuildAgent("one"); err != nil {
		t.Fatal(err)
	}
	a.Turns.Prewarm(PrewarmRequest{})
	waitUntil(t, "the first agent's session", func() bool { m, _ := agentCalls(t, logPath); return len(m) == 2 })
	// The user picks another agent in the New build view.
	if err := a.Agents.SetBuildAgent("two"); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the second agent's session", func() bool { m, _ := agentCalls(t, logPath); return len(m) == 4 })
	waitUntil(t, "the first agent gone", func() bool { return len(fakeAgents(t)) == 1 })
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.finalText(t, started.TurnID); got != "Blocks: text" {
		t.Fatalf("the first message did not go to the chosen agent: %q", got)
	}
	if m, _ := agentCalls(t, logPath); strings.Join(m, ",") != "initialize,session/new,initialize,session/new,session/prompt" {
		t.Fatalf("agent calls: %v", m)
	}
}

// Another agent's bar is its own: no Codex model list before it answered,
// its options (models state and modes included) on New build as soon as
// the pre-warmed session opened, and the first message sets only what it
// offers.
func TestANonCodexAgentsBarIsItsOwn(t *testing.T) {
	a, rec, logPath := newTestApp(t, "normal")
	t.Setenv("CDXTHEME_AGENT", "")
	bin := fakeagenttest.Build(t)
	l := a.Agents.Agents()
	l.Agents = append(l.Agents, settings.Agent{ID: "gem", Name: "Gem", Kind: settings.KindCustom, Command: bin, Env: map[string]string{"FAKE_AGENT_SHAPE": "models"}})
	if err := a.Agents.SaveAgents(l); err != nil {
		t.Fatal(err)
	}
	if err := a.Agents.SetBuildAgent("gem"); err != nil {
		t.Fatal(err)
	}
	before := a.Chats.SessionBar("", "")
	if before.AgentName != "Gem" || before.Known || len(before.Options) != 0 {
		t.Fatalf("before the agent answered the bar shows %+v: want Gem and none of Codex's options", before)
	}
	if err := a.Turns.Prewarm(PrewarmRequest{}); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "the agent's options", func() bool { return rec.emits["agent-options:gem"] > 0 })
	bar := a.Chats.SessionBar("", "")
	var model []string
	for _, o := range bar.Options {
		if o.Category == "model" {
			for _, v := range o.Values() {
				model = append(model, v.Value)
			}
			model = append(model, "current="+o.Value)
		}
	}
	if !bar.Known || strings.Join(model, " ") != "gpt-5.5 gpt-5.4 gpt-5.4-mini gpt-5-pro current=gpt-5.5" || bar.Modes == nil || bar.Modes.CurrentModeID != "agent" {
		t.Fatalf("the pre-warmed agent's bar: known %v, models %v, modes %+v", bar.Known, model, bar.Modes)
	}
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "hi", Options: map[string]any{"model": "gpt-5.4", "mode": "read-only"}})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "done", func() bool { return last(rec.turns[started.TurnID]).Type() == "done" })
	for _, ev := range rec.turns[started.TurnID] {
		if ev.Type() == "warning" || ev.Type() == chat.EventRefused {
			t.Errorf("%s: %s", ev.Type(), chat.TextOf(ev))
		}
	}
	if m, _ := agentCalls(t, logPath); strings.Join(m, ",") != "initialize,session/new,session/set_mode,session/set_model,session/prompt" {
		t.Fatalf("agent calls: %v", m)
	}
}

// With CDXTHEME_AGENT every chat runs that command: the bar names it and
// offers nothing of Codex's.
func TestTheBarNamesTheAgentThatRuns(t *testing.T) {
	a, _, _ := newTestApp(t, "normal")
	t.Setenv("CDXTHEME_AGENT", "opencode acp")
	bar := a.Chats.SessionBar("", "")
	if bar.AgentName != "opencode acp" || len(bar.Options) != 0 {
		t.Fatalf("bar %+v", bar)
	}
}
