package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cdxtheme/app/chatmemory"
	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/settings"
	"cdxtheme/internal/testrig/acpstub"
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

// echo is an agent turn that answers with the prompt's text.
func echo(turn *acpstub.Turn) string {
	turn.Say("You said: " + turn.Text())
	return "end_turn"
}

// codexModels is a session/new answer's model option as codex-acp's:
// gpt-5.5 current.
const codexModels = `{"id":"model","name":"Model","category":"model","type":"select","currentValue":"gpt-5.5","options":[{"value":"gpt-5.5","name":"GPT-5.5"},{"value":"gpt-5.4","name":"GPT-5.4"}]}`

// newCwd is the folder the agent's first session/new was opened in.
func newCwd(ag *acpstub.Agent) string {
	var nw struct{ Cwd string }
	if p := ag.Params("session/new"); len(p) > 0 {
		json.Unmarshal(p[0], &nw)
	}
	return nw.Cwd
}

func TestPrewarmedNewBuild(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("session/new", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"sessionId":"s-1","configOptions":[` + codexModels + `]}`), nil
	})
	ag.OnPrompt(echo)
	a, rec := newStubApp(t, ag)
	if err := a.Turns.Prewarm(PrewarmRequest{}); err != nil {
		t.Fatal(err)
	}
	// The session opens before the first message is typed, in the folder
	// the build will use; Home does not list it as a build.
	waitUntil(t, "session/new", func() bool { return strings.Join(ag.Methods(), ",") == "initialize,session/new" })
	if b := a.Builds.Builds(); len(b) != 0 {
		t.Fatalf("Home lists the unsent New build: %+v", b)
	}
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "A calm dusk theme", Options: map[string]any{"model": "gpt-5.4"}})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "done", func() bool { return last(rec.turns[started.TurnID]).Type() == "done" })
	if got := strings.Join(ag.Methods(), ","); got != "initialize,session/new,session/set_config_option,session/prompt" {
		t.Fatalf("the agent got %v: the first message did not go out on the pre-warmed session", got)
	}
	if cwd := newCwd(ag); cwd != started.Cwd {
		t.Fatalf("the session was opened in %s, the build lives in %s", cwd, started.Cwd)
	}
	b := a.Builds.Builds()
	if len(b) != 1 || b[0].ID != started.WorkspaceID || b[0].Title != "A calm dusk theme" || b[0].Model != "gpt-5.4" {
		t.Fatalf("builds after the first message: %+v", b)
	}
	// The view closes once the chat opens: the build and its agent stay.
	a.Turns.Release(PrewarmRequest{})
	a.Turns.run.Wait()
	if _, err := os.Stat(started.Cwd); err != nil {
		t.Fatalf("the build's folder went with the view: %v", err)
	}
	if ag.Live() != 1 {
		t.Fatalf("want the chat's warm agent kept, %d connected", ag.Live())
	}
}

func TestReleasedNewBuildLeavesNothing(t *testing.T) {
	ag := acpstub.New()
	a, _ := newStubApp(t, ag)
	if err := a.Turns.Prewarm(PrewarmRequest{}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "session/new", func() bool { return len(ag.Methods()) == 2 })
	cwd := newCwd(ag)
	a.Turns.Release(PrewarmRequest{})
	a.Turns.run.Wait()
	if _, err := os.Stat(cwd); !os.IsNotExist(err) {
		t.Fatalf("the unused New build's folder %s is still there (%v)", cwd, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(cwd))
	if len(entries) != 0 {
		t.Fatalf("left in the workspace root: %v", entries)
	}
	if n := ag.Live(); n != 0 {
		t.Fatalf("the released agent is still connected (%d)", n)
	}
}

func TestQuitRemovesThePrewarmedBuild(t *testing.T) {
	ag := acpstub.New()
	a, _ := newStubApp(t, ag)
	a.Turns.Prewarm(PrewarmRequest{})
	waitUntil(t, "session/new", func() bool { return len(ag.Methods()) == 2 })
	cwd := newCwd(ag)
	a.Shutdown(nil)
	if _, err := os.Stat(cwd); !os.IsNotExist(err) {
		t.Fatalf("quitting left the unused New build folder (%v)", err)
	}
	if n := ag.Live(); n != 0 {
		t.Fatalf("quitting left %d agents connected", n)
	}
}

func TestPrewarmedSavedChat(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("initialize", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"sessionCapabilities":{"resume":{}}}}`), nil
	})
	ag.OnPrompt(echo)
	a, rec := newStubApp(t, ag)
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "first"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "done", func() bool { return last(rec.turns[started.TurnID]).Type() == "done" })
	sid := last(rec.turns[started.TurnID]).SessionID
	// As after a restart: no warm agent.
	a.closeAll()
	waitUntil(t, "no agent", func() bool { return ag.Live() == 0 })
	before := len(ag.Methods())

	// Opened from Home: the session is resumed before anything is typed.
	if err := a.Turns.Prewarm(PrewarmRequest{WorkspaceID: started.WorkspaceID, SessionID: sid}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "session/resume", func() bool {
		return strings.Join(ag.Methods()[before:], ",") == "initialize,session/resume"
	})
	id, err := a.Turns.Send(SendRequest{WorkspaceID: started.WorkspaceID, SessionID: sid, Prompt: "second"})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "done", func() bool { return last(rec.turns[id]).Type() == "done" })
	if got := strings.Join(ag.Methods()[before:], ","); got != "initialize,session/resume,session/prompt" {
		t.Fatalf("the follow-up after opening the chat sent %s", got)
	}
	if got := text(rec.turns[id]); got != "You said: second" {
		t.Fatalf("reply: %q", got)
	}
}

