package chat

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/acp"

	"github.com/rs/zerolog"
)

// Guards a mutation pass found unwatched (issue 25): each test names what
// the user would see if the guard went.

// The warm agent dies after it streamed part of the answer: the prompt
// already ran (it may have edited files), so the turn ends in the error and
// the same prompt is never sent again on a fresh connection.
func TestWarmAgentDyingAfterOutputDoesNotRunThePromptTwice(t *testing.T) {
	h := newHarness(t, hopts{warm: true})
	_, first, err := h.run(context.Background(), Turn{Prompt: TextPrompt("first")})
	if err != nil {
		t.Fatal(err)
	}
	evs, res, err := h.run(context.Background(), Turn{SessionID: first.SessionID, Prompt: TextPrompt("#crash second")})
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != CodeAgentExit {
		t.Fatalf("err = %v, want the agent's exit", err)
	}
	if !strings.HasPrefix(res.Text, "Starting work... almost there ") || !strings.Contains(texts(evs, EventText), "almost there") {
		t.Fatalf("the streamed part was lost: %q", res.Text)
	}
	if n := count(h.methods(), "session/prompt"); n != 2 {
		t.Fatalf("session/prompt sent %d times for two turns: %v", n, h.methods())
	}
	if len(h.spawned()) != 1 {
		t.Fatalf("a second agent was started (%d) to run the prompt again", len(h.spawned()))
	}
}

// The warm agent asks to run a command before it streamed a word and dies
// once asked: the request counts as output (the command may have run), so
// the prompt is not sent again on a fresh connection either.
func TestWarmAgentDyingAfterAPermissionRequestDoesNotRunThePromptTwice(t *testing.T) {
	h := newHarness(t, hopts{warm: true})
	_, first, err := h.run(context.Background(), Turn{Prompt: TextPrompt("first")})
	if err != nil {
		t.Fatal(err)
	}
	h.e.mu.Lock()
	l := h.e.warm
	h.e.mu.Unlock()
	dies := DeciderFunc(func(_ context.Context, _ string, p Permission) (string, error) {
		l.proc.Kill()
		<-l.proc.Done()
		return ChooseByKind(p.Options, acp.KindAllowOnce), nil
	})
	_, _, err = h.run(context.Background(), Turn{SessionID: first.SessionID, Prompt: TextPrompt("#permission-first"), Decider: dies})
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != CodeAgentExit {
		t.Fatalf("err = %v, want the agent's exit", err)
	}
	if n := count(h.methods(), "session/prompt"); n != 2 || len(h.spawned()) != 1 {
		t.Fatalf("session/prompt sent %d times for two turns, %d agents started: %v", n, len(h.spawned()), h.methods())
	}
}

// An agent that answers initialize with another protocol version is
// refused before any session: the turn says which versions differ.
func TestOtherProtocolVersionIsRefused(t *testing.T) {
	h := newHarness(t, hopts{env: []string{"FAKE_AGENT_PROTOCOL=2"}})
	_, _, err := h.run(context.Background(), Turn{Prompt: TextPrompt("hi")})
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != CodeProtocol || !strings.Contains(ce.Message, "ACP version 2; this app speaks version 1") {
		t.Fatalf("err = %v", err)
	}
	if m := h.methods(); count(m, "session/new") != 0 || count(m, "session/prompt") != 0 {
		t.Fatalf("the session went on after the version mismatch: %v", m)
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
	h := newHarness(t, hopts{timeout: 800 * time.Millisecond, env: []string{"FAKE_AGENT_STALL_MS=60000"}})
	_, res, err := h.run(context.Background(), Turn{Prompt: TextPrompt("#stall")})
	if ce, ok := err.(*Error); !ok || ce.Code != CodeTimeout {
		t.Fatalf("err = %v", err)
	}
	if res.StopReason != acp.StopCancelled {
		t.Fatalf("StopReason = %q, want %q", res.StopReason, acp.StopCancelled)
	}
}
