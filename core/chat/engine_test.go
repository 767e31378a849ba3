package chat

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cdxtheme/core/acp"
	"cdxtheme/core/agent"
	"cdxtheme/core/permission"
	"cdxtheme/core/prompt"
	"cdxtheme/internal/testrig/acpstub"
	"cdxtheme/internal/testrig/fakeagent/fakeagenttest"
	"cdxtheme/internal/testrig/syncbuf"

	"github.com/rs/zerolog"
)

// Kept on the subprocess fake agent (harness): huge and many frames, wire
// request ids, garbage lines, crashes, hangs, stderr floods, cancel's
// process group and the paced replay; the logic tests use stubEngine.

// harness runs turns against the fake agent and checks, at the end of
// every test, that no process of any agent group it started is left.
type harness struct {
	t      *testing.T
	e      *Engine
	cwd    string
	logf   string
	mu     sync.Mutex
	pids   []int
	events []Event
	// log is what the engine logged (Options.Log).
	log syncbuf.Buffer
}

type hopts struct {
	warm     bool
	timeout  time.Duration
	scenario string
	env      []string
	// agent, when set, makes the agent command line from the fake
	// agent's path (e.g. a shell wrapper).
	agent func(bin string) string
	idle  time.Duration // Options.PrewarmIdle
}

func newHarness(t *testing.T, o hopts) *harness {
	t.Helper()
	if err := leftoverCheckable(); err != nil {
		t.Skipf("the leftover-process checks cannot look here: %v", err)
	}
	bin := fakeagenttest.Build(t)
	h := &harness{t: t, cwd: t.TempDir(), logf: filepath.Join(t.TempDir(), "agent.log")}
	env := append([]string{
		"FAKE_AGENT_STATE=" + t.TempDir(),
		"FAKE_AGENT_LOG=" + h.logf,
		"FAKE_AGENT_SCENARIO=" + o.scenario,
	}, o.env...)
	override := strconv.Quote(bin)
	if o.agent != nil {
		override = o.agent(bin)
	}
	h.e = NewEngine(Options{
		Resolve:     agent.ResolveOptions{Override: override},
		Version:     "1.2.3",
		Warm:        o.warm,
		Timeout:     o.timeout,
		Env:         env,
		Log:         zerolog.New(&h.log),
		PrewarmIdle: o.idle,
	})
	h.e.spawned = func(pid int) {
		holdPID(pid)
		h.mu.Lock()
		h.pids = append(h.pids, pid)
		h.mu.Unlock()
	}
	t.Cleanup(func() {
		h.e.Close()
		for _, pid := range h.spawned() {
			if n := groupMembers(pid); n != 0 {
				t.Errorf("agent process group %d still has %d live processes", pid, n)
			}
		}
	})
	return h
}

func (h *harness) spawned() []int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]int(nil), h.pids...)
}

// ran is a turn's result with the agent text its events carried.
type ran struct {
	Result
	Text string
}

// run runs one turn, recording its events.
func (h *harness) run(ctx context.Context, t Turn) ([]Event, ran, error) {
	h.t.Helper()
	if t.Cwd == "" {
		t.Cwd = h.cwd
	}
	var evs []Event
	res, err := h.e.Run(ctx, t, func(ev Event) { evs = append(evs, ev) })
	if len(evs) == 0 {
		h.t.Fatal("no events")
	}
	last := evs[len(evs)-1]
	if last.Type() != EventDone && last.Type() != EventError {
		h.t.Fatalf("last event is %q, want done or error", last.Type())
	}
	return evs, ran{res, texts(evs, EventText)}, err
}

// agentLog returns the requests the fake agent received, in order.
func (h *harness) agentLog() []map[string]json.RawMessage {
	h.t.Helper()
	f, err := os.Open(h.logf)
	if err != nil {
		h.t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]json.RawMessage
	br := bufio.NewReader(f)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 1 {
			var m map[string]json.RawMessage
			if json.Unmarshal(line, &m) == nil {
				out = append(out, m)
			}
		}
		if err != nil {
			return out
		}
	}
}

func (h *harness) methods() []string {
	var out []string
	for _, m := range h.agentLog() {
		if s, err := strconv.Unquote(string(m["method"])); err == nil {
			out = append(out, s)
		}
	}
	return out
}

func count(xs []string, x string) int {
	n := 0
	for _, s := range xs {
		if s == x {
			n++
		}
	}
	return n
}

