package chat

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cdxtheme/core/prompt"
	"cdxtheme/internal/testrig/acpstub"
	"cdxtheme/internal/testrig/syncbuf"

	"github.com/rs/zerolog"
)

// The pre-warm's logic runs against the in-process peer; the tests that
// count what is left of an agent's process group (cancel while warming,
// Release, Close) stay on the subprocess fake agent, at the end.

// warmSlot reports the warm slot's link and its status (nil when empty).
func warmSlot(e *Engine) (*link, linkStatus) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.warm == nil {
		return nil, linkClosing
	}
	return e.warm, e.warm.status
}

// waitReady waits until the warm slot holds a ready link.
func waitReady(t *testing.T, e *Engine) *link {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if l, st := warmSlot(e); l != nil && st == linkReady {
			return l
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the pre-warmed link never became ready")
	return nil
}

// waitEmpty waits until the warm slot is empty.
func waitEmpty(t *testing.T, e *Engine, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if l, _ := warmSlot(e); l == nil {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("the warm slot still holds a link after %s", within)
}

// waitBusy waits until n links are owned by turns.
func waitBusy(t *testing.T, e *Engine, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		e.mu.Lock()
		busy := len(e.busy)
		e.mu.Unlock()
		if busy == n {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("%d links never became busy", n)
}

// waitStopped waits until the engine let go of every agent it dialled.
func waitStopped(t *testing.T, ag *acpstub.Agent) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for ag.Live() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d agents still connected", ag.Live())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (h *harness) slot() (*link, linkStatus)      { return warmSlot(h.e) }
func (h *harness) waitReady() *link               { return waitReady(h.t, h.e) }
func (h *harness) waitEmpty(within time.Duration) { waitEmpty(h.t, h.e, within) }

// echo is an agent turn that answers with the prompt's text.
func echo(turn *acpstub.Turn) string {
	turn.Say("You said: " + turn.Text())
	return "end_turn"
}

// withResume is initialize's answer of an agent that can resume and list
// sessions, as codex-acp's.
const withResume = `{"protocolVersion":1,"agentCapabilities":{"loadSession":true,"sessionCapabilities":{"resume":{},"list":{}}},"authMethods":[]}`

// modelOption is a session's model option, gpt-5.5 current.
const modelOption = `{"id":"model","name":"Model","category":"model","type":"select","currentValue":"gpt-5.5","options":[{"value":"gpt-5.5","name":"GPT-5.5"},{"value":"gpt-5.4","name":"GPT-5.4"}]}`

func TestPrewarmedNewBuildFirstTurn(t *testing.T) {
	script := func() *acpstub.Agent {
		ag := acpstub.New()
		ag.Handle("session/new", func(c *acpstub.Call) (any, error) {
			c.UpdateAfter("s-1", `{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"review","description":"Review"}]}`)
			return json.RawMessage(`{"sessionId":"s-1","configOptions":[` + modelOption + `]}`), nil
		})
		ag.OnPrompt(echo)
		return ag
	}
	cold := stubEngine(t, script(), Options{Warm: true})
	coldEvs, _, err := runStub(t, cold, Turn{Model: "gpt-5.4", Prompt: prompt.Text("make it teal")})
	if err != nil {
		t.Fatal(err)
	}

	ag := script()
	e := stubEngine(t, ag, Options{Warm: true})
	cwd := t.TempDir()
	if !e.Prewarm(Turn{Cwd: cwd}) {
		t.Fatal("Prewarm started nothing")
	}
	waitReady(t, e)
	if !e.Warm(Turn{Cwd: cwd}) || e.Warm(Turn{Cwd: t.TempDir()}) {
		t.Fatal("Warm does not tell the pre-warmed build's folder from another")
	}
	// Before anything was typed, the agent is up with a session in the
	// build's folder.
	if got := strings.Join(ag.Methods(), ","); got != "initialize,session/new" {
		t.Fatalf("before the first prompt the agent got %s", got)
	}
	if e.Prewarm(Turn{Cwd: cwd}) {
		t.Fatal("a second Prewarm for the same build started another agent")
	}
	evs, res, err := runStub(t, e, Turn{Cwd: cwd, Model: "gpt-5.4", Prompt: prompt.Text("make it teal")})
	if err != nil || texts(evs, EventText) != "You said: make it teal" {
		t.Fatalf("%v %+v", err, res)
	}
	m := ag.Methods()
	if ag.Started() != 1 || count(m, "initialize") != 1 || count(m, "session/new") != 1 || count(m, "session/set_config_option") != 1 {
		t.Fatalf("started %d, agent got %v", ag.Started(), m)
	}
	// The UI sees what it sees on a cold first turn: the session with its
	// settings, the commands, the agent's capabilities, then the answer.
	want := map[string]bool{}
	for _, ev := range coldEvs {
		want[ev.Type()] = true
	}
	got := map[string]bool{}
	for _, ev := range evs {
		got[ev.Type()] = true
	}
	for typ := range want {
		if !got[typ] {
			t.Errorf("the pre-warmed turn has no %s event (cold: %v, pre-warmed: %v)", typ, types(coldEvs), types(evs))
		}
	}
	if s := evs[indexOf(evs, EventSession)]; s.SessionID != res.SessionID || s.Payload.(SessionSetup).Setup == nil || len(s.Payload.(SessionSetup).Setup.ConfigOptions) == 0 {
		t.Errorf("session event = %+v", s)
	}
	if indexOf(evs, EventSession) > indexOf(evs, EventText) || indexOf(evs, EventCommands) < 0 {
		t.Errorf("event order: %v", types(evs))
	}
	// Used, it is the chat's warm link now: a follow-up reuses it.
	if _, _, err := runStub(t, e, Turn{Cwd: cwd, SessionID: res.SessionID, Prompt: prompt.Text("again")}); err != nil {
		t.Fatal(err)
	}
	if ag.Started() != 1 {
		t.Fatalf("follow-up started %d agents", ag.Started())
	}
}

func TestPrewarmedExistingChat(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("initialize", func(*acpstub.Call) (any, error) { return json.RawMessage(withResume), nil })
	ag.Handle("session/resume", func(*acpstub.Call) (any, error) { return struct{}{}, nil }) // no history replayed
	ag.OnPrompt(echo)
	e := stubEngine(t, ag, Options{})
	cwd := t.TempDir()
	_, first, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("first")})
	if err != nil {
		t.Fatal(err)
	}
	e.opts.Warm = true
	before := len(ag.Methods())
	if !e.Prewarm(Turn{Cwd: cwd, SessionID: first.SessionID}) {
		t.Fatal("Prewarm started nothing")
	}
	waitReady(t, e)
	if got := strings.Join(ag.Methods()[before:], ","); got != "initialize,session/resume" {
		t.Fatalf("the chat's pre-warm sent %s", got)
	}
	if !e.Warm(Turn{Cwd: cwd, SessionID: first.SessionID}) {
		t.Fatal("Warm does not report the pre-warmed session")
	}
	evs, second, err := runStub(t, e, Turn{Cwd: cwd, SessionID: first.SessionID, Prompt: prompt.Text("second")})
	if err != nil || second.SessionID != first.SessionID || texts(evs, EventText) != "You said: second" {
		t.Fatalf("%v %+v", err, second)
	}
	m := ag.Methods()[before:]
	if ag.Started() != 2 || count(m, "initialize") != 1 || count(m, "session/resume") != 1 {
		t.Fatalf("started %d, agent got %v", ag.Started(), m)
	}
}

func TestTurnWaitsForAPrewarmUnderWay(t *testing.T) {
	ag := acpstub.New()
	starting := make(chan struct{})
	ag.Handle("initialize", func(c *acpstub.Call) (any, error) {
		<-starting // still starting when the user sends
		return json.RawMessage(withResume), nil
	})
	ag.OnPrompt(echo)
	e := stubEngine(t, ag, Options{Warm: true})
	cwd := t.TempDir()
	e.Prewarm(Turn{Cwd: cwd})
	if _, st := warmSlot(e); st != linkPreparing {
		t.Fatalf("status right after Prewarm = %v", st)
	}
	// The user sends at once: the turn takes the starting agent.
	type ran struct {
		evs []Event
		err error
	}
	done := make(chan ran)
	go func() {
		var evs []Event
		_, err := e.Run(context.Background(), Turn{Cwd: cwd, Prompt: prompt.Text("quick")}, func(ev Event) { evs = append(evs, ev) })
		done <- ran{evs, err}
	}()
	waitBusy(t, e, 1)
	if l, _ := warmSlot(e); l != nil {
		t.Fatal("the turn did not take the pre-warm still starting")
	}
	close(starting)
	r := <-done
	if r.err != nil || texts(r.evs, EventText) != "You said: quick" {
		t.Fatalf("%v %v", r.err, types(r.evs))
	}
	if m := ag.Methods(); ag.Started() != 1 || count(m, "initialize") != 1 || count(m, "session/new") != 1 {
		t.Fatalf("started %d, agent got %v", ag.Started(), m)
	}
}

func TestUnusedPrewarmIdlesOut(t *testing.T) {
	ag := acpstub.New()
	e := stubEngine(t, ag, Options{Warm: true, PrewarmIdle: 300 * time.Millisecond})
	cwd := t.TempDir()
	e.Prewarm(Turn{Cwd: cwd})
	waitReady(t, e)
	waitEmpty(t, e, 10*time.Second)
	waitStopped(t, ag)
	// The next turn simply starts its own agent.
	if _, _, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("late")}); err != nil {
		t.Fatal(err)
	}
	if ag.Started() != 2 {
		t.Fatalf("started %d agents", ag.Started())
	}
}

