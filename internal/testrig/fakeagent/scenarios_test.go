package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// choose answers a permission request with the option of the given kind.
func choose(kind string) func(m msg) any {
	return func(m msg) any {
		var p struct {
			Options []map[string]string `json:"options"`
		}
		json.Unmarshal(m.Params, &p)
		for _, o := range p.Options {
			if o["kind"] == kind {
				return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": o["optionId"]}}
			}
		}
		return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}
	}
}

func startSession(t *testing.T, extra ...string) (*client, string, env) {
	t.Helper()
	e := newEnv(t)
	c := e.start(t, extra...)
	c.initialize()
	sid, _ := c.newSession(e.cwd)
	return c, sid, e
}

func TestPermission(t *testing.T) {
	tests := []struct {
		kind      string // what the client picks; "" = cancelled
		wantText  string
		wantStop  string
		wantFinal string // status of the last tool_call_update
	}{
		{"allow_once", "Permission outcome: allow_once (option proceed)", "end_turn", "completed"},
		{"allow_always", "Permission outcome: allow_always (option trust-forever)", "end_turn", "completed"},
		{"reject_once", "Permission outcome: reject_once (option skip)", "end_turn", "failed"},
		{"reject_always", "Permission outcome: reject_always (option never)", "end_turn", "failed"},
		{"", "Permission outcome: cancelled", "cancelled", "failed"},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			c, sid, e := startSession(t)
			c.answer = choose(tt.kind)
			r := c.prompt(sid, "apply it #permission")
			if r.text != tt.wantText || r.stopReason != tt.wantStop {
				t.Fatalf("text %q stop %q, want %q %q", r.text, r.stopReason, tt.wantText, tt.wantStop)
			}
			if len(r.requests) != 1 || string(r.requests[0].ID) != "0" || r.requests[0].Method != "session/request_permission" {
				t.Fatalf("requests %+v, want one session/request_permission with id 0", r.requests)
			}
			var p struct {
				ToolCall map[string]any      `json:"toolCall"`
				Options  []map[string]string `json:"options"`
			}
			json.Unmarshal(r.requests[0].Params, &p)
			kinds := map[string]bool{}
			for _, o := range p.Options {
				kinds[o["kind"]] = true
				if o["optionId"] == o["kind"] {
					t.Errorf("option id %q equals its kind", o["optionId"])
				}
			}
			if len(kinds) != 4 {
				t.Errorf("option kinds %v, want all four", kinds)
			}
			// The tool call is announced before the question.
			if k := r.kinds(); k[0] != "tool_call" {
				t.Errorf("first update %v", k)
			}
			var last map[string]any
			var termOut string
			for _, u := range r.updates {
				if u["sessionUpdate"] == "tool_call_update" {
					last = u
					if m, ok := u["_meta"].(map[string]any); ok {
						if to, ok := m["terminal_output"].(map[string]any); ok {
							termOut = to["data"].(string)
						}
					}
				}
			}
			if last == nil || last["status"] != tt.wantFinal {
				t.Errorf("last tool_call_update %v, want status %s", last, tt.wantFinal)
			}
			if allowed := strings.HasPrefix(tt.kind, "allow"); allowed != (termOut != "") {
				t.Errorf("terminal output %q for %q", termOut, tt.kind)
			}
			// The answer is in the request log, for tests that check the choice.
			var answered string
			for _, m := range e.requestLog(t) {
				if _, ok := m["result"]; ok && m["method"] == nil {
					b, _ := json.Marshal(m["result"])
					answered = string(b)
				}
			}
			if tt.kind != "" && !strings.Contains(answered, `"selected"`) {
				t.Errorf("logged answer %s", answered)
			}
		})
	}
}