// groupMembers counts live (non-zombie) processes in process group pgid,
// waiting up to 10 s for a group being torn down right now. newHarness has
// made sure /proc can be read.
func groupMembers(pgid int) int {
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, err := liveInGroup(pgid)
		if err != nil {
			return -1
		}
		if n == 0 || time.Now().After(deadline) {
			return n
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func texts(evs []Event, typ string) string {
	var b strings.Builder
	for _, ev := range evs {
		if ev.Type() == typ {
			b.WriteString(TextOf(ev))
		}
	}
	return b.String()
}

func types(evs []Event) []string {
	var out []string
	for _, ev := range evs {
		out = append(out, ev.Type())
	}
	return out
}

func indexOf(evs []Event, typ string) int {
	for i, ev := range evs {
		if ev.Type() == typ {
			return i
		}
	}
	return -1
}

// One plain turn: what the agent streams becomes the page's events, in
// order and tagged with the session; what the client told the agent about
// itself is exact.
func TestNormalTurn(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("session/new", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"sessionId":"s-1","configOptions":[{"id":"model","name":"Model","category":"model","type":"select","currentValue":"gpt-5.5","options":[{"value":"gpt-5.5","name":"GPT-5.5"}]}]}`), nil
	})
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		turn.Update(`{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"review","description":"Review the theme"}]}`)
		turn.Update(`{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"Thinking about how to greet the user."}}`)
		turn.Update(`{"sessionUpdate":"plan","entries":[{"content":"Greet the user","priority":"high","status":"in_progress"}]}`)
		turn.Say("You said: " + turn.Text() + "\n")
		turn.Say("Hello from the stub agent.")
		turn.Update(`{"sessionUpdate":"usage_update","used":135,"size":258400}`)
		turn.Update(`{"sessionUpdate":"session_info_update","title":"Teal theme"}`)
		return "end_turn"
	})
	e := stubEngine(t, ag, Options{Version: "1.2.3"})
	cwd := t.TempDir()
	evs, res, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("make it teal")})
	if err != nil {
		t.Fatal(err)
	}
	want := "You said: make it teal\nHello from the stub agent."
	if texts(evs, EventText) != want {
		t.Fatalf("text = %q, want %q", texts(evs, EventText), want)
	}
	if res.StopReason != acp.StopEndTurn || res.SessionID != "s-1" {
		t.Fatalf("result = %+v", res)
	}
	if texts(evs, EventThought) != "Thinking about how to greet the user." {
		t.Errorf("thought = %q", texts(evs, EventThought))
	}
	for _, typ := range []string{EventSession, EventPlan, EventUsage, EventCommands, EventSessionInfo} {
		if indexOf(evs, typ) < 0 {
			t.Errorf("no %s event in %v", typ, types(evs))
		}
	}
	if s := evs[indexOf(evs, EventSession)]; s.SessionID != res.SessionID || s.Payload.(SessionSetup).Setup == nil || len(s.Payload.(SessionSetup).Setup.ConfigOptions) != 1 {
		t.Errorf("session event = %+v", s)
	}
	if indexOf(evs, EventThought) > indexOf(evs, EventText) || indexOf(evs, EventText) > indexOf(evs, EventUsage) {
		t.Errorf("events out of the agent's order: %v", types(evs))
	}
	last := evs[len(evs)-1]
	if last.Type() != EventDone || last.Payload.(Done).StopReason != "end_turn" || last.SessionID != res.SessionID {
		t.Errorf("last event = %+v", last)
	}
	for _, ev := range evs {
		if ev.Type() != EventSession && ev.SessionID != res.SessionID {
			t.Errorf("%s event for session %q", ev.Type(), ev.SessionID)
		}
	}
	// What we told the agent about ourselves.
	params := map[string]string{}
	for _, c := range ag.Calls() {
		params[c.Method] = string(c.Params)
	}
	if got := params["initialize"]; got != `{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":false,"writeTextFile":false},"terminal":false},"clientInfo":{"name":"cdxtheme","version":"1.2.3"}}` {
		t.Errorf("initialize params = %s", got)
	}
	if got := params["session/new"]; got != `{"cwd":`+strconv.Quote(cwd)+`,"mcpServers":[]}` {
		t.Errorf("session/new params = %s", got)
	}
}

