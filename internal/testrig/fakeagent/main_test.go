package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestInitializeAdvertisesCapabilities(t *testing.T) {
	c := newEnv(t).start(t)
	init := c.initialize()
	caps := init["agentCapabilities"].(map[string]any)
	if caps["loadSession"] != true {
		t.Errorf("loadSession = %v", caps["loadSession"])
	}
	sc := caps["sessionCapabilities"].(map[string]any)
	for _, k := range []string{"resume", "list"} {
		if _, ok := sc[k]; !ok {
			t.Errorf("sessionCapabilities.%s missing", k)
		}
	}
	pc := caps["promptCapabilities"].(map[string]any)
	for _, k := range []string{"image", "audio", "embeddedContext"} {
		if pc[k] != true {
			t.Errorf("promptCapabilities.%s = %v", k, pc[k])
		}
	}
	if methods, _ := init["authMethods"].([]any); len(methods) == 0 {
		t.Error("no authMethods")
	}
}

func TestNormalTurn(t *testing.T) {
	e := newEnv(t)
	c := e.start(t)
	c.initialize()
	sid, _ := c.newSession(e.cwd)
	r := c.prompt(sid, "make it cosy")
	if r.stopReason != "end_turn" || r.scenario != "normal" {
		t.Fatalf("stop %q scenario %q", r.stopReason, r.scenario)
	}
	if want := "You said: make it cosy\nHello from the fake agent."; r.text != want {
		t.Errorf("text %q, want %q", r.text, want)
	}
	first := r.first("agent_message_chunk")
	if got := first["content"].(map[string]any)["text"]; got != "You said: make it cosy\n" {
		t.Errorf("first chunk %q", got)
	}
	plan := r.first("plan")
	if plan == nil || len(plan["entries"].([]any)) != 3 {
		t.Errorf("plan = %v", plan)
	}
	for _, k := range []string{"agent_thought_chunk", "usage_update", "session_info_update"} {
		if r.first(k) == nil {
			t.Errorf("no %s in %v", k, r.kinds())
		}
	}
	var title string
	for _, u := range r.updates {
		if s, ok := u["title"].(string); ok {
			title = s
		}
	}
	if title != "make it cosy" {
		t.Errorf("title %q", title)
	}
}

func TestScenarioSelection(t *testing.T) {
	tests := []struct {
		envScenario string
		prompt      string
		want        string
	}{
		{"", "hello", "normal"},
		{"", "please #garbage now", "garbage"},
		{"", "#not-a-scenario stays normal", "normal"},
		{"commands", "hello", "commands"},
		{"commands", "but #unknown wins for this prompt", "unknown"},
		{"", "#options then #links: the first known tag wins", "options"},
	}
	for _, tt := range tests {
		t.Run(tt.envScenario+"/"+tt.prompt, func(t *testing.T) {
			e := newEnv(t)
			c := e.start(t, "FAKE_AGENT_SCENARIO="+tt.envScenario)
			c.initialize()
			sid, _ := c.newSession(e.cwd)
			if r := c.prompt(sid, tt.prompt); r.scenario != tt.want {
				t.Errorf("scenario %q, want %q", r.scenario, tt.want)
			}
		})
	}
}

