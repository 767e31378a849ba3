package chat

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/acp"
	"cdxtheme/core/agent"
	"cdxtheme/core/permission"
	"cdxtheme/core/prompt"
	"cdxtheme/internal/testrig/acpstub"
	"cdxtheme/internal/testrig/fakeagent/fakeagenttest"

	"github.com/rs/zerolog"
)

// Guards a mutation pass found unwatched (issue 25): each test names what
// the user would see if the guard went.

// The warm agent dies after it streamed part of the answer: the prompt
// already ran (it may have edited files), so the turn ends in the error and
// the same prompt is never sent again on a fresh connection.
func TestWarmAgentDyingAfterOutputDoesNotRunThePromptTwice(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		if turn.Text() == "second" {
			turn.Say("Starting work... almost there ")
			turn.Exit()
		}
		return "end_turn"
	})
	e := stubEngine(t, ag, Options{Warm: true})
	cwd := t.TempDir()
	_, first, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("first")})
	if err != nil {
		t.Fatal(err)
	}
	evs, _, err := runStub(t, e, Turn{Cwd: cwd, SessionID: first.SessionID, Prompt: prompt.Text("second")})
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != CodeAgentExit {
		t.Fatalf("err = %v, want the agent's exit", err)
	}
	if got := texts(evs, EventText); got != "Starting work... almost there " {
		t.Fatalf("the streamed part was lost: %q", got)
	}
	if n := count(ag.Methods(), "session/prompt"); n != 2 || ag.Started() != 1 {
		t.Fatalf("session/prompt sent %d times for two turns, %d agents started: %v", n, ag.Started(), ag.Methods())
	}
}

// The warm agent asks to run a command before it streamed a word and dies
// once answered: the request counts as output (the command may have run),
// so the prompt is not sent again on a fresh connection either.
func TestWarmAgentDyingAfterAPermissionRequestDoesNotRunThePromptTwice(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		if turn.Text() == "second" {
			turn.Ask(`{"toolCallId":"c1","title":"ls","kind":"execute"}`, askOptions)
			turn.Exit()
		}
		return "end_turn"
	})
	e := stubEngine(t, ag, Options{Warm: true})
	cwd := t.TempDir()
	_, first, err := runStub(t, e, Turn{Cwd: cwd, Prompt: prompt.Text("first")})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = runStub(t, e, Turn{Cwd: cwd, SessionID: first.SessionID, Prompt: prompt.Text("second"), Decider: permission.Policy("allow")})
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != CodeAgentExit {
		t.Fatalf("err = %v, want the agent's exit", err)
	}
	if n := count(ag.Methods(), "session/prompt"); n != 2 || ag.Started() != 1 {
		t.Fatalf("session/prompt sent %d times for two turns, %d agents started: %v", n, ag.Started(), ag.Methods())
	}
}

// A resume refused because the user is signed out asks to sign in: falling
// back to session/load would replay the history into a session that still
// cannot run, and hide the reason.
func TestResumeRefusedForSignInDoesNotFallBackToLoad(t *testing.T) {
	conn, methods := scriptedAgent(t, &acp.RPCError{Code: acp.CodeAuthRequired, Message: "Authentication required"})
	caps := acp.AgentCapabilities{LoadSession: true, SessionCapabilities: acp.SessionCapabilities{Resume: &acp.Capability{}}}
	l := &link{conn: conn, init: acp.InitializeResponse{ProtocolVersion: 1, AgentCapabilities: caps}, log: zerolog.Nop()}
	ts := &turnState{ctx: context.Background(), emitFn: func(Event) {}, log: zerolog.Nop()}
	l.attach(ts)
	l.register()
	conn.Start()
	err := (&Engine{}).openSession(context.Background(), l, Turn{SessionID: "s1", Cwd: "/w"}, ts)
	if acp.ErrorCode(err) != acp.CodeAuthRequired {
		t.Fatalf("err = %v, want the agent's authentication error", err)
	}
	conn.Flush(context.Background())
	if got := strings.Join(*methods, ","); got != "session/resume" {
		t.Fatalf("methods = %s, want session/resume alone", got)
	}
}

// A turn stopped by its timeout reports the prompt as cancelled, so what
// is saved of the turn says it did not end by itself.
func TestTimedOutTurnReportsACancelledStop(t *testing.T) {
	ag := acpstub.New()
	ag.OnPrompt(func(turn *acpstub.Turn) string {
		<-turn.Cancelled() // works until it is asked to stop
		return "cancelled"
	})
	_, res, err := runStub(t, stubEngine(t, ag, Options{Timeout: 800 * time.Millisecond}), Turn{Prompt: prompt.Text("hi")})
	if ce, ok := err.(*Error); !ok || ce.Code != CodeTimeout {
		t.Fatalf("err = %v", err)
	}
	if res.StopReason != acp.StopCancelled {
		t.Fatalf("StopReason = %q, want %q", res.StopReason, acp.StopCancelled)
	}
}

// A mode change (set_mode or the agent's current_mode_update) moves the
// mode option's value and keeps everything else the agent sent with it:
// fields this app does not model still reach the page.
func TestModeChangeKeepsTheAgentsOptionAsSent(t *testing.T) {
	var o acp.ConfigOption
	if err := json.Unmarshal([]byte(`{"id":"mode","name":"Mode","category":"mode","type":"select","currentValue":"ask","options":[{"value":"ask","name":"Ask"},{"value":"code","name":"Code"}],"x-agent-order":3}`), &o); err != nil {
		t.Fatal(err)
	}
	l := &link{options: []acp.ConfigOption{o}}
	l.setCurrentMode("code")
	got := l.configOptions()
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Value != "code" || !strings.Contains(string(b), `"x-agent-order":3`) || !strings.Contains(string(b), `"currentValue":"code"`) {
		t.Fatalf("after the mode change the option is %s (value %q)", b, got[0].Value)
	}
}

