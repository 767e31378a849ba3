package chat

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"cdxtheme/core/acp"
	"cdxtheme/core/prompt"
	"cdxtheme/internal/testrig/acpstub"

	"github.com/rs/zerolog"
)

func TestTurnOptionsReachTheAgentAndAreReappliedAfterResume(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("initialize", func(*acpstub.Call) (any, error) { return json.RawMessage(withResume), nil })
	ag.HoldSettings(codexSettings[:len(codexSettings)-1]+","+themeOptions[1:], nil)
	ag.OnPrompt(runningWith)
	e := stubEngine(t, ag, Options{})
	cwd := t.TempDir()
	evs, res, err := runStub(t, e, Turn{
		Cwd:     cwd,
		Mode:    "read-only",
		Options: map[string]any{"fast-mode": true, "palette_family": "paper", "no-such": "x", "model_config": true},
		Prompt:  prompt.Text("hi"),
	})
	if err != nil {
		t.Fatal(err)
	}
	// The agent says the values it holds when the prompt arrives.
	for _, want := range []string{"mode=read-only", "fast-mode=true", "palette_family=paper"} {
		if !strings.Contains(texts(evs, EventText), want) {
			t.Fatalf("agent answered %q, want %s", texts(evs, EventText), want)
		}
	}
	// "model_config" names fast-mode by category; already true, so not sent twice.
	if got := strings.Join(setCalls(ag), " "); got != `mode="read-only" fast-mode=true palette_family="paper"` {
		t.Fatalf("calls = %s", got)
	}
	if w := texts(evs, EventWarning); !strings.Contains(w, `"no-such"`) {
		t.Fatalf("unknown option not warned about: %q", w)
	}

	// A new connection (not warm) resumes the session at the defaults; the
	// values must be applied again there, and a changed one reaches the agent.
	evs, _, err = runStub(t, e, Turn{Cwd: cwd, SessionID: res.SessionID,
		Options: map[string]any{"fast-mode": false, "palette_family": "paper"}, Prompt: prompt.Text("again")})
	if err != nil {
		t.Fatal(err)
	}
	if text := texts(evs, EventText); !strings.Contains(text, "fast-mode=false") || !strings.Contains(text, "palette_family=paper") {
		t.Fatalf("after resume the agent holds %q", text)
	}
	if m := ag.Methods(); count(m, "session/resume") != 1 || count(m, "initialize") != 2 {
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
	ag := acpstub.New()
	ag.HoldSettings(codexSettings[:len(codexSettings)-1]+","+themeOptions[1:], map[string]string{"model=gpt-5-pro": "gpt-5-pro is not available for this account"})
	ag.OnPrompt(runningWith)
	e := stubEngine(t, ag, Options{Warm: true})
	cwd := t.TempDir()
	_, res, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	opts, err := e.SetOption(ctx, res.SessionID, "fast-mode", true)
	if err != nil {
		t.Fatal(err)
	}
	if o, ok := acp.FindConfigOption(opts, "", "fast-mode"); !ok || !o.Bool {
		t.Fatalf("options after the change: %+v", opts)
	}
	if _, err := e.SetOption(ctx, res.SessionID, "thought_level", "high"); err != nil {
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
			_, err := e.SetOption(ctx, sid, tc.id, tc.value)
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
	// The next turn runs on the same connection and sees the live values.
	evs, _, err := runStub(t, e, Turn{Cwd: cwd, SessionID: res.SessionID, Prompt: prompt.Text("again")})
	if err != nil {
		t.Fatal(err)
	}
	if text := texts(evs, EventText); !strings.Contains(text, "fast-mode=true") || !strings.Contains(text, "reasoning_effort=high") {
		t.Fatalf("agent holds %q", text)
	}
	if n := ag.Started(); n != 1 {
		t.Fatalf("started %d agents, want the warm one only", n)
	}
	e.Close()
	if _, err := e.SetOption(ctx, res.SessionID, "fast-mode", false); !errors.Is(err, ErrNotLive) {
		t.Fatalf("after Close: %v", err)
	}
}

// An agent that dies while applying a setting is let go of, not kept,
// owned by nobody, until the app quits; the value goes with the next turn.
func TestSetOptionOnAnAgentThatDiesLetsGoOfIt(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("session/new", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"sessionId":"s-1","configOptions":` + themeOptions + `}`), nil
	})
	ag.Handle("session/set_config_option", func(c *acpstub.Call) (any, error) {
		c.Exit() // dies while applying it
		return nil, nil
	})
	e := stubEngine(t, ag, Options{Warm: true})
	_, res, err := runStub(t, e, Turn{Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.SetOption(context.Background(), res.SessionID, "fast-mode", true); !errors.Is(err, ErrNotLive) {
		t.Fatalf("err = %v, want ErrNotLive", err)
	}
	if e.Holding() {
		t.Fatal("the engine still holds an agent nobody owns")
	}
}

func TestCommandsReachEveryTurnOfAWarmSession(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("session/new", func(c *acpstub.Call) (any, error) {
		// Once, right after the session opened, as codex-acp does.
		c.UpdateAfter("s-1", `{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"review","description":"Review the theme"}]}`)
		return map[string]string{"sessionId": "s-1"}, nil
	})
	e := stubEngine(t, ag, Options{Warm: true})
	cwd := t.TempDir()
	_, res, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	evs, _, err := runStub(t, e, Turn{Cwd: cwd, SessionID: res.SessionID, Prompt: prompt.Text("again")})
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
	if ag.Started() != 1 {
		t.Fatalf("started %d agents: the follow-up was not on the warm one", ag.Started())
	}
}

func TestMCPServersPassedWhenTheAgentTakesThem(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("initialize", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"sessionCapabilities":{"resume":{}},"mcpCapabilities":{"http":false,"sse":false}}}`), nil
	})
	e := stubEngine(t, ag, Options{})
	cwd := t.TempDir()
	stdio := json.RawMessage(`{"name":"palette","command":"/usr/bin/palette-mcp","args":["--x"],"env":[]}`)
	httpSrv := json.RawMessage(`{"type":"http","name":"remote","url":"https://mcp.example/","headers":[]}`)
	evs, res, err := runStub(t, e, Turn{Cwd: cwd, MCPServers: []json.RawMessage{stdio, httpSrv, json.RawMessage(`[1]`)}, Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	if w := texts(evs, EventWarning); !strings.Contains(w, `does not take http MCP servers; "remote"`) || !strings.Contains(w, "unreadable") {
		t.Fatalf("warnings = %q", w)
	}
	_, _, err = runStub(t, e, Turn{Cwd: cwd, SessionID: res.SessionID, MCPServers: []json.RawMessage{stdio}, Prompt: prompt.Text("again")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range ag.Calls() {
		if c.Method == "session/new" || c.Method == "session/resume" {
			var p struct {
				MCPServers json.RawMessage `json:"mcpServers"`
			}
			json.Unmarshal(c.Params, &p)
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
		name          string
		agent         func() *acpstub.Agent
		wantSupported bool
	}{
		{"agent with logout", signedOut, true},
		{"agent without", acpstub.New, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ag := tc.agent()
			e := stubEngine(t, ag, Options{Warm: true})
			cwd := t.TempDir()
			ctx := context.Background()
			if err := e.Authenticate(ctx, cwd, "api-key"); err != nil {
				t.Fatal(err)
			}
			if _, _, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("hi")}); err != nil {
				t.Fatalf("signed in: %v", err)
			}
			supported, err := e.Logout(ctx, cwd)
			if err != nil || supported != tc.wantSupported {
				t.Fatalf("Logout = %v, %v; want supported %v", supported, err, tc.wantSupported)
			}
			_, _, err = runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("hi")})
			ce, _ := errors.AsType[*Error](err)
			signedOut := ce != nil && ce.Code == CodeAuth
			if signedOut != tc.wantSupported {
				t.Fatalf("turn after logout: %v", err)
			}
			if count(ag.Methods(), "logout") != map[bool]int{true: 1}[tc.wantSupported] {
				t.Fatalf("methods = %v", ag.Methods())
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
		{"by display name", "GPT-5.4 Mini", "gpt-5.4-mini", "", "model=gpt-5.4-mini"},
		{"by display name, any case", "gpt-5 PRO", "gpt-5-pro", "not available for this account", "model=gpt-5.5"},
		{"not listed: sent, the agent refuses", "gpt-0", "gpt-0", `unknown model "gpt-0"`, "model=gpt-5.5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ag := acpstub.New()
			var running atomic.Value
			running.Store("gpt-5.5")
			ag.Handle("session/new", func(*acpstub.Call) (any, error) {
				return json.RawMessage(`{"sessionId":"s-1","models":{"currentModelId":"gpt-5.5","availableModels":[` +
					`{"modelId":"gpt-5.5","name":"GPT-5.5"},{"modelId":"gpt-5.4","name":"GPT-5.4"},` +
					`{"modelId":"gpt-5.4-mini","name":"GPT-5.4 Mini"},{"modelId":"gpt-5-pro","name":"GPT-5 Pro"}]}}`), nil
			})
			ag.Handle("session/set_model", func(c *acpstub.Call) (any, error) {
				var p struct{ ModelID string }
				json.Unmarshal(c.Params, &p)
				switch p.ModelID {
				case "gpt-5-pro":
					return nil, &acpstub.Error{Code: -32602, Message: "gpt-5-pro is not available for this account"}
				case "gpt-5.5", "gpt-5.4", "gpt-5.4-mini":
					running.Store(p.ModelID)
					return struct{}{}, nil
				}
				return nil, &acpstub.Error{Code: -32602, Message: `unknown model "` + p.ModelID + `"`}
			})
			ag.Handle("session/set_config_option", func(*acpstub.Call) (any, error) {
				t.Errorf("set_config_option sent to an agent without config options")
				return struct{}{}, nil
			})
			ag.OnPrompt(func(turn *acpstub.Turn) string {
				turn.Say("Running with model=" + running.Load().(string) + ".")
				return "end_turn"
			})
			evs, res, err := runStub(t, stubEngine(t, ag, Options{}), Turn{Model: tc.model, Prompt: prompt.Text("hi")})
			if err != nil || res.StopReason != "end_turn" {
				t.Fatalf("%v %+v", err, res)
			}
			var sets []string
			for _, p := range ag.Params("session/set_model") {
				var m struct{ ModelID string }
				json.Unmarshal(p, &m)
				sets = append(sets, m.ModelID)
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
			if text := texts(evs, EventText); !strings.Contains(text, tc.wantRunning) {
				t.Fatalf("agent answered %q, want it running %s", text, tc.wantRunning)
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