func TestSessionsPersistAcrossProcesses(t *testing.T) {
	e := newEnv(t)
	c1 := e.start(t)
	c1.initialize()
	sid, _ := c1.newSession(e.cwd)
	c1.prompt(sid, "first words")
	c1.mustCall("session/set_config_option", map[string]any{"sessionId": sid, "configId": "model", "value": "gpt-5.4"})
	c1.in.Close()
	if code := c1.waitExit(); code != 0 {
		t.Fatalf("agent exit %d after stdin closed", code)
	}

	// A new process replays the history on load.
	c2 := e.start(t)
	c2.initialize()
	res, seen := c2.mustCall("session/load", map[string]any{"sessionId": sid, "cwd": e.cwd, "mcpServers": []any{}})
	replay := collect(nil, nil, seen)
	if got := replay.kinds(); !reflect.DeepEqual(got, []string{"user_message_chunk", "agent_message_chunk"}) {
		t.Fatalf("replay kinds %v", got)
	}
	if u := replay.updates[0]["content"].(map[string]any)["text"]; u != "first words" {
		t.Errorf("replayed user text %q", u)
	}
	if replay.text != "You said: first words\nHello from the fake agent." {
		t.Errorf("replayed agent text %q", replay.text)
	}
	// Like codex-acp, settings die with the process: a reload starts from
	// the defaults, so a client must re-apply them.
	if got := currentValue(t, res, "model"); got != "gpt-5.5" {
		t.Errorf("model after load by a new process %v, want the default again", got)
	}
	c2.mustCall("session/set_config_option", map[string]any{"sessionId": sid, "configId": "model", "value": "gpt-5.4"})
	res, _ = c2.mustCall("session/resume", map[string]any{"sessionId": sid, "cwd": e.cwd, "mcpServers": []any{}})
	if got := currentValue(t, res, "model"); got != "gpt-5.4" {
		t.Errorf("model after resume in the same process %v, want the one set there", got)
	}
	if _, rerr, _ := c2.call("session/set_config_option", map[string]any{"sessionId": sid, "configId": "model", "value": "gpt-5-pro"}); rerr == nil || rerr.Code != codeInvalidParams || !strings.Contains(rerr.Message, "not available for this account") {
		t.Errorf("a refused listed model answered %+v", rerr)
	}
	c2.prompt(sid, "second")

	// Resume does not replay; list shows the session with its title.
	c3 := e.start(t)
	c3.initialize()
	_, seen = c3.mustCall("session/resume", map[string]any{"sessionId": sid, "cwd": e.cwd, "mcpServers": []any{}})
	if r := collect(nil, nil, seen); len(r.updates) != 0 {
		t.Errorf("resume sent updates %v", r.kinds())
	}
	res, _ = c3.mustCall("session/list", map[string]any{})
	var list struct {
		Sessions []map[string]any `json:"sessions"`
	}
	json.Unmarshal(res, &list)
	if len(list.Sessions) != 1 || list.Sessions[0]["sessionId"] != sid || list.Sessions[0]["title"] != "first words" || list.Sessions[0]["cwd"] != e.cwd {
		t.Errorf("list = %v", list.Sessions)
	}
	res, _ = c3.mustCall("session/list", map[string]any{"cwd": "/elsewhere"})
	json.Unmarshal(res, &list)
	if len(list.Sessions) != 0 {
		t.Errorf("list for another cwd = %v", list.Sessions)
	}
	// A third prompt sees both earlier turns on load.
	_, seen = c3.mustCall("session/load", map[string]any{"sessionId": sid, "cwd": e.cwd, "mcpServers": []any{}})
	if n := len(collect(nil, nil, seen).updates); n != 4 {
		t.Errorf("second load replayed %d updates, want 4", n)
	}
}

