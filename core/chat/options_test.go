package chat

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"cdxtheme/core/acp"
	"cdxtheme/core/prompt"
	"cdxtheme/internal/testrig/acpstub"

	"github.com/rs/zerolog"
)

// configCalls lists the set_config_option and set_mode calls the fake
// agent received, as "id=value" (value in JSON).
func (h *harness) configCalls() []string {
	var out []string
	for _, m := range h.agentLog() {
		var p struct {
			ConfigID string          `json:"configId"`
			Value    json.RawMessage `json:"value"`
			ModeID   string          `json:"modeId"`
		}
		json.Unmarshal(m["params"], &p)
		switch string(m["method"]) {
		case `"session/set_config_option"`:
			out = append(out, p.ConfigID+"="+string(p.Value))
		case `"session/set_mode"`:
			out = append(out, "set_mode="+p.ModeID)
		}
	}
	return out
}

func TestTurnOptionsReachTheAgentAndAreReappliedAfterResume(t *testing.T) {
	h := newHarness(t, hopts{scenario: "options"})
	evs, res, err := h.run(context.Background(), Turn{
		Mode:    "read-only",
		Options: map[string]any{"fast-mode": true, "palette_family": "paper", "no-such": "x", "model_config": true},
		Prompt:  prompt.Text("#options"),
	})
	if err != nil {
		t.Fatal(err)
	}
	// The agent reports the values it holds when the prompt arrives.
	for _, want := range []string{"mode=read-only", "fast-mode=true", "palette_family=paper"} {
		if !strings.Contains(res.Text, want) {
			t.Fatalf("agent answered %q, want %s", res.Text, want)
		}
	}
	// "model_config" names fast-mode by category; already true, so not sent twice.
	if got := strings.Join(h.configCalls(), " "); got != `mode="read-only" fast-mode=true palette_family="paper"` {
		t.Fatalf("calls = %s", got)
	}
	if w := texts(evs, EventWarning); !strings.Contains(w, `"no-such"`) {
		t.Fatalf("unknown option not warned about: %q", w)
	}

	// A new process (not warm) resumes the session; the values must be
	// applied again there, and a changed one reaches the agent.
	_, res, err = h.run(context.Background(), Turn{SessionID: res.SessionID,
		Options: map[string]any{"fast-mode": false, "palette_family": "paper"}, Prompt: prompt.Text("#options again")})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "fast-mode=false") || !strings.Contains(res.Text, "palette_family=paper") {
		t.Fatalf("after resume the agent holds %q", res.Text)
	}
	if m := h.methods(); count(m, "session/resume") != 1 || count(m, "initialize") != 2 {
		t.Fatalf("methods = %v", m)
	}
}

// themeOptions is a session's configOptions as an agent with a grouped
// select and a boolean answers session/new: palette_family (current
// "midnight") and fast-mode (false, category model_config).
const themeOptions = `[{"id":"palette_family","name":"Palette family","category":"_theme","type":"select","currentValue":"midnight","options":[` +
	`{"group":"dark","name":"Dark","options":[{"value":"midnight","name":"Midnight"},{"value":"ember","name":"Ember"}]},` +
	`{"group":"light","name":"Light","options":[{"value":"paper","name":"Paper"},{"value":"meadow","name":"Meadow"}]}]},` +
	`{"id":"fast-mode","name":"Fast mode","category":"model_config","type":"boolean","currentValue":false}]`

// setCalls are the session/set_config_option calls the agent got, as
// "id=value" (value in JSON), in order.
func setCalls(ag *acpstub.Agent) []string {
	var out []string
	for _, c := range ag.Calls() {
		if c.Method == "session/set_config_option" {
			var p struct {
				ConfigID string          `json:"configId"`
				Value    json.RawMessage `json:"value"`
			}
			json.Unmarshal(c.Params, &p)
			out = append(out, p.ConfigID+"="+string(p.Value))
		}
	}
	return out
}

