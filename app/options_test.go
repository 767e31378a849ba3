package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"cdxtheme/app/sessionopts"
	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/settings"
	"cdxtheme/internal/testrig/acpstub"

	"github.com/rs/zerolog"
)

// finishedBuild runs a first turn and returns it once done.
func finishedBuild(t *testing.T, a *App, rec *recorder, prompt string) (TurnStarted, string) {
	t.Helper()
	started, err := a.Turns.NewBuild(NewBuildRequest{Prompt: prompt})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "done", func() bool { return last(rec.turns[started.TurnID]).Type() == "done" })
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return started, last(rec.turns[started.TurnID]).SessionID
}

// finalText waits for the turn to end and returns its text; a turn that
// ends in an error fails the test at once, with the error.
func (r *recorder) finalText(t *testing.T, turnID string) string {
	t.Helper()
	r.waitFor(t, "the end of the turn", func() bool {
		typ := last(r.turns[turnID]).Type()
		return typ == "done" || typ == "error"
	})
	r.mu.Lock()
	defer r.mu.Unlock()
	if e := last(r.turns[turnID]); e.Type() == "error" {
		t.Fatalf("turn %s failed: %s (%s)", turnID, chat.TextOf(e), e.Payload.(chat.ErrorEvent).Code)
	}
	return text(r.turns[turnID])
}

// codexSettings are codex-acp 2.x's options: mode (agent current),
// model (gpt-5.5 current; gpt-5-pro listed but refused to this account, in
// codexRefusals) and reasoning effort (medium current).
const codexSettings = `[` +
	`{"id":"mode","name":"Mode","category":"mode","type":"select","currentValue":"agent","options":[{"value":"read-only","name":"Read-only"},{"value":"workspace-write","name":"Workspace access"},{"value":"agent","name":"Auto review"},{"value":"agent-full-access","name":"Full access"}]},` +
	`{"id":"model","name":"Model","category":"model","type":"select","currentValue":"gpt-5.5","options":[{"value":"gpt-5.5","name":"GPT-5.5"},{"value":"gpt-5.4","name":"gpt-5.4"},{"value":"gpt-5.4-mini","name":"GPT-5.4-Mini"},{"value":"gpt-5-pro","name":"GPT-5 Pro"}]},` +
	`{"id":"reasoning_effort","name":"Reasoning effort","category":"thought_level","type":"select","currentValue":"medium","options":[{"value":"low","name":"Low"},{"value":"medium","name":"Medium"},{"value":"high","name":"High"},{"value":"xhigh","name":"Extra high"}]}]`

var codexRefusals = map[string]string{"model=gpt-5-pro": "gpt-5-pro is not available for this account"}

// themeSettings are an agent's own options beside Codex's: a grouped
// select (palette_family, midnight current) and a boolean (fast-mode).
const themeSettings = `[` +
	`{"id":"palette_family","name":"Palette family","category":"_theme","type":"select","currentValue":"midnight","options":[` +
	`{"group":"dark","name":"Dark","options":[{"value":"midnight","name":"Midnight"},{"value":"ember","name":"Ember"}]},` +
	`{"group":"light","name":"Light","options":[{"value":"paper","name":"Paper"},{"value":"meadow","name":"Meadow"}]}]},` +
	`{"id":"fast-mode","name":"Fast mode","category":"model_config","type":"boolean","currentValue":false}]`

// codexAgent holds codexSettings (and more, JSON arrays of options) per
// connection, as codex-acp does, and answers a prompt with what it runs:
// "Running with mode=…, model=…, reasoning_effort=…."
func codexAgent(more ...string) *acpstub.Agent {
	ag := acpstub.New()
	opts := codexSettings
	for _, m := range more {
		opts = opts[:len(opts)-1] + "," + m[1:]
	}
	ag.HoldSettings(opts, codexRefusals)
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		turn.Say("Running with " + turn.Settings() + ".")
		return "end_turn"
	})
	return ag
}

// setConfigCalls lists the set_config_option requests the agent got for a
// session, as configId=value.
func setConfigCalls(ag *acpstub.Agent, sessionID string) []string {
	var out []string
	for _, raw := range ag.Params("session/set_config_option") {
		var p struct {
			SessionID string `json:"sessionId"`
			ConfigID  string `json:"configId"`
			Value     any    `json:"value"`
		}
		if json.Unmarshal(raw, &p) == nil && p.SessionID == sessionID {
			out = append(out, fmt.Sprintf("%s=%v", p.ConfigID, p.Value))
		}
	}
	return out
}