func currentValue(t *testing.T, res json.RawMessage, id string) any {
	t.Helper()
	var r struct {
		ConfigOptions []map[string]any `json:"configOptions"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		t.Fatal(err)
	}
	for _, o := range r.ConfigOptions {
		if o["id"] == id {
			return o["currentValue"]
		}
	}
	return nil
}

func TestErrors(t *testing.T) {
	e := newEnv(t)
	c := e.start(t)
	c.initialize()
	sid, _ := c.newSession(e.cwd)
	tests := []struct {
		method string
		params any
		code   int
	}{
		{"session/teleport", map[string]any{}, -32601},
		{"session/load", map[string]any{"sessionId": "no-such-session", "cwd": e.cwd}, -32002},
		{"session/resume", map[string]any{"sessionId": "../../etc", "cwd": e.cwd}, -32002},
		{"session/new", map[string]any{"cwd": "relative/dir"}, -32602},
		{"session/prompt", map[string]any{"sessionId": "nope", "prompt": []any{}}, -32002},
		{"session/set_config_option", map[string]any{"sessionId": sid, "configId": "model", "value": "gpt-99"}, -32602},
		{"session/set_config_option", map[string]any{"sessionId": sid, "configId": "reasoning_effort", "value": "maximal"}, -32602},
		{"session/set_config_option", map[string]any{"sessionId": sid, "configId": "warp", "value": "9"}, -32602},
		{"session/set_config_option", map[string]any{"sessionId": sid, "configId": "fast-mode", "type": "boolean", "value": true}, -32602}, // only in "options"
		{"session/set_mode", map[string]any{"sessionId": sid, "modeId": "yolo"}, -32602},
		{"authenticate", map[string]any{"methodId": "telepathy"}, -32602},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %v", tt.method, tt.params), func(t *testing.T) {
			_, rerr, _ := c.call(tt.method, tt.params)
			if rerr == nil || rerr.Code != tt.code {
				t.Errorf("error %v, want code %d", rerr, tt.code)
			}
		})
	}
	// An unknown notification is ignored and the connection lives on.
	c.send(map[string]any{"jsonrpc": "2.0", "method": "_vendor/ping", "params": map[string]any{}})
	if r := c.prompt(sid, "still alive?"); r.stopReason != "end_turn" {
		t.Errorf("after errors: %+v", r)
	}
}

func TestConfigAndModes(t *testing.T) {
	e := newEnv(t)
	c := e.start(t)
	c.initialize()
	sid, created := c.newSession(e.cwd)
	ids := []string{}
	for _, o := range created["configOptions"].([]any) {
		ids = append(ids, o.(map[string]any)["id"].(string))
	}
	if !reflect.DeepEqual(ids, []string{"mode", "model", "reasoning_effort"}) {
		t.Errorf("config option ids %v", ids)
	}
	if got := created["modes"].(map[string]any)["currentModeId"]; got != "agent" {
		t.Errorf("currentModeId %v", got)
	}
	res, seen := c.mustCall("session/set_config_option", map[string]any{"sessionId": sid, "configId": "reasoning_effort", "value": "high"})
	if got := currentValue(t, res, "reasoning_effort"); got != "high" {
		t.Errorf("reasoning_effort %v", got)
	}
	if r := collect(nil, nil, seen); r.first("config_option_update") == nil {
		t.Error("no config_option_update after set_config_option")
	}
	_, seen = c.mustCall("session/set_mode", map[string]any{"sessionId": sid, "modeId": "read-only"})
	if u := collect(nil, nil, seen).first("current_mode_update"); u == nil || u["currentModeId"] != "read-only" {
		t.Errorf("current_mode_update = %v", u)
	}
	res, _ = c.mustCall("session/set_config_option", map[string]any{"sessionId": sid, "configId": "model", "value": "gpt-5.4-mini"})
	if got := currentValue(t, res, "mode"); got != "read-only" {
		t.Errorf("mode option %v after set_mode, want read-only", got)
	}

	// The log tells tests what the client asked for.
	var sets []string
	for _, m := range e.requestLog(t) {
		if m["method"] == "session/set_config_option" {
			p := m["params"].(map[string]any)
			sets = append(sets, fmt.Sprintf("%v=%v", p["configId"], p["value"]))
		}
	}
	if !reflect.DeepEqual(sets, []string{"reasoning_effort=high", "model=gpt-5.4-mini"}) {
		t.Errorf("logged set_config_option %v", sets)
	}
}

func TestAuthRequiredUntilAuthenticated(t *testing.T) {
	e := newEnv(t)
	c := e.start(t, "FAKE_AGENT_SCENARIO=auth")
	c.initialize()
	_, rerr, _ := c.call("session/new", map[string]any{"cwd": e.cwd, "mcpServers": []any{}})
	if rerr == nil || rerr.Code != -32000 || rerr.Message != "Authentication required" {
		t.Fatalf("session/new before auth: %v", rerr)
	}
	c.mustCall("authenticate", map[string]any{"methodId": "api-key"})
	c.newSession(e.cwd)

	// The login outlives the process, as a real agent's stored credentials do.
	c2 := e.start(t, "FAKE_AGENT_SCENARIO=auth")
	c2.initialize()
	c2.newSession(e.cwd)

	// logout forgets it for every later process.
	c2.mustCall("logout", map[string]any{})
	if _, rerr, _ := c2.call("session/new", map[string]any{"cwd": e.cwd, "mcpServers": []any{}}); rerr == nil || rerr.Code != -32000 {
		t.Fatalf("session/new after logout: %v", rerr)
	}
	c2.mustCall("authenticate", map[string]any{"methodId": "chat-gpt"})
	c2.newSession(e.cwd)

	// Another machine (state dir) is not logged in.
	other := newEnv(t)
	c3 := other.start(t, "FAKE_AGENT_SCENARIO=auth")
	c3.initialize()
	if _, rerr, _ := c3.call("session/new", map[string]any{"cwd": other.cwd}); rerr == nil || rerr.Code != -32000 {
		t.Fatalf("fresh state: %v", rerr)
	}
}

func TestOptionsScenario(t *testing.T) {
	e := newEnv(t)
	c := e.start(t, "FAKE_AGENT_SCENARIO=options")
	c.initialize()
	sid, created := c.newSession(e.cwd)
	byID := map[string]map[string]any{}
	for _, o := range created["configOptions"].([]any) {
		byID[o.(map[string]any)["id"].(string)] = o.(map[string]any)
	}
	if byID["fast-mode"]["type"] != "boolean" || byID["fast-mode"]["currentValue"] != false {
		t.Errorf("boolean option %v", byID["fast-mode"])
	}
	groups, _ := byID["palette_family"]["options"].([]any)
	if len(groups) != 2 || groups[0].(map[string]any)["group"] != "dark" {
		t.Errorf("grouped select %v", byID["palette_family"])
	}
	if byID["model"]["category"] != "model" {
		t.Errorf("model option %v", byID["model"])
	}
	c.mustCall("session/set_config_option", map[string]any{"sessionId": sid, "configId": "fast-mode", "type": "boolean", "value": true})
	c.mustCall("session/set_config_option", map[string]any{"sessionId": sid, "configId": "palette_family", "value": "paper"})
	if _, rerr, _ := c.call("session/set_config_option", map[string]any{"sessionId": sid, "configId": "fast-mode", "value": "yes"}); rerr == nil || rerr.Code != -32602 {
		t.Errorf("string for a boolean: %v", rerr)
	}
	r := c.prompt(sid, "show options")
	if r.first("config_option_update") == nil {
		t.Error("no config_option_update during the turn")
	}
	for _, want := range []string{"fast-mode=true", "palette_family=paper", "model=gpt-5.5"} {
		if !strings.Contains(r.text, want) {
			t.Errorf("reply %q lacks %s", r.text, want)
		}
	}
}
