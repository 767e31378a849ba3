package chat

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/prompt"
)

// slot reports the warm slot's link and its status (nil when empty).
func (h *harness) slot() (*link, linkStatus) {
	h.e.mu.Lock()
	defer h.e.mu.Unlock()
	if h.e.warm == nil {
		return nil, linkClosing
	}
	return h.e.warm, h.e.warm.status
}

// waitReady waits until the warm slot holds a ready link.
func (h *harness) waitReady() *link {
	h.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if l, st := h.slot(); l != nil && st == linkReady {
			return l
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.t.Fatal("the pre-warmed link never became ready")
	return nil
}

// waitEmpty waits until the warm slot is empty.
func (h *harness) waitEmpty(within time.Duration) {
	h.t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if l, _ := h.slot(); l == nil {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.t.Fatalf("the warm slot still holds a link after %s", within)
}

func TestPrewarmedNewBuildFirstTurn(t *testing.T) {
	cold := newHarness(t, hopts{warm: true})
	coldEvs, _, err := cold.run(context.Background(), Turn{Model: "gpt-5.4", Prompt: prompt.Text("make it teal")})
	if err != nil {
		t.Fatal(err)
	}

	h := newHarness(t, hopts{warm: true})
	if !h.e.Prewarm(Turn{Cwd: h.cwd}) {
		t.Fatal("Prewarm started nothing")
	}
	h.waitReady()
	if !h.e.Warm(Turn{Cwd: h.cwd}) || h.e.Warm(Turn{Cwd: t.TempDir()}) {
		t.Fatal("Warm does not tell the pre-warmed build's folder from another")
	}
	// Before anything was typed, the agent is up with a session in the
	// build's folder.
	if got := strings.Join(h.methods(), ","); got != "initialize,session/new" {
		t.Fatalf("before the first prompt the agent got %s", got)
	}
	if h.e.Prewarm(Turn{Cwd: h.cwd}) {
		t.Fatal("a second Prewarm for the same build started another agent")
	}
	evs, res, err := h.run(context.Background(), Turn{Model: "gpt-5.4", Prompt: prompt.Text("make it teal")})
	if err != nil || res.Text != "You said: make it teal\nHello from the fake agent." {
		t.Fatalf("%v %+v", err, res)
	}
	m := h.methods()
	if len(h.spawned()) != 1 || count(m, "initialize") != 1 || count(m, "session/new") != 1 || count(m, "session/set_config_option") != 1 {
		t.Fatalf("spawned %d, agent got %v", len(h.spawned()), m)
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
	if _, _, err := h.run(context.Background(), Turn{SessionID: res.SessionID, Prompt: prompt.Text("again")}); err != nil {
		t.Fatal(err)
	}
	if len(h.spawned()) != 1 {
		t.Fatalf("follow-up spawned: %d agents", len(h.spawned()))
	}
}

func TestPrewarmedExistingChat(t *testing.T) {
	h := newHarness(t, hopts{})
	_, first, err := h.run(context.Background(), Turn{Prompt: prompt.Text("first")})
	if err != nil {
		t.Fatal(err)
	}
	h.e.opts.Warm = true
	before := len(h.methods())
	if !h.e.Prewarm(Turn{Cwd: h.cwd, SessionID: first.SessionID}) {
		t.Fatal("Prewarm started nothing")
	}
	h.waitReady()
	if got := strings.Join(h.methods()[before:], ","); got != "initialize,session/resume" {
		t.Fatalf("the chat's pre-warm sent %s", got)
	}
	if !h.e.Warm(Turn{Cwd: h.cwd, SessionID: first.SessionID}) {
		t.Fatal("Warm does not report the pre-warmed session")
	}
	evs, second, err := h.run(context.Background(), Turn{SessionID: first.SessionID, Prompt: prompt.Text("second")})
	if err != nil || second.SessionID != first.SessionID || !strings.HasPrefix(second.Text, "You said: second\n") {
		t.Fatalf("%v %+v", err, second)
	}
	if texts(evs, EventUserText) != "" {
		t.Fatal("history leaked into the turn")
	}
	m := h.methods()[before:]
	if len(h.spawned()) != 2 || count(m, "initialize") != 1 || count(m, "session/resume") != 1 {
		t.Fatalf("spawned %d, agent got %v", len(h.spawned()), m)
	}
}

func TestTurnWaitsForAPrewarmUnderWay(t *testing.T) {
	h := newHarness(t, hopts{warm: true, env: []string{"FAKE_AGENT_START_DELAY=400ms"}})
	h.e.Prewarm(Turn{Cwd: h.cwd})
	if _, st := h.slot(); st != linkPreparing {
		t.Fatalf("status right after Prewarm = %v", st)
	}
	// The user sends at once: the turn takes the starting agent.
	_, res, err := h.run(context.Background(), Turn{Prompt: prompt.Text("quick")})
	if err != nil || !strings.HasPrefix(res.Text, "You said: quick") {
		t.Fatalf("%v %+v", err, res)
	}
	if m := h.methods(); len(h.spawned()) != 1 || count(m, "initialize") != 1 || count(m, "session/new") != 1 {
		t.Fatalf("spawned %d, agent got %v", len(h.spawned()), m)
	}
}

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

func TestUnusedPrewarmIdlesOut(t *testing.T) {
	h := newHarness(t, hopts{warm: true, idle: 300 * time.Millisecond})
	h.e.Prewarm(Turn{Cwd: h.cwd})
	h.waitReady()
	h.waitEmpty(10 * time.Second)
	if n := groupMembers(h.spawned()[0]); n != 0 {
		t.Fatalf("the idle pre-warmed agent left %d processes", n)
	}
	// The next turn simply starts its own agent.
	if _, _, err := h.run(context.Background(), Turn{Prompt: prompt.Text("late")}); err != nil {
		t.Fatal(err)
	}
	if len(h.spawned()) != 2 {
		t.Fatalf("spawned %d agents", len(h.spawned()))
	}
}

func TestPrewarmLentToAListStillIdlesOut(t *testing.T) {
	h := newHarness(t, hopts{warm: true, idle: 400 * time.Millisecond})
	h.e.Prewarm(Turn{Cwd: h.cwd})
	h.waitReady()
	if _, ok, err := h.e.ListSessions(context.Background(), h.cwd); err != nil || !ok {
		t.Fatalf("list: %v %v", ok, err)
	}
	if len(h.spawned()) != 1 {
		t.Fatal("the list did not use the pre-warmed agent")
	}
	h.waitEmpty(10 * time.Second)
}

func TestUsedPrewarmDoesNotIdleOut(t *testing.T) {
	h := newHarness(t, hopts{warm: true, idle: 300 * time.Millisecond})
	h.e.Prewarm(Turn{Cwd: h.cwd})
	h.waitReady()
	_, res, err := h.run(context.Background(), Turn{Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	// The pre-warm's idle timer may still fire (Stop loses a race with a
	// timer already due): fire its expiry now, as the timer would.
	h.e.mu.Lock()
	l := h.e.warm
	h.e.mu.Unlock()
	if l == nil {
		t.Fatal("no warm link after the turn")
	}
	h.e.expire(l)
	if !h.e.Warm(Turn{Cwd: h.cwd, SessionID: res.SessionID}) {
		t.Fatal("the chat's warm link was stopped as if it were an unused pre-warm")
	}
	h.e.Release(h.cwd, "")
	if !h.e.Warm(Turn{Cwd: h.cwd, SessionID: res.SessionID}) {
		t.Fatal("Release stopped the chat's warm link")
	}
}

func TestFailedPrewarmReportsOnlyOnSend(t *testing.T) {
	t.Run("the agent keeps failing", func(t *testing.T) {
		h := newHarness(t, hopts{warm: true, scenario: "exit-early"})
		h.e.Prewarm(Turn{Cwd: h.cwd})
		h.waitEmpty(10 * time.Second) // failed, quietly: only the log says why
		if l := h.log.String(); !strings.Contains(l, "pre-warm failed") || !strings.Contains(l, "simulated startup failure") {
			t.Fatalf("the log does not say why the pre-warm failed: %s", l)
		}
		evs, _, err := h.run(context.Background(), Turn{Prompt: prompt.Text("hi")})
		var ce *Error
		if !errors.As(err, &ce) || ce.Code != CodeAgentExit || !strings.Contains(err.Error(), "simulated startup failure") {
			t.Fatalf("err = %v", err)
		}
		if n := len(h.spawned()); n != 2 {
			t.Fatalf("spawned %d agents: the turn must try again itself", n)
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
		flag := filepath.Join(t.TempDir(), "once")
		h := newHarness(t, hopts{warm: true, env: []string{"FAKE_AGENT_FAIL_ONCE=" + flag}})
		h.e.Prewarm(Turn{Cwd: h.cwd})
		h.waitEmpty(10 * time.Second)
		evs, res, err := h.run(context.Background(), Turn{Prompt: prompt.Text("hi")})
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

func TestPrewarmForAnotherChatReplacesTheWarmLink(t *testing.T) {
	h := newHarness(t, hopts{warm: true})
	_, res, err := h.run(context.Background(), Turn{Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	h.e.Prewarm(Turn{Cwd: other})
	h.waitReady()
	if h.e.Warm(Turn{Cwd: h.cwd, SessionID: res.SessionID}) {
		t.Fatal("two warm agents at once")
	}
	if n := groupMembers(h.spawned()[0]); n != 0 {
		t.Fatalf("the replaced warm agent left %d processes", n)
	}
	// A Prewarm for a chat whose turn is running starts nothing.
	_, o, err := h.run(context.Background(), Turn{Cwd: other, Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.e.Run(ctx, Turn{Cwd: other, SessionID: o.SessionID, Prompt: prompt.Text("#slow")}, func(ev Event) {})
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		h.e.mu.Lock()
		busy := len(h.e.busy)
		h.e.mu.Unlock()
		if busy == 1 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if h.e.Prewarm(Turn{Cwd: other, SessionID: o.SessionID}) {
		t.Fatal("Prewarm started a second agent for the chat whose turn is running")
	}
	cancel()
	<-done
}

func TestPrewarmNeedsWarmLinks(t *testing.T) {
	h := newHarness(t, hopts{})
	if h.e.Prewarm(Turn{Cwd: h.cwd}) || len(h.spawned()) != 0 {
		t.Fatal("an engine that keeps no warm links pre-warmed")
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

func TestPrewarmWithOtherMCPServersIsNotUsed(t *testing.T) {
	h := newHarness(t, hopts{warm: true})
	h.e.Prewarm(Turn{Cwd: h.cwd})
	h.waitReady()
	// The user added an MCP server after the view opened: the session must
	// get it, so the pre-warmed one (without it) is not used.
	stdio := json.RawMessage(`{"name":"palette","command":"/usr/bin/palette-mcp","args":[],"env":[]}`)
	if _, _, err := h.run(context.Background(), Turn{Prompt: prompt.Text("hi"), MCPServers: []json.RawMessage{stdio}}); err != nil {
		t.Fatal(err)
	}
	var sent []string
	for _, m := range h.agentLog() {
		if string(m["method"]) == `"session/new"` {
			var p struct {
				MCPServers json.RawMessage `json:"mcpServers"`
			}
			json.Unmarshal(m["params"], &p)
			sent = append(sent, string(p.MCPServers))
		}
	}
	if len(h.spawned()) != 2 || len(sent) != 2 || sent[1] != "["+string(stdio)+"]" {
		t.Fatalf("spawned %d, session/new mcpServers %v", len(h.spawned()), sent)
	}
}

func TestLinkStatusAfterTurns(t *testing.T) {
	h := newHarness(t, hopts{warm: true})
	_, res, err := h.run(context.Background(), Turn{Prompt: prompt.Text("hi")})
	if err != nil {
		t.Fatal(err)
	}
	if l, st := h.slot(); l == nil || st != linkReady || l.session() != res.SessionID {
		t.Fatalf("after a good turn: %v %v", l, st)
	}
	// A turn the agent dies in stops the link.
	_, _, err = h.run(context.Background(), Turn{SessionID: res.SessionID, Prompt: prompt.Text("#crash")})
	if err == nil {
		t.Fatal("the crash went unnoticed")
	}
	if l, _ := h.slot(); l != nil {
		t.Fatalf("a dead agent's link stayed in the warm slot (%v)", l.status)
	}
	h.e.mu.Lock()
	busy := len(h.e.busy)
	h.e.mu.Unlock()
	if busy != 0 {
		t.Fatalf("%d links still marked busy", busy)
	}
}