func TestPrewarmOffWithoutWarmConnections(t *testing.T) {
	ag := acpstub.New()
	a, _ := newStubApp(t, ag)
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
	if m := ag.Methods(); len(m) != 0 || ag.Started() != 0 {
		t.Fatalf("pre-warmed although warm connections are off: %v", m)
	}
	if entries, _ := os.ReadDir(filepath.Join(os.Getenv("CDXTHEME_DATA_DIR"), "theme_builder")); len(entries) != 0 {
		t.Fatalf("a folder was made: %v", entries)
	}
}

func TestChangingTheBuildAgentPrewarmsTheNewOne(t *testing.T) {
	one, two := acpstub.New(), acpstub.New()
	two.OnPrompt(func(turn *acpstub.Turn) string {
		turn.Say("Two here.")
		return "end_turn"
	})
	a, rec := newStubApp(t, nil)
	a.Turns.run.Dial = func(agentID, cwd string) (chat.Running, error) {
		if agentID == "two" {
			return two.Dial(cwd)
		}
		return one.Dial(cwd)
	}
	l := a.Agents.Agents()
	l.Agents = append(l.Agents,
		settings.Agent{ID: "one", Name: "One", Kind: settings.KindCustom, Command: "agent-one"},
		settings.Agent{ID: "two", Name: "Two", Kind: settings.KindCustom, Command: "agent-two"})
	if err := a.Agents.SaveAgents(l); err != nil {
		t.Fatal(err)
	}
	if err := a.Agents.SetBuildAgent("one"); err != nil {
		t.Fatal(err)
	}
	a.Turns.Prewarm(PrewarmRequest{})
	waitUntil(t, "the first agent's session", func() bool { return len(one.Methods()) == 2 })
	// The user picks another agent in the New build view.
	if err := a.Agents.SetBuildAgent("two"); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the second agent's session", func() bool { return len(two.Methods()) == 2 })
	waitUntil(t, "the first agent gone", func() bool { return one.Live() == 0 })
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.finalText(t, started.TurnID); got != "Two here." {
		t.Fatalf("the first message did not go to the chosen agent: %q", got)
	}
	if got := strings.Join(two.Methods(), ","); got != "initialize,session/new,session/prompt" || two.Started() != 1 {
		t.Fatalf("the chosen agent got %v (%d connections)", got, two.Started())
	}
}