func TestBooleanOptionReachesTheLiveAgent(t *testing.T) {
	ag := codexAgent(themeSettings)
	a, rec := newStubApp(t, ag)
	started, sid := finishedBuild(t, a, rec, "hi")
	res, err := a.Chats.SetSessionOption(OptionChange{WorkspaceID: started.WorkspaceID, SessionID: sid, ConfigID: "fast-mode", Value: true})
	if err != nil {
		t.Fatal(err)
	}
	fast, ok := acp.FindConfigOption(res.ConfigOptions, "", "fast-mode")
	if !res.Applied || !ok || !fast.Bool {
		t.Fatalf("result = %+v", res)
	}
	if p := ag.Params("session/set_config_option"); len(p) != 1 || !strings.Contains(string(p[0]), `"configId":"fast-mode","type":"boolean","value":true`) {
		t.Fatalf("set_config_option with the boolean did not reach the agent: %s", p)
	}
	if _, err := a.Chats.SetSessionOption(OptionChange{SessionID: sid, ConfigID: "fast-mode", Value: 3.0}); err == nil {
		t.Fatal("a number was accepted as a setting")
	}
	// Nothing chosen in a chat becomes a default for other chats.
	if codex, _ := a.Agents.Agents().Find("codex"); len(codex.Defaults) != 0 {
		t.Fatalf("agent defaults = %v", codex.Defaults)
	}
}