func TestPrewarmLentToAListStillIdlesOut(t *testing.T) {
	ag := acpstub.New()
	ag.Handle("initialize", func(*acpstub.Call) (any, error) { return json.RawMessage(withResume), nil })
	ag.Handle("session/list", func(*acpstub.Call) (any, error) { return json.RawMessage(`{"sessions":[]}`), nil })
	e := stubEngine(t, ag, Options{Warm: true, PrewarmIdle: 400 * time.Millisecond})
	cwd := t.TempDir()
	e.Prewarm(Turn{Cwd: cwd})
	waitReady(t, e)
	if _, ok, err := e.ListSessions(context.Background(), cwd); err != nil || !ok {
		t.Fatalf("list: %v %v", ok, err)
	}
	if ag.Started() != 1 || count(ag.Methods(), "session/list") != 1 {
		t.Fatalf("the list did not use the pre-warmed agent: %d started, %v", ag.Started(), ag.Methods())
	}
	waitEmpty(t, e, 10*time.Second)
}

func TestUsedPrewarmDoesNotIdleOut(t *testing.T) {
	ag := acpstub.New()
	e := stubEngine(t, ag, Options{Warm: true, PrewarmIdle: 300 * time.Millisecond})
	cwd := t.TempDir()
	e.Prewarm(Turn{Cwd: cwd})
	waitReady(t, e)
	_, res, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	// The pre-warm's idle timer may still fire (Stop loses a race with a
	// timer already due): fire its expiry now, as the timer would.
	l, _ := warmSlot(e)
	if l == nil {
		t.Fatal("no warm link after the turn")
	}
	e.expire(l)
	if !e.Warm(Turn{Cwd: cwd, SessionID: res.SessionID}) {
		t.Fatal("the chat's warm link was stopped as if it were an unused pre-warm")
	}
	e.Release(cwd, "")
	if !e.Warm(Turn{Cwd: cwd, SessionID: res.SessionID}) {
		t.Fatal("Release stopped the chat's warm link")
	}
}