func TestTurnOptionOfTheWrongTypeIsAWarning(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("session/new", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"sessionId":"s-1","configOptions":` + themeOptions + `}`), nil
	})
	evs, _, err := runStub(t, stubEngine(t, ag, Options{}), Turn{Options: map[string]any{"fast-mode": "yes", "palette_family": true}, Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	w := texts(evs, EventWarning)
	if !strings.Contains(w, `"yes" is not true or false`) || !strings.Contains(w, "true is not one of the choices") {
		t.Fatalf("warnings = %q", w)
	}
	if c := setCalls(ag); len(c) != 0 {
		t.Fatalf("wrongly typed values were sent: %v", c)
	}
}

func TestSetOptionLiveOnTheWarmSession(t *testing.T) {
	h := newHarness(t, hopts{warm: true, scenario: "options"})
	_, res, err := h.run(context.Background(), Turn{Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	opts, err := h.e.SetOption(ctx, res.SessionID, "fast-mode", true)
	if err != nil {
		t.Fatal(err)
	}
	if o, ok := acp.FindConfigOption(opts, "", "fast-mode"); !ok || !o.Bool {
		t.Fatalf("options after the change: %+v", opts)
	}
	if _, err := h.e.SetOption(ctx, res.SessionID, "thought_level", "high"); err != nil {
		t.Fatalf("by category: %v", err)
	}
	tests := []struct {
		name, id string
		value    any
		want     error
		wantCode string
	}{
		{"wrong type", "fast-mode", "on", nil, CodeInput},
		{"unknown option", "colour", "red", nil, CodeInput},
		{"value the agent refuses", "model", "gpt-5-pro", nil, CodeRPC},
		{"value the agent does not offer", "model", "gpt-0", nil, CodeInput},
		{"another session", "fast-mode", false, ErrNotLive, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sid := res.SessionID
			if tc.want == ErrNotLive {
				sid = "other"
			}
			_, err := h.e.SetOption(ctx, sid, tc.id, tc.value)
			if tc.want != nil {
				if !errors.Is(err, tc.want) {
					t.Fatalf("err = %v, want %v", err, tc.want)
				}
				return
			}
			if ce, ok := errors.AsType[*Error](err); !ok || ce.Code != tc.wantCode {
				t.Fatalf("err = %v, want code %s", err, tc.wantCode)
			}
		})
	}
	// The next turn runs on the same process and sees the live values.
	_, res2, err := h.run(ctx, Turn{SessionID: res.SessionID, Prompt: prompt.Text("#options")})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res2.Text, "fast-mode=true") || !strings.Contains(res2.Text, "reasoning_effort=high") {
		t.Fatalf("agent holds %q", res2.Text)
	}
	if n := len(h.spawned()); n != 1 {
		t.Fatalf("spawned %d agents, want the warm one only", n)
	}
	h.e.Close()
	if _, err := h.e.SetOption(ctx, res.SessionID, "fast-mode", false); !errors.Is(err, ErrNotLive) {
		t.Fatalf("after Close: %v", err)
	}
}

// An agent that dies while applying a setting is let go of, not kept,
// owned by nobody, until the app quits; the value goes with the next turn.
func TestSetOptionOnAnAgentThatDiesLetsGoOfIt(t *testing.T) {
	h := newHarness(t, hopts{warm: true, env: []string{"FAKE_AGENT_EXIT_ON_SET=1"}})
	_, res, err := h.run(context.Background(), Turn{Prompt: prompt.Text("#options")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.e.SetOption(context.Background(), res.SessionID, "fast-mode", true); !errors.Is(err, ErrNotLive) {
		t.Fatalf("err = %v, want ErrNotLive", err)
	}
	if h.e.Holding() {
		t.Fatal("the engine still holds an agent nobody owns")
	}
}

func TestCommandsReachEveryTurnOfAWarmSession(t *testing.T) {
	h := newHarness(t, hopts{warm: true})
	_, res, err := h.run(context.Background(), Turn{Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	evs, _, err := h.run(context.Background(), Turn{SessionID: res.SessionID, Prompt: prompt.Text("again")})
	if err != nil {
		t.Fatal(err)
	}
	i := indexOf(evs, EventCommands)
	if i < 0 {
		t.Fatalf("the follow-up turn has no commands: %v", types(evs))
	}
	if c := evs[i].Payload.(CommandsUpdate).Commands; len(c) == 0 || c[0].Name != "review" {
		t.Fatalf("commands = %+v", c)
	}
	a := indexOf(evs, EventAgent)
	if a < 0 || evs[a].Payload.(AgentCapabilities).Capabilities == nil {
		t.Fatalf("no agent event with capabilities: %v", types(evs))
	}
}

func TestMCPServersPassedWhenTheAgentTakesThem(t *testing.T) {
	h := newHarness(t, hopts{})
	stdio := json.RawMessage(`{"name":"palette","command":"/usr/bin/palette-mcp","args":["--x"],"env":[]}`)
	httpSrv := json.RawMessage(`{"type":"http","name":"remote","url":"https://mcp.example/","headers":[]}`)
	evs, res, err := h.run(context.Background(), Turn{MCPServers: []json.RawMessage{stdio, httpSrv, json.RawMessage(`[1]`)}, Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	if w := texts(evs, EventWarning); !strings.Contains(w, `does not take http MCP servers; "remote"`) || !strings.Contains(w, "unreadable") {
		t.Fatalf("warnings = %q", w)
	}
	_, _, err = h.run(context.Background(), Turn{SessionID: res.SessionID, MCPServers: []json.RawMessage{stdio}, Prompt: prompt.Text("again")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range h.agentLog() {
		switch string(m["method"]) {
		case `"session/new"`, `"session/resume"`:
			var p struct {
				MCPServers json.RawMessage `json:"mcpServers"`
			}
			json.Unmarshal(m["params"], &p)
			got = append(got, string(p.MCPServers))
		}
	}
	want := "[" + string(stdio) + "]"
	if len(got) != 2 || got[0] != want || got[1] != want {
		t.Fatalf("mcpServers sent = %v, want %s twice", got, want)
	}
}

func TestLogout(t *testing.T) {
	tests := []struct {
		scenario      string
		wantSupported bool
	}{
		{"auth", true},
		{"normal", false},
	}
	for _, tc := range tests {
		t.Run(tc.scenario, func(t *testing.T) {
			h := newHarness(t, hopts{warm: true, scenario: tc.scenario})
			ctx := context.Background()
			if err := h.e.Authenticate(ctx, h.cwd, "api-key"); err != nil {
				t.Fatal(err)
			}
			if _, _, err := h.run(ctx, Turn{Prompt: prompt.Text("hi")}); err != nil {
				t.Fatalf("signed in: %v", err)
			}
			supported, err := h.e.Logout(ctx, h.cwd)
			if err != nil || supported != tc.wantSupported {
				t.Fatalf("Logout = %v, %v; want supported %v", supported, err, tc.wantSupported)
			}
			_, _, err = h.run(ctx, Turn{Prompt: prompt.Text("hi")})
			ce, _ := errors.AsType[*Error](err)
			signedOut := ce != nil && ce.Code == CodeAuth
			if signedOut != tc.wantSupported {
				t.Fatalf("turn after logout: %v", err)
			}
			if count(h.methods(), "logout") != map[bool]int{true: 1}[tc.wantSupported] {
				t.Fatalf("methods = %v", h.methods())
			}
		})
	}
}

// modesOnlyAgent answers like an agent that has modes but no config
// options, recording what it was asked.
func modesOnlyAgent(t *testing.T) (*link, *[]string) {
	t.Helper()
	var (
		mu    sync.Mutex
		calls []string
	)
	conn := pipeAgent(t, func(m pipeMsg) []string {
		mu.Lock()
		calls = append(calls, m.Method+" "+string(m.Params))
		mu.Unlock()
		if m.Method == acp.MethodSetMode {
			return []string{`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{}}`}
		}
		return []string{`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`}
	})
	l := &link{conn: conn, log: zerolog.Nop(), sessionID: "s1", modes: &acp.SessionModeState{CurrentModeID: "ask",
		AvailableModes: []acp.SessionMode{{ID: "ask", Name: "Ask"}, {ID: "code", Name: "Code"}}}}
	l.register()
	conn.Start()
	return l, &calls
}

func TestModeFallsBackToSetMode(t *testing.T) {
	tests := []struct {
		name      string
		turn      Turn
		wantCalls string
		wantWarn  string
	}{
		{"mode field", Turn{Mode: "code"}, `session/set_mode {"sessionId":"s1","modeId":"code"}`, ""},
		{"mode as an option", Turn{Options: map[string]any{"mode": "code"}}, `session/set_mode {"sessionId":"s1","modeId":"code"}`, ""},
		{"already current", Turn{Mode: "ask"}, "", ""},
		{"other options have nothing to go to", Turn{Options: map[string]any{"model": "x"}}, "", `"model"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, calls := modesOnlyAgent(t)
			var evs []Event
			ts := &turnState{ctx: context.Background(), emitFn: func(ev Event) { evs = append(evs, ev) }, log: zerolog.Nop()}
			if _, err := (&Engine{}).configure(context.Background(), l, ts, tc.turn); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(*calls, "\n"); got != tc.wantCalls {
				t.Fatalf("calls = %q, want %q", got, tc.wantCalls)
			}
			if w := texts(evs, EventWarning); (tc.wantWarn == "") != (w == "") || !strings.Contains(w, tc.wantWarn) {
				t.Fatalf("warnings = %q, want %q", w, tc.wantWarn)
			}
			if tc.wantCalls != "" && l.modeState().CurrentModeID != "code" {
				t.Fatalf("current mode = %q", l.modeState().CurrentModeID)
			}
		})
	}
}