// Another agent's bar is its own: no Codex model list before it answered,
// its options (models state and modes included) on New build as soon as
// the pre-warmed session opened, and the first message sets only what it
// offers.
func TestANonCodexAgentsBarIsItsOwn(t *testing.T) {
	ag := acpstub.New()
	// As gemini-cli: models and modes, no config options.
	ag.Handle("session/new", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"sessionId":"s-1",` +
			`"models":{"currentModelId":"gpt-5.5","availableModels":[{"modelId":"gpt-5.5","name":"GPT-5.5"},{"modelId":"gpt-5.4","name":"GPT-5.4"},{"modelId":"gpt-5.4-mini","name":"GPT-5.4 Mini"},{"modelId":"gpt-5-pro","name":"GPT-5 Pro"}]},` +
			`"modes":{"currentModeId":"agent","availableModes":[{"id":"read-only","name":"Read only"},{"id":"agent","name":"Agent"}]}}`), nil
	})
	a, rec := newStubApp(t, ag)
	l := a.Agents.Agents()
	l.Agents = append(l.Agents, settings.Agent{ID: "gem", Name: "Gem", Kind: settings.KindCustom, Command: "gem --acp"})
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
	if got := strings.Join(ag.Methods(), ","); got != "initialize,session/new,session/set_mode,session/set_model,session/prompt" {
		t.Fatalf("agent calls: %v", got)
	}
}

// With CDXTHEME_AGENT every chat runs that command: the bar names it and
// offers nothing of Codex's.
func TestTheBarNamesTheAgentThatRuns(t *testing.T) {
	a, _ := newStubApp(t, acpstub.New())
	t.Setenv("CDXTHEME_AGENT", "opencode acp")
	bar := a.Chats.SessionBar("", "")
	if bar.AgentName != "opencode acp" || len(bar.Options) != 0 {
		t.Fatalf("bar %+v", bar)
	}
}

// New build shows what the agent's fresh session reports now: an agent
// that offers modes alone shows them, and options remembered from an
// earlier version of it that it no longer reports are gone.
func TestNewBuildsBarIsTheAgentsLatestReport(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("session/new", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"sessionId":"s-1","modes":{"currentModeId":"ask","availableModes":[{"id":"ask","name":"Ask"},{"id":"code","name":"Code"}]}}`), nil
	})
	a, rec := newStubApp(t, ag)
	l := a.Agents.Agents()
	l.Agents = append(l.Agents, settings.Agent{ID: "gem", Name: "Gem", Kind: settings.KindCustom, Command: "gem --acp"})
	if err := a.Agents.SaveAgents(l); err != nil {
		t.Fatal(err)
	}
	if err := a.Agents.SetBuildAgent("gem"); err != nil {
		t.Fatal(err)
	}
	// What an earlier version of the agent reported, in an earlier run.
	a.Chats.withMemory(func(m *chatmemory.Memory) {
		m.File.Agents["gem"] = &chatmemory.Agent{Options: []acp.ConfigOption{{ID: "speed", Name: "Speed", Type: "select", Value: "fast", Options: []acp.ConfigSelectOption{{Value: "fast", Name: "Fast"}}}}}
	})
	if err := a.Turns.Prewarm(PrewarmRequest{}); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "the agent's report", func() bool { return rec.emits["agent-options:gem"] > 0 })
	bar := a.Chats.SessionBar("", "")
	if _, ok := acp.FindConfigOption(bar.Options, "", "speed"); ok || !bar.Known || bar.Modes == nil || bar.Modes.CurrentModeID != "ask" {
		t.Fatalf("New build's bar: known %v, options %+v, modes %+v: want the agent's modes and no speed", bar.Known, bar.Options, bar.Modes)
	}
}