func TestFailedPrewarmReportsOnlyOnSend(t *testing.T) {
	t.Run("the agent keeps failing", func(t *testing.T) {
		ag := acpstub.New()
		ag.Handle("initialize", func(c *acpstub.Call) (any, error) {
			c.Exit("simulated startup failure")
			return nil, nil
		})
		var log syncbuf.Buffer
		e := stubEngine(t, ag, Options{Warm: true, Log: zerolog.New(&log)})
		cwd := t.TempDir()
		e.Prewarm(Turn{Cwd: cwd})
		waitEmpty(t, e, 10*time.Second) // failed, quietly: only the log says why
		if l := log.String(); !strings.Contains(l, "pre-warm failed") || !strings.Contains(l, "simulated startup failure") {
			t.Fatalf("the log does not say why the pre-warm failed: %s", l)
		}
		evs, _, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("hi")})
		var ce *Error
		if !errors.As(err, &ce) || ce.Code != CodeAgentExit || !strings.Contains(err.Error(), "simulated startup failure") {
			t.Fatalf("err = %v", err)
		}
		if n := ag.Started(); n != 2 {
			t.Fatalf("started %d agents: the turn must try again itself", n)
		}
		errs := 0
		for _, ev := range evs {
			if ev.Type() == EventError {
				errs++
			}
		}
		if errs != 1 {
			t.Fatalf("%d error events: %v", errs, types(evs))
		}
	})
	t.Run("only the pre-warm failed", func(t *testing.T) {
		ag := acpstub.New()
		var failed atomic.Bool
		ag.Handle("initialize", func(c *acpstub.Call) (any, error) {
			if !failed.Swap(true) {
				c.Exit("simulated startup failure")
				return nil, nil
			}
			return json.RawMessage(withResume), nil
		})
		e := stubEngine(t, ag, Options{Warm: true})
		cwd := t.TempDir()
		e.Prewarm(Turn{Cwd: cwd})
		waitEmpty(t, e, 10*time.Second)
		evs, res, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("hi")})
		if err != nil || res.StopReason != "end_turn" {
			t.Fatalf("%v %+v", err, res)
		}
		for _, ev := range evs {
			if ev.Type() == EventError || ev.Type() == EventWarning {
				t.Fatalf("the pre-warm's failure reached the turn: %+v", ev)
			}
		}
	})
}