func TestLargeAndManyUpdates(t *testing.T) {
	tests := []struct {
		name   string
		prompt string
		chunks int
		size   int
	}{
		{"one 20 MiB frame", "#big-frame", 1, 20 << 20},
		{"burst of 100000 chunks", "#burst", 100000, 100000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, hopts{})
			n, size := 0, 0
			ordered := true
			res, err := h.e.Run(context.Background(), Turn{Cwd: h.cwd, Prompt: prompt.Text(tc.prompt)}, func(ev Event) {
				if ev.Type() == EventText {
					n++
					size += len(ev.Payload.(TextChunk).Text)
					if strings.Trim(ev.Payload.(TextChunk).Text, "x") != "" {
						ordered = false
					}
				}
				if ev.Type() == EventDone && n != tc.chunks {
					ordered = false // done overtook text
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if n != tc.chunks || size != tc.size || res.StopReason != "end_turn" || !ordered {
				t.Fatalf("got %d chunks, %d bytes (stop %q), ordered %v", n, size, res.StopReason, ordered)
			}
		})
	}
}

func TestPermissionRequestIDs(t *testing.T) {
	tests := []struct {
		name     string
		prompt   string
		decider  permission.Decider
		wantText string
		wantIDs  []string
	}{
		// The request ids as agents write them on the wire (codex-acp's
		// numbers from 0, the Rust adapter's UUID strings). What is
		// answered, by kind, is TestPermissionAnswers (stub_test.go).
		{"ids 0 and uuid", "#ids", permission.Policy("allow"), "Permission outcomes: allow_once, allow_once", []string{"0", "uuid"}},
		{"permission before its tool call", "#permission-first", permission.Policy("allow"), "Permission outcome: allow_once", []string{"uuid"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, hopts{})
			evs, res, err := h.run(context.Background(), Turn{Prompt: prompt.Text(tc.prompt), Decider: tc.decider})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(res.Text, tc.wantText) {
				t.Fatalf("text = %q, want suffix %q", res.Text, tc.wantText)
			}
			var ids []string
			for i, ev := range evs {
				if ev.Type() != EventPermission {
					continue
				}
				p := ev.Payload.(PermissionAsked).Permission
				if len(p.Options) == 0 || p.ToolCall == nil || p.ToolCall.ToolCallID == "" {
					t.Errorf("permission event without options or tool call: %+v", p)
				}
				id := p.RequestID
				if strings.HasPrefix(id, `"`) && len(id) > 10 {
					id = "uuid"
				}
				ids = append(ids, id)
				// The UI must get the tool call in arrival order: the
				// permission-first agent asks before announcing it.
				tc2 := p.ToolCall
				seen := false
				for _, prev := range evs[:i] {
					if prev.Type() == EventToolCall && prev.Payload.(ToolCallStarted).ToolCall.ToolCallID == tc2.ToolCallID {
						seen = true
					}
				}
				if seen == strings.Contains(tc.prompt, "first") {
					t.Errorf("tool call %s announced before permission: %v (permission-first agent: %v)", tc2.ToolCallID, seen, strings.Contains(tc.prompt, "first"))
				}
			}
			if strings.Join(ids, ",") != strings.Join(tc.wantIDs, ",") {
				t.Fatalf("permission request ids = %v, want %v", ids, tc.wantIDs)
			}
		})
	}
}

func TestGarbageLineWarnsOnce(t *testing.T) {
	h := newHarness(t, hopts{})
	evs, res, err := h.run(context.Background(), Turn{Prompt: prompt.Text("#garbage")})
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	for _, ev := range evs {
		if ev.Type() == EventWarning {
			warnings = append(warnings, ev.Payload.(Warning).Text)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "this is not JSON") {
		t.Fatalf("warnings = %q", warnings)
	}
	if res.Text != "Before the garbage. After the garbage." || res.StopReason != "end_turn" {
		t.Fatalf("result = %+v", res)
	}
}

// hangLimit is the hang case's --timeout: long enough for the agent to
// start, open a session and say it hangs before it. A new process starts
// far slower on Windows (an .exe is scanned before it runs; under Wine the
// fake agent took over a second to reach its first answer on a loaded
// machine), so the limit is longer there.
var hangLimit = map[bool]time.Duration{false: time.Second, true: 5 * time.Second}[runtime.GOOS == "windows"]

func TestAgentFailures(t *testing.T) {
	tests := []struct {
		name       string
		scenario   string
		prompt     string
		timeout    time.Duration
		wantCode   string
		wantText   string
		wantStderr string
		wantMsg    string
	}{
		{"crash mid-stream keeps text and quotes stderr", "", "#crash", 0, CodeAgentExit, "Starting work... almost there ", "fatal: simulated crash", "exit status 3"},
		{"exit before initialize", "exit-early", "hi", 0, CodeAgentExit, "", "simulated startup failure", "before answering initialize"},
		{"hang ends by timeout, quotes stderr, kills the group", "", "#hang", hangLimit, CodeTimeout, "Hanging (grandchild pid", "fakeagent: hanging", "longer than " + hangLimit.String()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, hopts{scenario: tc.scenario, timeout: tc.timeout})
			evs, res, err := h.run(context.Background(), Turn{Prompt: prompt.Text(tc.prompt)})
			var ce *Error
			if !errors.As(err, &ce) || ce.Code != tc.wantCode {
				t.Fatalf("err = %v, want code %s", err, tc.wantCode)
			}
			if !strings.HasPrefix(res.Text, tc.wantText) {
				t.Errorf("text kept = %q, want prefix %q", res.Text, tc.wantText)
			}
			if !strings.Contains(err.Error(), tc.wantMsg) || !strings.Contains(err.Error(), "fakeagent") {
				t.Errorf("message %q lacks %q or the agent command", err.Error(), tc.wantMsg)
			}
			if tc.wantStderr != "" && (!strings.Contains(strings.Join(ce.Stderr, "\n"), tc.wantStderr) || !strings.Contains(err.Error(), tc.wantStderr)) {
				t.Errorf("stderr %q / message %q lack %q", ce.Stderr, err.Error(), tc.wantStderr)
			}
			last := evs[len(evs)-1]
			if last.Type() != EventError || last.Payload.(ErrorEvent).Code != tc.wantCode || last.Payload.(ErrorEvent).Agent == "" {
				t.Errorf("last event = %+v", last)
			}
			if len(h.spawned()) != 1 {
				t.Fatalf("spawned %d agents", len(h.spawned()))
			}
			if tc.wantCode == CodeTimeout && count(h.methods(), "session/cancel") != 1 {
				t.Errorf("timeout did not send session/cancel first: %v", h.methods())
			}
			if n := groupMembers(h.spawned()[0]); n != 0 {
				t.Fatalf("%d processes of the agent group survived the turn", n)
			}
		})
	}
}