// Defaults go where the agent offers the option and the value is not
// already current; a turn's own option wins over its default, and a
// default for a setting this agent lacks is no warning.
func TestDefaultsApplyWhereOfferedAndYieldToOptions(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("session/new", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"sessionId":"s-1","configOptions":` + themeOptions + `}`), nil
	})
	evs, _, err := runStub(t, stubEngine(t, ag, Options{}), Turn{
		Defaults: map[string]any{"palette_family": "ember", "fast-mode": true, "other-agents-setting": "x"},
		Options:  map[string]any{"palette_family": "paper"},
		Prompt:   prompt.Text("hi"),
	})
	if err != nil {
		t.Fatal(err)
	}
	got := setCalls(ag)
	slices.Sort(got)
	if strings.Join(got, " ") != `fast-mode=true palette_family="paper"` {
		t.Fatalf("the agent was sent %v", got)
	}
	if w := texts(evs, EventWarning); w != "" {
		t.Fatalf("a default the agent does not offer was warned about: %q", w)
	}
}

// An agent that reports its models as the unstable models state (gemini-cli,
// claude-code-acp) gets them shown as the model option and set with
// session/set_model, by id or display name; a model it does not list is
// sent as given (Claude Code runs any model id its API serves), and the
// agent's own refusal comes through.
func TestModelsStateIsTheModelOption(t *testing.T) {
	tests := []struct {
		name, model string
		wantSet     string // the modelId sent, "" for none
		wantRefused string
		wantRunning string // what the agent says it runs
	}{
		{"by id", "gpt-5.4", "gpt-5.4", "", "model=gpt-5.4"},
		{"by display name", "gpt-5.4-mini", "gpt-5.4-mini", "", "model=gpt-5.4-mini"},
		{"by display name, any case", "gpt-5 PRO", "gpt-5-pro", "not available for this account", "model=gpt-5.5"},
		{"not listed: sent, the agent refuses", "gpt-0", "gpt-0", `unknown model "gpt-0"`, "model=gpt-5.5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, hopts{env: []string{"FAKE_AGENT_SHAPE=models"}})
			evs, res, err := h.run(context.Background(), Turn{Model: tc.model, Prompt: prompt.Text("#settings")})
			if err != nil || res.StopReason != "end_turn" {
				t.Fatalf("%v %+v", err, res)
			}
			var sets []string
			for _, m := range h.agentLog() {
				switch string(m["method"]) {
				case `"session/set_model"`:
					var p struct{ ModelID string }
					json.Unmarshal(m["params"], &p)
					sets = append(sets, p.ModelID)
				case `"session/set_config_option"`:
					t.Errorf("set_config_option sent to an agent without config options")
				}
			}
			if strings.Join(sets, ",") != tc.wantSet {
				t.Fatalf("set_model calls %v, want %q", sets, tc.wantSet)
			}
			if why := texts(evs, EventRefused); (tc.wantRefused == "") != (why == "") || !strings.Contains(why, tc.wantRefused) {
				t.Fatalf("refusal %q, want %q", why, tc.wantRefused)
			}
			if w := texts(evs, EventWarning); w != "" {
				t.Fatalf("warnings %q", w)
			}
			if !strings.Contains(res.Text, tc.wantRunning) {
				t.Fatalf("agent answered %q, want it running %s", res.Text, tc.wantRunning)
			}
			// The bar's model control: the session event carries the models
			// as the model option, current as the agent last reported it.
			var last *Event
			for i := range evs {
				if evs[i].Type() == EventSession && evs[i].Payload.(SessionSetup).Setup != nil {
					last = &evs[i]
				}
			}
			if last == nil {
				t.Fatal("no session event")
			}
			o, ok := acp.FindConfigOption(last.Payload.(SessionSetup).Setup.ConfigOptions, acp.CategoryModel, "")
			if !ok || len(o.Values()) != 4 || "model="+o.Value != tc.wantRunning {
				t.Fatalf("model option %+v, want the 4 models with %s current", o, tc.wantRunning)
			}
		})
	}
}