func TestPrewarmForAnotherChatReplacesTheWarmLink(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		if turn.Text() == "slow" {
			<-turn.Cancelled()
			return "cancelled"
		}
		return "end_turn"
	})
	e := stubEngine(t, ag, Options{Warm: true})
	cwd := t.TempDir()
	_, res, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	first := ag.Last()
	other := t.TempDir()
	e.Prewarm(Turn{Cwd: other})
	waitReady(t, e)
	if e.Warm(Turn{Cwd: cwd, SessionID: res.SessionID}) {
		t.Fatal("two warm agents at once")
	}
	select {
	case <-first.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the replaced warm agent was never stopped")
	}
	// A Prewarm for a chat whose turn is running starts nothing.
	_, o, err := runStub(t, e, Turn{Cwd: other, Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.Run(ctx, Turn{Cwd: other, SessionID: o.SessionID, Prompt: prompt.Text("slow")}, func(ev Event) {})
	}()
	waitBusy(t, e, 1)
	if e.Prewarm(Turn{Cwd: other, SessionID: o.SessionID}) {
		t.Fatal("Prewarm started a second agent for the chat whose turn is running")
	}
	cancel()
	<-done
}

func TestPrewarmNeedsWarmLinks(t *testing.T) {
	ag := acpstub.New()
	e := stubEngine(t, ag, Options{})
	if e.Prewarm(Turn{Cwd: t.TempDir()}) || ag.Started() != 0 {
		t.Fatal("an engine that keeps no warm links pre-warmed")
	}
}

func TestPrewarmWithOtherMCPServersIsNotUsed(t *testing.T) {
	ag := acpstub.New()
	e := stubEngine(t, ag, Options{Warm: true})
	cwd := t.TempDir()
	e.Prewarm(Turn{Cwd: cwd})
	waitReady(t, e)
	// The user added an MCP server after the view opened: the session must
	// get it, so the pre-warmed one (without it) is not used.
	stdio := json.RawMessage(`{"name":"palette","command":"/usr/bin/palette-mcp","args":[],"env":[]}`)
	if _, _, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("hi"), MCPServers: []json.RawMessage{stdio}}); err != nil {
		t.Fatal(err)
	}
	var sent []string
	for _, p := range ag.Params("session/new") {
		var n struct {
			MCPServers json.RawMessage `json:"mcpServers"`
		}
		json.Unmarshal(p, &n)
		sent = append(sent, string(n.MCPServers))
	}
	if ag.Started() != 2 || len(sent) != 2 || sent[1] != "["+string(stdio)+"]" {
		t.Fatalf("started %d, session/new mcpServers %v", ag.Started(), sent)
	}
}