func TestPermissionFirstAndIDs(t *testing.T) {
	uuidRe := regexp.MustCompile(`^"[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"$`)

	c, sid, _ := startSession(t)
	c.answer = choose("allow_once")
	r := c.prompt(sid, "#permission-first")
	if len(r.requests) != 1 || !uuidRe.Match(r.requests[0].ID) {
		t.Fatalf("requests %+v, want one with a string UUID id", r.requests)
	}
	// The request came before any tool_call: r.requests is filled in arrival
	// order with the updates, so check that no tool_call preceded it.
	if r.updates[0]["sessionUpdate"] != "tool_call" || r.text != "Permission outcome: allow_once" {
		t.Errorf("updates %v text %q", r.kinds(), r.text)
	}

	r = c.prompt(sid, "#ids")
	if len(r.requests) != 2 || string(r.requests[0].ID) != "0" || !uuidRe.Match(r.requests[1].ID) {
		t.Fatalf("ids: requests %v", r.requests)
	}
	if r.text != "Permission outcomes: allow_once, allow_once" {
		t.Errorf("ids text %q", r.text)
	}
}

func TestPermissionFirstOrderOnTheWire(t *testing.T) {
	c, sid, _ := startSession(t)
	c.send(map[string]any{"jsonrpc": "2.0", "id": 99, "method": "session/prompt", "params": map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": "#permission-first"}}}})
	m, _ := c.next()
	if m.Method != "session/request_permission" {
		t.Fatalf("first message %+v, want the permission request before any tool_call", m)
	}
}

func TestUnknownVariants(t *testing.T) {
	c, sid, _ := startSession(t)
	res, rerr, seen := c.call("session/prompt", map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": "#unknown"}}})
	r := collect(res, rerr, seen)
	var methods []string
	for _, m := range seen {
		methods = append(methods, m.Method)
	}
	if methods[0] != "_auth/status_update" {
		t.Errorf("methods %v, want _auth/status_update first", methods)
	}
	if r.first("future_update_kind") == nil {
		t.Errorf("no unknown update variant in %v", r.kinds())
	}
	var sawHologram, sawMeta bool
	for _, u := range r.updates {
		if c, ok := u["content"].(map[string]any); ok && c["type"] == "hologram" {
			sawHologram = true
		}
		if _, ok := u["_meta"]; ok {
			sawMeta = true
		}
	}
	if !sawHologram || !sawMeta || r.text != "Still here." || r.stopReason != "end_turn" {
		t.Errorf("hologram %v meta %v text %q stop %q", sawHologram, sawMeta, r.text, r.stopReason)
	}
}

func TestGarbageLine(t *testing.T) {
	c, sid, _ := startSession(t)
	r := c.prompt(sid, "#garbage")
	if len(r.garbage) != 1 || r.text != "Before the garbage. After the garbage." || r.stopReason != "end_turn" {
		t.Errorf("garbage %q text %q stop %q", r.garbage, r.text, r.stopReason)
	}
}

func TestCrashMidStream(t *testing.T) {
	c, sid, _ := startSession(t)
	c.send(map[string]any{"jsonrpc": "2.0", "id": 50, "method": "session/prompt", "params": map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": "#crash"}}}})
	chunks := 0
	for {
		m, ok := c.next()
		if !ok {
			break
		}
		if string(m.ID) == "50" {
			t.Fatal("crash answered the prompt")
		}
		if m.update() != nil {
			chunks++
		}
	}
	if code := c.waitExit(); code != 3 {
		t.Errorf("exit code %d, want 3", code)
	}
	if chunks == 0 || !strings.Contains(c.stderr.String(), "fatal: simulated crash") {
		t.Errorf("%d chunks, stderr %q", chunks, c.stderr)
	}
}

func TestExitEarly(t *testing.T) {
	e := newEnv(t)
	c := e.start(t, "FAKE_AGENT_SCENARIO=exit-early")
	c.send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{"protocolVersion": 1}})
	if m, ok := <-c.msgs; ok {
		t.Fatalf("got %+v before exit", m)
	}
	if code := c.waitExit(); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(c.stderr.String(), "simulated startup failure") {
		t.Errorf("stderr %q", c.stderr)
	}
}

// silent-start reads initialize and never answers it; a closed stdin
// still ends it.
func TestSilentStartNeverAnswersInitialize(t *testing.T) {
	e := newEnv(t)
	c := e.start(t, "FAKE_AGENT_SCENARIO=silent-start")
	c.send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{"protocolVersion": 1}})
	c.in.Close()
	if m, ok := <-c.msgs; ok {
		t.Fatalf("got %+v, want no answer", m)
	}
	if code := c.waitExit(); code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
	if b, err := os.ReadFile(e.log); err != nil || !strings.Contains(string(b), `"initialize"`) {
		t.Errorf("initialize not received: %q %v", b, err)
	}
}

func TestSlowHonoursCancel(t *testing.T) {
	c, sid, _ := startSession(t)
	c.send(map[string]any{"jsonrpc": "2.0", "id": 5, "method": "session/prompt", "params": map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": "#slow"}}}})
	ticks, cancelled := 0, false
	for {
		m, ok := c.next()
		if !ok {
			t.Fatal("agent closed")
		}
		if string(m.ID) == "5" {
			var res struct {
				StopReason string `json:"stopReason"`
			}
			json.Unmarshal(m.Result, &res)
			if res.StopReason != "cancelled" {
				t.Errorf("stopReason %q, want cancelled", res.StopReason)
			}
			break
		}
		if u := m.update(); u != nil && u["sessionUpdate"] == "agent_message_chunk" {
			ticks++
			if !cancelled {
				c.send(map[string]any{"jsonrpc": "2.0", "method": "session/cancel", "params": map[string]any{"sessionId": sid}})
				cancelled = true
			}
		}
	}
	if ticks >= 100 {
		t.Errorf("%d ticks: the cancel was ignored", ticks)
	}
}

func TestThemeWritesTwoVersions(t *testing.T) {
	c, sid, e := startSession(t)
	r := c.prompt(sid, "#theme")
	path := filepath.Join(e.cwd, "theme.json")
	var diffs []map[string]any
	for _, u := range r.updates {
		if u["sessionUpdate"] == "tool_call" && u["kind"] == "edit" {
			d := u["content"].([]any)[0].(map[string]any)
			if d["type"] != "diff" || d["path"] != path {
				t.Errorf("edit content %v", d)
			}
			diffs = append(diffs, d)
		}
	}
	if len(diffs) != 2 {
		t.Fatalf("%d edit tool calls, want 2", len(diffs))
	}
	if diffs[0]["oldText"] != nil || diffs[1]["oldText"] != diffs[0]["newText"] || diffs[1]["newText"] == diffs[0]["newText"] {
		t.Error("second edit does not change the first version")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != diffs[1]["newText"] {
		t.Error("file on disk is not the final version")
	}
	for i, text := range []string{diffs[0]["newText"].(string), string(b)} {
		checkTheme(t, i+1, text)
	}
	// Text streamed between the two writes, so the UI shows progress.
	if !strings.Contains(r.text, "Draft written; refining") {
		t.Errorf("text %q", r.text)
	}
}

func checkTheme(t *testing.T, version int, text string) {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatalf("v%d: %v", version, err)
	}
	hex := regexp.MustCompile(`^#[0-9a-f]{6}$`)
	if doc["name"] == "" || doc["appearance"] != "dark" {
		t.Errorf("v%d name/appearance %v %v", version, doc["name"], doc["appearance"])
	}
	for group, keys := range map[string][]string{
		"ui":     {"background", "surface", "text", "mutedText", "accent", "border", "selection", "error", "warning", "success"},
		"syntax": {"keyword", "string", "comment", "function", "type", "number", "constant", "variable", "operator"},
	} {
		m := doc[group].(map[string]any)
		for _, k := range keys {
			if s, _ := m[k].(string); !hex.MatchString(s) {
				t.Errorf("v%d %s.%s = %v", version, group, k, m[k])
			}
		}
	}
	for name, v := range doc["palette"].(map[string]any) {
		if !hex.MatchString(v.(string)) {
			t.Errorf("v%d palette.%s = %v", version, name, v)
		}
	}
	ansi := doc["ansi"].([]any)
	if len(ansi) != 16 {
		t.Errorf("v%d has %d ansi colours", version, len(ansi))
	}
}

func TestContentBlocks(t *testing.T) {
	c, sid, e := startSession(t)
	r := c.prompt(sid,
		map[string]any{"type": "text", "text": "#echo-blocks"},
		map[string]any{"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="},
		map[string]any{"type": "resource_link", "name": "theme.json", "uri": "file:///w/theme.json"},
		map[string]any{"type": "resource", "resource": map[string]any{"uri": "file:///w/a.txt", "text": "hi"}},
		map[string]any{"type": "audio", "mimeType": "audio/wav", "data": "UklGRg=="},
	)
	if r.text != "Blocks: text, image, resource_link, resource, audio" {
		t.Errorf("echo-blocks %q", r.text)
	}

	r = c.prompt(sid, "#links")
	var uris []string
	for _, u := range r.updates {
		if ct, ok := u["content"].(map[string]any); ok && ct["type"] == "resource_link" {
			uris = append(uris, ct["uri"].(string))
		}
	}
	want := []string{fileURI(filepath.Join(e.cwd, "theme.json")), "file:///etc/passwd"}
	if strings.Join(uris, " ") != strings.Join(want, " ") {
		t.Errorf("links %v, want %v", uris, want)
	}

	r = c.prompt(sid, "#commands")
	cmds := r.first("available_commands_update")["availableCommands"].([]any)
	var hinted int
	for _, x := range cmds {
		cm := x.(map[string]any)
		if cm["description"] == "" {
			t.Errorf("command without description %v", cm)
		}
		if in, ok := cm["input"].(map[string]any); ok && in["hint"] != "" {
			hinted++
		}
	}
	if hinted == 0 {
		t.Error("no command with an input hint")
	}
}

func TestVolumeScenarios(t *testing.T) {
	c, sid, _ := startSession(t, "FAKE_AGENT_FRAME_BYTES=3000000", "FAKE_AGENT_BURST=2500", "FAKE_AGENT_STDERR_BYTES=5000000")

	r := c.prompt(sid, "#big-frame")
	if n := countKind(r, "agent_message_chunk"); n != 1 || len(r.text) != 3000000 {
		t.Errorf("big-frame: %d chunks, %d bytes of text", countKind(r, "agent_message_chunk"), len(r.text))
	}

	r = c.prompt(sid, "#burst")
	if countKind(r, "agent_message_chunk") != 2500 || r.text != strings.Repeat("x", 2500) {
		t.Errorf("burst: %d updates, %d bytes", len(r.updates), len(r.text))
	}

	r = c.prompt(sid, "hello #stderr-flood")
	if r.stopReason != "end_turn" || r.text != "You said: hello #stderr-flood\nHello from the fake agent." {
		t.Errorf("stderr-flood: %q", r.text)
	}
	if n := c.stderr.Len(); n < 5000000 {
		t.Errorf("stderr got %d bytes, want 5000000", n)
	}
}

func TestReadsHugeLines(t *testing.T) {
	if testing.Short() {
		t.Skip("65 MiB prompt")
	}
	c, sid, _ := startSession(t)
	huge := strings.Repeat("y", 65<<20)
	r := c.prompt(sid, map[string]any{"type": "text", "text": "#echo-blocks " + huge})
	if r.rerr != nil || r.text != "Blocks: text" {
		t.Errorf("huge prompt: %v %q", r.rerr, r.text)
	}
}

func countKind(r turnResult, kind string) int {
	n := 0
	for _, k := range r.kinds() {
		if k == kind {
			n++
		}
	}
	return n
}

func TestRequestIDsCountFromZero(t *testing.T) {
	c, sid, _ := startSession(t)
	c.answer = choose("allow_once")
	var got []string
	for i := 0; i < 3; i++ {
		for _, m := range c.prompt(sid, "#permission").requests {
			got = append(got, string(m.ID))
		}
	}
	if strings.Join(got, ",") != "0,1,2" {
		t.Errorf("request ids %v, want 0,1,2 like codex-acp 2.x", got)
	}
}

func TestNavigationCorpusAimsAtThePromptsURL(t *testing.T) {
	c, sid, _ := startSession(t)
	r := c.prompt(sid, "#navigation vectors for http://127.0.0.1:4567 please")
	if r.stopReason != "end_turn" {
		t.Fatalf("stop %q", r.stopReason)
	}
	labels := regexp.MustCompile(`⟦([a-z-]+)⟧`).FindAllStringSubmatch(r.text, -1)
	if len(labels) < 15 {
		t.Fatalf("%d labelled vectors in the reply, want the whole corpus", len(labels))
	}
	if strings.Contains(r.text, "{{URL}}") || !strings.Contains(r.text, `href="http://127.0.0.1:4567/v/area"`) {
		t.Errorf("vectors do not aim at the prompt's URL:\n%s", clip(r.text, 600))
	}
	for _, want := range []string{"<area ", "target=\"_blank\"", "<form ", "<base ", "http-equiv=\"refresh\"", "<svg ", "<math ", "javascript:", "data:text/html", "file:///"} {
		if !strings.Contains(r.text, want) {
			t.Errorf("corpus lacks %s", want)
		}
	}
	if tc := r.first("tool_call"); tc == nil || !strings.Contains(tc["title"].(string), "http://127.0.0.1:4567/v/tool-title") {
		t.Errorf("tool title %v", tc)
	}
}

func TestSettingsScenarioReportsWhatTheAgentHolds(t *testing.T) {
	c, sid, _ := startSession(t)
	c.mustCall("session/set_config_option", map[string]any{"sessionId": sid, "configId": "mode", "value": "agent-full-access"})
	c.mustCall("session/set_config_option", map[string]any{"sessionId": sid, "configId": "reasoning_effort", "value": "high"})
	r := c.prompt(sid, "#settings")
	if want := "Running with mode=agent-full-access, model=gpt-5.5, reasoning_effort=high."; r.text != want {
		t.Fatalf("text %q, want %q", r.text, want)
	}
}

func TestRetryNoticesAreShapedLikeCodexACP(t *testing.T) {
	c, sid, _ := startSession(t, "FAKE_AGENT_RETRIES=3", "FAKE_AGENT_RETRY_MS=5")
	r := c.prompt(sid, "hello #retry")
	notices := 0
	for _, u := range r.updates {
		meta, _ := u["_meta"].(map[string]any)
		codex, _ := meta["codex"].(map[string]any)
		if e, ok := codex["error"].(map[string]any); ok && u["sessionUpdate"] == "session_info_update" {
			notices++
			if e["message"] != "Reconnecting... waiting for network" || e["willRetry"] != true {
				t.Errorf("notice %v", e)
			}
		}
	}
	if notices != 3 || r.stopReason != "end_turn" || !strings.Contains(r.text, "Back online") {
		t.Fatalf("%d notices, stop %q, text %q", notices, r.stopReason, r.text)
	}
}

// server-error words the model server's failure as codex-acp 2.x does
// for a client without typed failures: one text chunk with no messageId,
// and a normal end of the turn.
func TestServerErrorIsTextWithoutAMessageID(t *testing.T) {
	c, sid, _ := startSession(t)
	r := c.prompt(sid, "#server-error")
	var chunks []map[string]any
	for _, u := range r.updates {
		if u["sessionUpdate"] == "agent_message_chunk" {
			chunks = append(chunks, u)
		}
	}
	if r.stopReason != "end_turn" || r.text != serverErrorText+"\n\n" || len(chunks) != 1 || chunks[0]["messageId"] != nil {
		t.Fatalf("stop %q, text %q, chunks %v", r.stopReason, r.text, chunks)
	}
}

func TestStallIsSilentUntilCancelled(t *testing.T) {
	c, sid, _ := startSession(t, "FAKE_AGENT_STALL_MS=60000")
	c.send(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "session/prompt", "params": map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": "#stall"}}}})
	chunks := 0
	for {
		m, ok := c.next()
		if !ok {
			t.Fatal("agent closed")
		}
		if string(m.ID) == "7" {
			var res struct {
				StopReason string `json:"stopReason"`
			}
			json.Unmarshal(m.Result, &res)
			if res.StopReason != "cancelled" || chunks != 1 {
				t.Fatalf("stop %q after %d chunks, want cancelled after 1", res.StopReason, chunks)
			}
			return
		}
		if u := m.update(); u != nil && u["sessionUpdate"] == "agent_message_chunk" {
			chunks++
			c.send(map[string]any{"jsonrpc": "2.0", "method": "session/cancel", "params": map[string]any{"sessionId": sid}})
		}
	}
}