// loadAgent is an agent on a pipe that answers every request with the
// lines reply makes of its id.
func loadAgent(t *testing.T, reply func(id string) []string) *acp.Conn {
	t.Helper()
	return pipeAgent(t, func(m pipeMsg) []string { return reply(string(m.ID)) })
}

// loadLink is a link on conn to an agent that can only load sessions.
func loadLink(conn *acp.Conn, ts *turnState) *link {
	l := &link{conn: conn, init: acp.InitializeResponse{ProtocolVersion: 1, AgentCapabilities: acp.AgentCapabilities{LoadSession: true}}, log: zerolog.Nop()}
	l.attach(ts)
	l.register()
	conn.Start()
	return l
}

// The turn's time runs out while the updates session/load brought are
// still being handled (the page is slow to take them): the open ends in
// the timeout, and nothing goes on to prompt a session past its deadline.
func TestLoadThatOutlastsTheTurnEndsInItsError(t *testing.T) {
	conn := loadAgent(t, func(id string) []string {
		return []string{
			// Not history: the session's commands, passed to the turn.
			`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"available_commands_update","availableCommands":[]}}}`,
			`{"jsonrpc":"2.0","id":` + id + `,"result":{}}`,
		}
	})
	tctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	slow := func(Event) { <-tctx.Done() } // the page takes nothing until the deadline
	ts := &turnState{ctx: tctx, emitFn: slow, log: zerolog.Nop()}
	err := (&Engine{}).openSession(tctx, loadLink(conn, ts), Turn{SessionID: "s1", Cwd: "/w"}, ts)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the turn's deadline", err)
	}
}

// An agent that refuses to load the session (it no longer has it) ends
// the turn in its refusal: the chat is not opened as if it were there.
func TestRefusedLoadEndsTheTurn(t *testing.T) {
	conn := loadAgent(t, func(id string) []string {
		return []string{`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32002,"message":"Resource not found: s1"}}`}
	})
	var evs []Event
	ts := &turnState{ctx: context.Background(), emitFn: func(ev Event) { evs = append(evs, ev) }, log: zerolog.Nop()}
	err := (&Engine{}).openSession(context.Background(), loadLink(conn, ts), Turn{SessionID: "s1", Cwd: "/w"}, ts)
	if err == nil || !strings.Contains(err.Error(), "Resource not found") {
		t.Fatalf("err = %v, want the agent's refusal", err)
	}
	if got := types(evs); slices.Contains(got, EventSession) {
		t.Fatalf("the refused session was opened: %v", got)
	}
}

// A sign-in, logout or session list that waited for the warm agent to
// finish preparing, and saw the preparation fail, is not handed that
// stopped agent: it starts its own (claim gives nothing).
func TestClaimGivesNothingWhenThePreparationFailed(t *testing.T) {
	e := NewEngine(Options{Log: zerolog.Nop(), Timeout: time.Minute})
	defer e.Close()
	// A stand-in agent that stays and says nothing.
	proc, err := acpstub.New().Dial(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	l := &link{conn: loadAgent(t, func(string) []string { return nil }), proc: proc, cwd: "/w", log: zerolog.Nop(),
		status: linkPreparing, prepared: make(chan struct{}), cancelPrep: func() {}, prepErr: errors.New("session/load: Resource not found")}
	close(l.prepared)
	e.mu.Lock()
	e.warm = l
	e.mu.Unlock()
	got, err := e.claim(context.Background(), context.Background(), "/w", true)
	if got != nil || err != nil {
		t.Fatalf("claim = %p, %v; want nothing, so the request starts its own agent", got, err)
	}
}

// A mode change moves the select option of the mode category only: an
// agent's on/off switch that it also files under "mode" keeps its value.
func TestModeChangeLeavesOtherModeOptionsAlone(t *testing.T) {
	toggle := acp.ConfigOption{ID: "plan", Name: "Plan first", Category: acp.CategoryMode, Type: "boolean", Value: "off"}
	sel := acp.ConfigOption{ID: "mode", Name: "Mode", Category: acp.CategoryMode, Type: "select", Value: "ask",
		Options: []acp.ConfigSelectOption{{Value: "ask", Name: "Ask"}, {Value: "code", Name: "Code"}}}
	l := &link{options: []acp.ConfigOption{toggle, sel}}
	l.setCurrentMode("code")
	got := l.configOptions()
	if got[0].Value != "off" || got[1].Value != "code" {
		t.Fatalf("after the mode change: %s=%q, %s=%q; want the switch untouched and the mode code", got[0].ID, got[0].Value, got[1].ID, got[1].Value)
	}
}

// Kept on the subprocess fake agent: a process's clean exit status.

// An agent that exits cleanly before answering is said to have exited,
// not to have closed its output (which a running agent can do): the user
// looks for why it quit, not for a hang.
func TestAgentThatExitsCleanlyIsSaidToHaveExited(t *testing.T) {
	// The fake agent's exit-clean scenario, not a shell script: Windows
	// runs no #! script.
	e := NewEngine(Options{Resolve: agent.ResolveOptions{Override: strconv.Quote(fakeagenttest.Build(t))},
		Env: []string{"FAKE_AGENT_SCENARIO=exit-clean"}, Timeout: 30 * time.Second, Log: zerolog.Nop()})
	defer e.Close()
	_, err := e.Run(context.Background(), Turn{Cwd: t.TempDir(), Prompt: prompt.Text("hi")}, nil)
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != CodeAgentExit || !strings.HasPrefix(ce.Message, "the agent exited before answering initialize") {
		t.Fatalf("err = %v, want the agent's exit before initialize", err)
	}
}