func TestLinkStatusAfterTurns(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		if turn.Text() == "crash" {
			turn.Say("Starting work...")
			turn.Exit()
		}
		return "end_turn"
	})
	e := stubEngine(t, ag, Options{Warm: true})
	cwd := t.TempDir()
	_, res, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	if l, st := warmSlot(e); l == nil || st != linkReady || l.session() != res.SessionID {
		t.Fatalf("after a good turn: %v %v", l, st)
	}
	// A turn the agent dies in stops the link.
	_, _, err = runStub(t, e, Turn{Cwd: cwd, SessionID: res.SessionID, Prompt: prompt.Text("crash")})
	if err == nil {
		t.Fatal("the crash went unnoticed")
	}
	if l, _ := warmSlot(e); l != nil {
		t.Fatalf("a dead agent's link stayed in the warm slot (%v)", l.status)
	}
	e.mu.Lock()
	busy := len(e.busy)
	e.mu.Unlock()
	if busy != 0 {
		t.Fatalf("%d links still marked busy", busy)
	}
}

// Kept on the subprocess fake agent: what is left of the agent's process
// group after a cancel, Release or Close.

func TestCancelWhileWaitingForAPrewarm(t *testing.T) {
	// The agent never answers initialize in this test's time: it is cancelled
	// while the turn waits for it.
	h := newHarness(t, hopts{warm: true, env: []string{"FAKE_AGENT_START_DELAY=1m"}})
	spawned, note := make(chan struct{}), h.e.spawned
	h.e.spawned = func(pid int) { note(pid); close(spawned) }
	h.e.Prewarm(Turn{Cwd: h.cwd})
	// The pre-warm's agent exists before the turn begins (a process can
	// take longer than the cancel below to start, under Wine).
	<-spawned
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, _, err := h.run(ctx, Turn{Prompt: prompt.Text("quick")})
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != CodeCancelled {
		t.Fatalf("err = %v, want cancelled", err)
	}
	if n := groupMembers(h.spawned()[0]); n != 0 {
		t.Fatalf("the abandoned pre-warm left %d processes", n)
	}
}

func TestReleaseStopsThePrewarm(t *testing.T) {
	for _, ready := range []bool{true, false} {
		t.Run("ready="+strconv.FormatBool(ready), func(t *testing.T) {
			o := hopts{warm: true}
			if !ready {
				o.env = []string{"FAKE_AGENT_START_DELAY=300ms"}
			}
			h := newHarness(t, o)
			h.e.Prewarm(Turn{Cwd: h.cwd})
			if ready {
				h.waitReady()
			}
			h.e.Release(filepath.Join(h.cwd, "elsewhere"), "")
			if l, _ := h.slot(); l == nil {
				t.Fatal("Release of another folder stopped this pre-warm")
			}
			h.e.Release(h.cwd, "")
			if l, _ := h.slot(); l != nil {
				t.Fatal("the pre-warm is still in the warm slot")
			}
			for _, pid := range h.spawned() {
				if n := groupMembers(pid); n != 0 {
					t.Fatalf("the released pre-warm left %d processes", n)
				}
			}
		})
	}
}

func TestCloseDuringPrewarmLeavesNothing(t *testing.T) {
	h := newHarness(t, hopts{warm: true, env: []string{"FAKE_AGENT_START_DELAY=300ms"}})
	h.e.Prewarm(Turn{Cwd: h.cwd})
	h.e.Close()
	for _, pid := range h.spawned() {
		if n := groupMembers(pid); n != 0 {
			t.Fatalf("Close during a pre-warm left %d processes", n)
		}
	}
}