// A value the agent refuses comes back as a refusal with its reason and
// the value it still runs, and is not asked again with the next message.
func TestRefusedOptionIsShownWithTheAgentsReason(t *testing.T) {
	ag := codexAgent()
	a, rec := newStubApp(t, ag)
	started, sid := finishedBuild(t, a, rec, "hi")
	res, err := a.Chats.SetSessionOption(OptionChange{WorkspaceID: started.WorkspaceID, SessionID: sid, ConfigID: "model", Value: "gpt-5-pro"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Applied || res.Refused == nil || res.Refused.Current != "gpt-5.5" || !strings.Contains(res.Reason, "not available for this account") {
		t.Fatalf("result = %+v", res)
	}
	if m, _ := acp.FindConfigOption(res.ConfigOptions, "", "model"); m.Value != "gpt-5.5" {
		t.Fatalf("options after the refusal show %q", m.Value)
	}
	id, err := a.Turns.Send(SendRequest{WorkspaceID: started.WorkspaceID, SessionID: sid, Prompt: "again"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.finalText(t, id); !strings.Contains(got, "model=gpt-5.5") {
		t.Fatalf("agent holds %q", got)
	}
	if got := setConfigCalls(ag, sid); len(got) != 1 {
		t.Fatalf("the refused value was sent again: %v", got)
	}
}

// The safety defect: a mode picked in one chat must not reach the
// next new build, nor other resumed chats, unless made the default.
func TestAModeChosenInAChatStaysInThatChat(t *testing.T) {
	ag := codexAgent()
	a, rec := newStubApp(t, ag)
	first, sidA := finishedBuild(t, a, rec, "first")
	if res, err := a.Chats.SetSessionOption(OptionChange{WorkspaceID: first.WorkspaceID, SessionID: sidA, ConfigID: "mode", Value: "agent-full-access"}); err != nil || !res.Applied {
		t.Fatalf("%+v %v", res, err)
	}
	second, sidB := finishedBuild(t, a, rec, "second")
	if got := rec.finalText(t, second.TurnID); !strings.Contains(got, "mode=agent,") {
		t.Fatalf("the new build runs %q", got)
	}
	if got := setConfigCalls(ag, sidB); len(got) != 0 {
		t.Fatalf("the new build was sent %v", got)
	}
	if bar := a.Chats.SessionBar("", ""); modeOf(bar.Options) != "agent" {
		t.Fatalf("New build shows mode %q", modeOf(bar.Options))
	}
	// Chat A keeps its mode after a reconnect (the agent forgot it).
	a.Shutdown(nil)
	id, err := a.Turns.Send(SendRequest{WorkspaceID: first.WorkspaceID, SessionID: sidA, Prompt: "again"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.finalText(t, id); !strings.Contains(got, "mode=agent-full-access") {
		t.Fatalf("chat A after reconnecting runs %q", got)
	}

	// Made the default explicitly, it is what the next build shows and gets.
	if err := a.Chats.SaveBuildDefaults("codex", map[string]any{"mode": "read-only", "reasoning_effort": "high"}); err != nil {
		t.Fatal(err)
	}
	bar := a.Chats.SessionBar("", "")
	if modeOf(bar.Options) != "read-only" || valueOf(bar.Options, "reasoning_effort") != "high" || !bar.Known {
		t.Fatalf("New build bar = %+v", bar)
	}
	values := map[string]any{}
	for _, o := range bar.Options {
		values[o.ID] = sessionopts.CurrentOf(o)
	}
	third, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "third", Options: values})
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.finalText(t, third.TurnID); !strings.Contains(got, "mode=read-only") || !strings.Contains(got, "reasoning_effort=high") {
		t.Fatalf("the build made after saving defaults runs %q", got)
	}
}

func modeOf(opts []acp.ConfigOption) string { return valueOf(opts, "mode") }

func valueOf(opts []acp.ConfigOption, id string) string {
	o, _ := acp.FindConfigOption(opts, "", id)
	return o.Value
}

// A chat's settings survive a restart: the bar shows them before the agent
// is connected, and opening the chat applies them again (the agent forgot)
// and reports them live.
func TestChatSettingsSurviveARestart(t *testing.T) {
	ag := codexAgent()
	a, rec := newStubApp(t, ag)
	started, sid := finishedBuild(t, a, rec, "hi")
	for _, c := range []OptionChange{{ConfigID: "mode", Value: "read-only"}, {ConfigID: "reasoning_effort", Value: "high"}} {
		c.WorkspaceID, c.SessionID = started.WorkspaceID, sid
		if res, err := a.Chats.SetSessionOption(c); err != nil || !res.Applied {
			t.Fatalf("%+v %v", res, err)
		}
	}
	a.Shutdown(nil)
	b := New(zerolog.Nop())
	b.Turns.run.Dial = func(_, cwd string) (chat.Running, error) { return ag.Dial(cwd) }
	rec2 := newRecorder()
	b.emit = rec2
	t.Cleanup(func() { b.Shutdown(nil) })
	bar := b.Chats.SessionBar(started.WorkspaceID, sid)
	if !bar.Known || modeOf(bar.Options) != "read-only" || valueOf(bar.Options, "reasoning_effort") != "high" {
		t.Fatalf("after a restart the bar shows %+v", bar)
	}
	id, err := b.Turns.OpenChat(OpenRequest{WorkspaceID: started.WorkspaceID, SessionID: sid})
	if err != nil {
		t.Fatal(err)
	}
	rec2.waitFor(t, "ready", func() bool { return last(rec2.turns[id]).Type() == chat.EventReady })
	rec2.mu.Lock()
	var lastSetup acp.SessionSetup
	for _, ev := range rec2.turns[id] {
		if ev.Type() == chat.EventSession && ev.Payload.(chat.SessionSetup).Setup != nil {
			lastSetup = *ev.Payload.(chat.SessionSetup).Setup
		}
	}
	rec2.mu.Unlock()
	if modeOf(lastSetup.ConfigOptions) != "read-only" || valueOf(lastSetup.ConfigOptions, "reasoning_effort") != "high" {
		t.Fatalf("after opening, the agent reports %+v", lastSetup.ConfigOptions)
	}
	id, err = b.Turns.Send(SendRequest{WorkspaceID: started.WorkspaceID, SessionID: sid, Prompt: "again"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rec2.finalText(t, id); got != "Running with mode=read-only, model=gpt-5.5, reasoning_effort=high." {
		t.Fatalf("agent holds %q", got)
	}
}

// A model change puts the effort back to the new model's default.
func TestModelChangeResetsTheEffort(t *testing.T) {
	a, rec := newStubApp(t, codexAgent())
	started, sid := finishedBuild(t, a, rec, "hi")
	set := func(id string, v any) OptionResult {
		t.Helper()
		res, err := a.Chats.SetSessionOption(OptionChange{WorkspaceID: started.WorkspaceID, SessionID: sid, ConfigID: id, Value: v})
		if err != nil || !res.Applied {
			t.Fatalf("set %s: %+v %v", id, res, err)
		}
		return res
	}
	set("model", "gpt-5.4")
	set("reasoning_effort", "high")
	res := set("model", "gpt-5.5") // the built-in list: gpt-5.5 defaults to medium
	if got := valueOf(res.ConfigOptions, "reasoning_effort"); got != "medium" {
		t.Fatalf("effort after the model change = %q", got)
	}
	id, err := a.Turns.Send(SendRequest{WorkspaceID: started.WorkspaceID, SessionID: sid, Prompt: "again"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.finalText(t, id); got != "Running with mode=agent, model=gpt-5.5, reasoning_effort=medium." {
		t.Fatalf("agent holds %q", got)
	}
}

func TestOptionsAreReappliedToANewAgentProcess(t *testing.T) {
	ag := codexAgent(themeSettings) // a new connection answers the defaults
	ag.Handle("initialize", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"sessionCapabilities":{"resume":{}}}}`), nil
	})
	a, rec := newStubApp(t, ag)
	// Cold connections only: every turn is a fresh process that resumes.
	off := false
	if err := a.Settings.SaveSettings(settings.Settings{WarmConnection: &off}); err != nil {
		t.Fatal(err)
	}
	started, sid := finishedBuild(t, a, rec, "hi")
	res, err := a.Chats.SetSessionOption(OptionChange{WorkspaceID: started.WorkspaceID, SessionID: sid, ConfigID: "palette_family", Value: "ember"})
	if err != nil || res.Applied || res.Pending["palette_family"] != "ember" {
		t.Fatalf("with no live agent the value waits for the next message: %+v %v", res, err)
	}
	id, err := a.Turns.Send(SendRequest{WorkspaceID: started.WorkspaceID, SessionID: sid, Prompt: "again"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.finalText(t, id); !strings.Contains(got, "palette_family=ember") {
		t.Fatalf("the agent holds %q", got)
	}
	// A new build starts from the agent's defaults, not from that chat.
	next, err := a.Turns.NewBuild(NewBuildRequest{Prompt: "another"})
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.finalText(t, next.TurnID); !strings.Contains(got, "palette_family=midnight") {
		t.Fatalf("new build: %q", got)
	}
}

func TestSlashCommandsReachTheChat(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("session/new", func(c *acpstub.Call) (any, error) {
		// Right after the session, with an input hint, as codex-acp.
		c.UpdateAfter("s-1", `{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"review","description":"Review the theme","input":{"hint":"optional review instructions"}}]}`)
		return map[string]string{"sessionId": "s-1"}, nil
	})
	a, rec := newStubApp(t, ag)
	started, sid := finishedBuild(t, a, rec, "hi")
	id, err := a.Turns.Send(SendRequest{WorkspaceID: started.WorkspaceID, SessionID: sid, Prompt: "/review focus on contrast"})
	if err != nil {
		t.Fatal(err)
	}
	rec.finalText(t, id)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, turn := range []string{started.TurnID, id} {
		found := false
		for _, e := range rec.turns[turn] {
			if e.Type() == chat.EventCommands && hasHint(e.Payload.(chat.CommandsUpdate).Commands, "review", "optional review instructions") {
				found = true
			}
		}
		if !found {
			t.Fatalf("turn %s has no commands with their input hints", turn)
		}
	}
}

func hasHint(cmds []acp.Command, name, hint string) bool {
	for _, c := range cmds {
		if c.Name == name && c.Input != nil && c.Input.Hint == hint {
			return true
		}
	}
	return false
}

// A session setup is everything the agent holds: when a reopened chat's
// agent reports modes and no options, the options it reported before are
// no longer what the chat's bar shows.
func TestSavedBarForgetsOptionsTheAgentNoLongerReports(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("session/new", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"sessionId":"s-1","configOptions":[{"id":"speed","name":"Speed","type":"select","currentValue":"fast","options":[{"value":"fast","name":"Fast"},{"value":"slow","name":"Slow"}]}]}`), nil
	})
	a, rec := newStubApp(t, ag)
	t.Setenv("CODEX_HOME", t.TempDir())
	started, sid := finishedBuild(t, a, rec, "make it teal")
	if bar := a.Chats.SessionBar(started.WorkspaceID, sid); !bar.Known || len(bar.Options) != 1 {
		t.Fatalf("after the first turn the bar is %+v", bar)
	}
	// The agent, updated, now offers modes only.
	ag.Handle("session/load", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"modes":{"currentModeId":"ask","availableModes":[{"id":"ask","name":"Ask"},{"id":"code","name":"Code"}]}}`), nil
	})
	a.Shutdown(nil)
	id, err := a.Turns.OpenChat(OpenRequest{WorkspaceID: started.WorkspaceID, SessionID: sid})
	if err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "ready", func() bool { return last(rec.turns[id]).Type() == chat.EventReady })
	bar := a.Chats.SessionBar(started.WorkspaceID, sid)
	if _, ok := acp.FindConfigOption(bar.Options, "", "speed"); ok || !bar.Known || bar.Modes == nil || bar.Modes.CurrentModeID != "ask" {
		t.Fatalf("the bar shows %+v with modes %+v: want the agent's modes and no speed", bar.Options, bar.Modes)
	}
}