// An agent that never answers initialize gets the whole --timeout: the
// deadline initialize waits on is the user's (not one shortened by the
// prompt's cancel grace), the error comes after it and names it.
func TestStartupGetsTheWholeTimeout(t *testing.T) {
	const limit = time.Second
	h := newHarness(t, hopts{scenario: "silent-start", timeout: limit})
	var deadline, called time.Time
	h.e.initializing = func(ctx context.Context) {
		deadline, _ = ctx.Deadline()
		called = time.Now()
	}
	var errAt time.Time
	before := time.Now()
	_, err := h.e.Run(context.Background(), Turn{Cwd: h.cwd, Prompt: prompt.Text("hi")}, func(ev Event) {
		if ev.Type() == EventError {
			errAt = time.Now()
		}
	})
	ce, ok := errors.AsType[*Error](err)
	if !ok || ce.Code != CodeTimeout || !strings.Contains(ce.Message, "took longer than 1s") {
		t.Fatalf("err = %v, want a timeout naming 1s", err)
	}
	// The clock started within Run, before initialize was sent.
	if start := deadline.Add(-limit); start.Before(before) || start.After(called) {
		t.Errorf("initialize waited until %v: the budget began %v before Run", deadline, before.Sub(start))
	}
	if errAt.IsZero() || errAt.Before(deadline) {
		t.Errorf("the error came %v before the deadline", deadline.Sub(errAt))
	}
	if m := h.methods(); !slices.Equal(m, []string{"initialize"}) {
		t.Errorf("methods = %v, want initialize only", m)
	}
}

func TestCancelMidStream(t *testing.T) {
	h := newHarness(t, hopts{warm: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var evs []Event
	res, err := h.e.Run(ctx, Turn{Cwd: h.cwd, Prompt: prompt.Text("#slow")}, func(ev Event) {
		evs = append(evs, ev)
		if ev.Type() == EventText {
			cancel() // the user hits Stop once the answer streams
		}
	})
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != CodeCancelled {
		t.Fatalf("err = %v, want cancelled", err)
	}
	last := evs[len(evs)-1]
	if last.Type() != EventDone || last.Payload.(Done).StopReason != "cancelled" || res.StopReason != "cancelled" {
		t.Fatalf("last event = %+v, result %+v", last, res)
	}
	if texts(evs, EventText) == "" {
		t.Fatal("the text streamed before Stop was not passed on")
	}
	if count(h.methods(), "session/cancel") != 1 {
		t.Fatalf("agent got %v", h.methods())
	}
	if n := groupMembers(h.spawned()[0]); n != 0 {
		t.Fatalf("cancelled turn left %d processes", n)
	}
}

func TestCancelledBeforeStartSpawnsNothing(t *testing.T) {
	ag := acpstub.New()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var evs []Event
	res, err := stubEngine(t, ag, Options{}).Run(ctx, Turn{Cwd: t.TempDir(), Prompt: prompt.Text("hi")}, func(ev Event) { evs = append(evs, ev) })
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != CodeCancelled || res.StopReason != "cancelled" || len(evs) != 1 || ag.Started() != 0 {
		t.Fatalf("err %v, result %+v, events %v, started %d", err, res, types(evs), ag.Started())
	}
}

// The user closes the chat while a permission dialog is open: the agent's
// request is answered cancelled and the turn ends as cancelled, even when
// the decider never returns.
func TestCancelAnswersOpenPermission(t *testing.T) {
	got := make(chan string, 1)
	ag := acpstub.New()
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		turn.Update(editCall)
		got <- string(turn.Ask(`{"toolCallId":"c1"}`, askOptions))
		return "cancelled"
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	never := make(chan struct{})
	t.Cleanup(func() { close(never) })
	blocked := permission.DeciderFunc(func(context.Context, string, permission.Permission) (string, error) {
		cancel() // the user closes the chat while the dialog is open
		<-never  // and this decider ignores its context
		return "", nil
	})
	var evs []Event
	_, err := stubEngine(t, ag, Options{}).Run(ctx, Turn{Cwd: t.TempDir(), Prompt: prompt.Text("edit it"), Decider: blocked}, func(ev Event) { evs = append(evs, ev) })
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != CodeCancelled {
		t.Fatalf("err = %v", err)
	}
	if o := <-got; o != `{"outcome":"cancelled"}` {
		t.Fatalf("the open permission request was answered %s, not cancelled", o)
	}
}

// signedOut is an agent that wants a sign-in (api-key) before it opens a
// session, as codex-acp without credentials.
func signedOut() *acpstub.Agent {
	ag := acpstub.New()
	var signedIn atomic.Bool
	ag.Handle("initialize", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"auth":{"logout":{}}},` +
			`"authMethods":[{"id":"api-key","name":"API Key"},{"id":"chat-gpt","name":"ChatGPT"}]}`), nil
	})
	ag.Handle("authenticate", func(c *acpstub.Call) (any, error) {
		var p struct{ MethodID string }
		json.Unmarshal(c.Params, &p)
		if p.MethodID != "api-key" && p.MethodID != "chat-gpt" {
			return nil, &acpstub.Error{Code: -32602, Message: "unknown auth method " + p.MethodID}
		}
		signedIn.Store(true)
		return struct{}{}, nil
	})
	ag.Handle("logout", func(*acpstub.Call) (any, error) {
		signedIn.Store(false)
		return struct{}{}, nil
	})
	ag.Handle("session/new", func(*acpstub.Call) (any, error) {
		if !signedIn.Load() {
			return nil, &acpstub.Error{Code: -32000, Message: "Authentication required"}
		}
		return map[string]string{"sessionId": "s-1"}, nil
	})
	return ag
}

func TestAuthThenRetry(t *testing.T) {
	for _, warm := range []bool{true, false} {
		t.Run("warm="+strconv.FormatBool(warm), func(t *testing.T) {
			ag := signedOut()
			e := stubEngine(t, ag, Options{Warm: warm})
			cwd := t.TempDir()
			evs, _, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("hi")})
			var ce *Error
			if !errors.As(err, &ce) || ce.Code != CodeAuth {
				t.Fatalf("err = %v, want auth", err)
			}
			i := indexOf(evs, EventAuthRequired)
			if i < 0 || !slices.ContainsFunc(evs[i].Payload.(AuthRequired).AuthMethods, func(m acp.AuthMethod) bool { return m.ID == "api-key" }) {
				t.Fatalf("auth_required event missing or without methods: %v", types(evs))
			}
			if err := e.Authenticate(context.Background(), cwd, "api-key"); err != nil {
				t.Fatal(err)
			}
			_, res, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("hi again")})
			if err != nil || res.StopReason != "end_turn" {
				t.Fatalf("retry: %v %+v", err, res)
			}
			wantStarts := 2 // failed turn, then authenticate's connection reused by the retry
			if warm {
				wantStarts = 1
			}
			if got := ag.Started(); got != wantStarts {
				t.Fatalf("started %d agents, want %d", got, wantStarts)
			}
		})
	}
}

func TestAuthenticateUnknownMethod(t *testing.T) {
	err := stubEngine(t, signedOut(), Options{}).Authenticate(context.Background(), t.TempDir(), "carrier-pigeon")
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != CodeAuth {
		t.Fatalf("err = %v", err)
	}
}

func TestFollowUpTurns(t *testing.T) {
	// How the warm agent dies, if it does: stopped between the turns (the
	// next turn finds it dead and never uses it), or alive when the turn
	// takes it and gone at the turn's prompt (the turn fails on its first
	// call and starts over without the user seeing it).
	const (
		lives = iota
		killedBetween
		diesAtPrompt
	)
	tests := []struct {
		name       string
		warm       bool
		death      int
		wantStarts int
		wantInit   int
		wantResume int
	}{
		{"warm connection reused", true, lives, 1, 1, 0},
		{"cold follow-up resumes", false, lives, 2, 2, 1},
		{"dead warm connection falls back", true, killedBetween, 2, 2, 1},
		{"warm connection dying as the turn starts falls back", true, diesAtPrompt, 2, 2, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ag := acpstub.New()
			ag.Handle("initialize", func(*acpstub.Call) (any, error) { return json.RawMessage(withResume), nil })
			var died atomic.Bool
			ag.OnPrompt(func(turn *acpstub.Turn) string {
				if tc.death == diesAtPrompt && turn.Text() == "second" && !died.Swap(true) {
					turn.Exit() // before a word of the answer
					return "end_turn"
				}
				return echo(turn)
			})
			e := stubEngine(t, ag, Options{Warm: tc.warm})
			cwd := t.TempDir()
			_, first, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("first")})
			if err != nil {
				t.Fatal(err)
			}
			if tc.death == killedBetween {
				ag.Last().Kill()
			}
			evs, second, err := runStub(t, e, Turn{Cwd: cwd, SessionID: first.SessionID, Prompt: prompt.Text("second")})
			if err != nil {
				t.Fatal(err)
			}
			if second.SessionID != first.SessionID || texts(evs, EventText) != "You said: second" {
				t.Fatalf("second turn = %+v, text %q", second, texts(evs, EventText))
			}
			m := ag.Methods()
			if ag.Started() != tc.wantStarts || count(m, "initialize") != tc.wantInit || count(m, "session/resume") != tc.wantResume || count(m, "session/load") != 0 {
				t.Fatalf("started %d, methods %v", ag.Started(), m)
			}
		})
	}
}

// offered is a session/new answer with a model and a reasoning effort,
// as codex-acp offers them: gpt-5.5 and medium current.
const offered = `{"sessionId":"s-1","configOptions":[` +
	`{"id":"model","name":"Model","category":"model","type":"select","currentValue":"gpt-5.5","options":[{"value":"gpt-5.5","name":"GPT-5.5"},{"value":"gpt-5.4","name":"gpt-5.4"},{"value":"gpt-5.4-mini","name":"GPT-5.4-Mini"},{"value":"gpt-5-pro","name":"GPT-5 Pro"}]},` +
	`{"id":"reasoning_effort","name":"Reasoning effort","category":"thought_level","type":"select","currentValue":"medium","options":[{"value":"medium","name":"Medium"},{"value":"high","name":"High"}]}]}`

// A turn's model and effort reach the agent by the options it offers (by
// category, by display name), only when they change something; a value
// the agent refuses, or does not offer, comes back with the reason.
func TestModelAndEffort(t *testing.T) {
	tests := []struct {
		name, model, effort string
		wantSets            []string
		wantRefused         string // the agent's reason, as the refusal event carries it
	}{
		{"both applied", "gpt-5.4", "high", []string{"model=gpt-5.4", "reasoning_effort=high"}, ""},
		{"already current is skipped", "gpt-5.5", "", nil, ""},
		{"a listed model the agent refuses comes with its reason", "gpt-5-pro", "", []string{"model=gpt-5-pro"}, `gpt-5-pro`},
		{"a model by its display name", "gpt-5.4-MINI", "", []string{"model=gpt-5.4-mini"}, ""},
		{"an unknown model is refused with what the agent offers", "gpt-0", "", nil, `"gpt-0" is none of the values the agent offers: gpt-5.5 (GPT-5.5), gpt-5.4, gpt-5.4-mini (GPT-5.4-Mini), gpt-5-pro (GPT-5 Pro)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ag := acpstub.New()
			ag.Handle("session/new", func(*acpstub.Call) (any, error) { return json.RawMessage(offered), nil })
			ag.Handle("session/set_config_option", func(c *acpstub.Call) (any, error) {
				if strings.Contains(string(c.Params), `"gpt-5-pro"`) {
					return nil, &acpstub.Error{Code: -32602, Message: "model gpt-5-pro is not available for this account"}
				}
				return struct{}{}, nil
			})
			evs, res, err := runStub(t, stubEngine(t, ag, Options{}), Turn{Model: tc.model, Effort: tc.effort, Prompt: prompt.Text("hi")})
			if err != nil || res.StopReason != "end_turn" {
				t.Fatalf("%v %+v", err, res)
			}
			var sets []string
			for _, s := range setCalls(ag) {
				sets = append(sets, strings.ReplaceAll(s, `"`, ""))
			}
			if strings.Join(sets, ",") != strings.Join(tc.wantSets, ",") {
				t.Fatalf("set_config_option calls = %v, want %v", sets, tc.wantSets)
			}
			if w := texts(evs, EventWarning); w != "" {
				t.Fatalf("warnings = %q", w)
			}
			why := texts(evs, EventRefused)
			if (tc.wantRefused == "") != (why == "") || !strings.Contains(why, tc.wantRefused) {
				t.Fatalf("refusal = %q, want %q", why, tc.wantRefused)
			}
			if tc.wantRefused != "" {
				var r *Refusal
				for _, ev := range evs {
					if ev.Type() == EventRefused {
						r = ev.Payload.(OptionRefused).Refused
					}
				}
				if r == nil || r.ConfigID != "model" || r.Value != tc.model || r.Current != "gpt-5.5" {
					t.Fatalf("refusal = %+v, want model %q refused, gpt-5.5 still current", r, tc.model)
				}
			}
		})
	}
}

// Every kind of prompt block reaches the agent as its own block, in order.
func TestPromptBlocksReachTheAgent(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("initialize", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"protocolVersion":1,"agentCapabilities":{"promptCapabilities":{"image":true,"audio":true,"embeddedContext":true}}}`), nil
	})
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		var kinds []string
		for _, raw := range turn.Prompt {
			var b struct{ Type string }
			json.Unmarshal(raw, &b)
			kinds = append(kinds, b.Type)
		}
		turn.Say("Blocks: " + strings.Join(kinds, ", "))
		return "end_turn"
	})
	cwd := t.TempDir()
	if err := os.WriteFile(filepath.Join(cwd, "theme.json"), []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	link, err := prompt.FileLink(cwd, "theme.json")
	if err != nil {
		t.Fatal(err)
	}
	prompt := append(prompt.Text("look"), prompt.ImageBlock([]byte{0x89, 'P', 'N', 'G'}, "image/png"),
		prompt.AudioBlock([]byte("RIFF"), "audio/wav"), prompt.ResourceBlock("file:///notes.txt", "text/plain", "notes"), link)
	evs, _, err := runStub(t, stubEngine(t, ag, Options{}), Turn{Cwd: cwd, Prompt: prompt})
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(evs, EventText); got != "Blocks: text, image, audio, resource, resource_link" {
		t.Fatalf("agent received %q", got)
	}
}

func TestBadTurnRejectedBeforeSending(t *testing.T) {
	ag := acpstub.New()
	e := stubEngine(t, ag, Options{})
	cwd := t.TempDir()
	outside := acp.ContentBlock{Type: acp.BlockResourceLink, URI: "file:///etc/passwd", Name: "passwd"}
	tests := []struct {
		name string
		turn Turn
	}{
		{"relative cwd", Turn{Cwd: "work", Prompt: prompt.Text("hi")}},
		{"link outside the workspace", Turn{Cwd: cwd, Prompt: append(prompt.Text("hi"), outside)}},
		{"empty prompt", Turn{Cwd: cwd}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runStub(t, e, tc.turn)
			var ce *Error
			if !errors.As(err, &ce) || ce.Code != CodeInput {
				t.Fatalf("err = %v, want input", err)
			}
		})
	}
	if m := ag.Methods(); count(m, "session/new") != 0 || count(m, "session/prompt") != 0 {
		t.Fatalf("agent got %v", m)
	}
}

// The agent changes its options mid-turn (config_option_update): the page
// gets them, and the warm link tracks them, so a follow-up can set a model
// the session/new answer did not offer.
func TestConfigOptionUpdates(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("session/new", func(*acpstub.Call) (any, error) {
		return json.RawMessage(`{"sessionId":"s-1","configOptions":[{"id":"model","name":"Model","category":"model","type":"select","currentValue":"gpt-5.5","options":[{"value":"gpt-5.5","name":"GPT-5.5"}]}]}`), nil
	})
	first := true
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		if first {
			first = false
			turn.Update(`{"sessionUpdate":"config_option_update","configOptions":[{"id":"model","name":"Model","category":"model","type":"select","currentValue":"gpt-5.5","options":[{"value":"gpt-5.5","name":"GPT-5.5"},{"value":"gpt-5.4-mini","name":"GPT-5.4 mini"}]},` +
				strings.TrimPrefix(themeOptions, "[") + `}`)
		}
		return "end_turn"
	})
	e := stubEngine(t, ag, Options{Warm: true})
	cwd := t.TempDir()
	evs, _, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	i := indexOf(evs, EventConfigOptions)
	if i < 0 {
		t.Fatalf("no config_options event: %v", types(evs))
	}
	u := acp.ConfigOptionUpdate{ConfigOptions: evs[i].Payload.(ConfigOptionsUpdate).ConfigOptions}
	family, ok := acp.FindConfigOption(u.ConfigOptions, "", "palette_family")
	fast, ok2 := acp.FindConfigOption(u.ConfigOptions, acp.CategoryModelConfig, "")
	if !ok || len(family.Groups) != 2 || !family.HasValue("paper") || !ok2 || fast.Type != "boolean" {
		t.Fatalf("options = %+v", u.ConfigOptions)
	}
	// The warm link tracks the update: a follow-up sets the model by it.
	_, _, err = runStub(t, e, Turn{Cwd: cwd, SessionID: evs[i].SessionID, Model: "gpt-5.4-mini", Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	if ag.Started() != 1 {
		t.Fatalf("started %d agents", ag.Started())
	}
	if got := strings.Join(setCalls(ag), " "); got != `model="gpt-5.4-mini"` {
		t.Fatalf("set calls %s: the model was not set on the warm session", got)
	}
}

func TestStderrFloodDoesNotStall(t *testing.T) {
	h := newHarness(t, hopts{env: []string{"FAKE_AGENT_STDERR_BYTES=20000000"}})
	_, res, err := h.run(context.Background(), Turn{Prompt: prompt.Text("#stderr-flood hi")})
	if err != nil || !strings.HasPrefix(res.Text, "You said: #stderr-flood hi") {
		t.Fatalf("%v %+v", err, res)
	}
}

// An "always" answer is remembered in Go: the next request of that tool
// kind in the session is answered without asking, and the UI is told so
// (permission_answered, Remembered) instead of being asked.
// A request that names only its tool call's id is of the kind the call was
// announced with: "always" for a command is not "always" for an edit, and
// is still remembered for the next command.
// The request itself names no kind: "always" takes the kind of the tool
// call the agent announced, so an edit after an always-allowed command is
// asked, and a second command is not.
func TestAlwaysTakesTheKindOfTheAnnouncedToolCall(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		var got []string
		for i, kind := range []string{"execute", "edit", "execute"} {
			id := "call_kinds_" + strconv.Itoa(i)
			turn.Update(`{"sessionUpdate":"tool_call","toolCallId":"` + id + `","kind":"` + kind + `","title":"step","status":"pending"}`)
			got = append(got, string(turn.Ask(`{"toolCallId":"`+id+`","title":"step"}`, askOptions)))
		}
		turn.Say(strings.Join(got, " "))
		return "end_turn"
	})
	var asked []string
	d := permission.DeciderFunc(func(_ context.Context, _ string, p permission.Permission) (string, error) {
		asked = append(asked, p.ToolCall.ToolCallID)
		return permission.ChooseByKind(p.Options, acp.KindAllowAlways), nil
	})
	evs, _, err := runStub(t, stubEngine(t, ag, Options{}), Turn{Prompt: prompt.Text("go"), Decider: d, Always: &permission.Always{}})
	if err != nil {
		t.Fatal(err)
	}
	always := `{"outcome":"selected","optionId":"trust-forever"}`
	if strings.Join(asked, ",") != "call_kinds_0,call_kinds_1" || texts(evs, EventText) != always+" "+always+" "+always {
		t.Fatalf("asked for %v, text %q; want the command and the edit asked, the second command remembered", asked, texts(evs, EventText))
	}
}

// gemini-cli streams the replay from a task it does not await, so its tail
// keeps coming after the load response with nothing asked in between: the
// follow-up's prompt waits for it, and the output is the follow-up's alone.
func TestReplayStreamedAfterTheLoadResponseIsNotOutput(t *testing.T) {
	h := newHarness(t, hopts{env: []string{"FAKE_AGENT_LATE_REPLAY=paced"}})
	_, first, err := h.run(context.Background(), Turn{Prompt: prompt.Text("turn one")})
	if err != nil {
		t.Fatal(err)
	}
	_, mid, err := h.run(context.Background(), Turn{SessionID: first.SessionID, Prompt: prompt.Text("turn two")})
	if err != nil {
		t.Fatal(err)
	}
	evs, third, err := h.run(context.Background(), Turn{SessionID: mid.SessionID, Prompt: prompt.Text("turn three")})
	if err != nil {
		t.Fatal(err)
	}
	if count(h.methods(), "session/load") != 2 {
		t.Fatalf("the follow-ups did not load: %v", h.methods())
	}
	if got := texts(evs, EventText); got != "You said: turn three\nHello from the fake agent." {
		t.Fatalf("the follow-up's output is %q: the replay streamed after the load response leaked into it", got)
	}
	_ = third
}
