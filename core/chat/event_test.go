package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"cdxtheme/core/acp"
	"cdxtheme/core/agent"
	"cdxtheme/core/permission"
	"cdxtheme/core/toolcall"
)

func TestErrorMessageQuotesStderrTail(t *testing.T) {
	var stderr []string
	for i := 1; i <= 20; i++ {
		stderr = append(stderr, fmt.Sprintf("line %d", i))
	}
	base := errors.New("eof")
	e := &Error{Code: CodeAgentExit, Message: "the agent exited (exit status 3) during the turn", Stderr: stderr, Agent: "/bin/codex-acp (found on PATH)", Err: base}
	msg := e.Error()
	for _, want := range []string{"exit status 3", "/bin/codex-acp (found on PATH)", "line 20", "line 13"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "line 12\n") {
		t.Errorf("message quotes more than the last %d lines:\n%s", stderrQuoted, msg)
	}
	if !errors.Is(e, base) {
		t.Error("Error does not unwrap")
	}
	ev, _ := json.Marshal(e.event("s1"))
	want := `{"type":"error","sessionId":"s1","text":"the agent exited (exit status 3) during the turn","code":"agent_exit","stderr":["line 1",`
	if !strings.HasPrefix(string(ev), want) || !strings.Contains(string(ev), `"agent":"/bin/codex-acp (found on PATH)"`) {
		t.Errorf("event JSON = %s", ev)
	}
}

func TestEventJSONFieldNames(t *testing.T) {
	ev := Event{TurnID: "t1", SessionID: "s", Payload: PermissionAsked{Permission: &permission.Permission{RequestID: `"u-1"`, ToolCall: &acp.ToolCall{ToolCallID: "c"},
		Options: []permission.PermissionOption{{OptionID: "o", Name: "Yes", Kind: "allow_once"}}}}}
	b, _ := json.Marshal(ev)
	want := `{"type":"permission","turnId":"t1","sessionId":"s","permission":{"requestId":"\"u-1\"","toolCall":{"toolCallId":"c","content":null,"locations":null},"options":[{"optionId":"o","name":"Yes","kind":"allow_once"}]}}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	done, _ := json.Marshal(Event{SessionID: "s", Payload: Done{StopReason: "end_turn"}})
	if string(done) != `{"type":"done","sessionId":"s","stopReason":"end_turn"}` {
		t.Fatalf("done = %s", done)
	}
}

// samples is one event of every kind, its fields set, as a turn emits
// them: the round trip below must give each back unchanged.
func samples() []Event {
	kind, code := acp.ToolEdit, 3
	out := "done\n"
	tc := &acp.ToolCall{ToolCallID: "c1", Kind: &kind, Content: []acp.ToolCallContent{}, Locations: []acp.ToolCallLocation{}}
	perm := &permission.Permission{RequestID: "0", ToolCall: tc, Command: "ls", Options: []permission.PermissionOption{{OptionID: "o", Name: "Yes", Kind: acp.KindAllowOnce}}}
	return []Event{
		{TurnID: "t", SessionID: "s", Payload: TextChunk{Text: "hi"}},
		{SessionID: "s", Replay: true, Payload: TextChunk{Content: &acp.ContentBlock{Type: acp.BlockResourceLink, URI: "file:///a.png", Name: "a.png"}}},
		{SessionID: "s", Payload: ThoughtChunk{Text: "hm"}},
		{SessionID: "s", Replay: true, Payload: UserText{Text: "hello"}},
		{SessionID: "s", Payload: ToolCallStarted{ToolCall: tc, Command: "ls -l", Terminal: &toolcall.Terminal{Append: "a"}}},
		{SessionID: "s", Payload: ToolCallUpdated{ToolCall: tc, Terminal: &toolcall.Terminal{Output: &out, Exited: true, ExitCode: &code}}},
		{SessionID: "s", Payload: PlanUpdate{Plan: &acp.Plan{Entries: []acp.PlanEntry{{Content: "step", Status: "pending", Priority: "high"}}}}},
		{SessionID: "s", Payload: PermissionAsked{Permission: perm}},
		{SessionID: "s", Payload: PermissionAnswered{Permission: perm, Answer: &Answer{RequestID: "0", OptionID: "o", Kind: acp.KindAllowOnce, Remembered: true}}},
		{SessionID: "s", Payload: UsageUpdate{Usage: &acp.UsageUpdate{Used: 10, Size: 100}}},
		{SessionID: "s", Payload: ErrorEvent{Text: "no", Code: CodeModelServer, Stderr: []string{"l1"}, Agent: "/bin/a", Status: &Status{Message: "m", Retrying: true}, Server: "local"}},
		{SessionID: "s", Payload: Warning{Text: "careful"}},
		{SessionID: "s", Payload: AuthRequired{AuthMethods: []acp.AuthMethod{{ID: "api-key", Name: "API key"}}}},
		{SessionID: "s", Payload: SessionSetup{Setup: &acp.SessionSetup{Modes: &acp.SessionModeState{CurrentModeID: "ask", AvailableModes: []acp.SessionMode{{ID: "ask", Name: "Ask"}}}}}},
		{SessionID: "s", Payload: ConfigOptionsUpdate{}},
		{SessionID: "s", Payload: CommandsUpdate{Commands: []acp.Command{{Name: "init", Description: "d"}}}},
		{SessionID: "s", Payload: SessionInfo{Info: &acp.SessionInfoUpdate{Title: strPtr("Title")}}},
		{SessionID: "s", Payload: ModeChanged{Mode: "code"}},
		{SessionID: "s", Payload: AgentCapabilities{Capabilities: &acp.PromptCapabilities{Image: true}}},
		{SessionID: "s", Payload: Done{StopReason: acp.StopEndTurn}},
		{SessionID: "s", Payload: UnknownUpdate{Update: json.RawMessage(`{"sessionUpdate":"new_kind","x":1}`)}},
		{SessionID: "s", Payload: StatusNotice{Status: &Status{Message: "Reconnecting", Code: "responseStreamDisconnected"}}},
		{SessionID: "s", Payload: OptionRefused{Text: "nope", Refused: &Refusal{ConfigID: "model", Value: "x", Current: "y"}}},
		{SessionID: "s", Payload: Ready{}},
		{Payload: InstallProgress{Install: &agent.InstallProgress{Package: "codex-acp@1", Phase: "download", Done: 5, Total: 10}}},
	}
}

func strPtr(s string) *string { return &s }

// Every kind crosses the wire (the UI, the serve socket) and comes back as
// it was, with its kind.
func TestEventRoundTripsEveryKind(t *testing.T) {
	seen := map[string]bool{}
	for _, ev := range samples() {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatalf("%s: %v", ev.Type(), err)
		}
		var back Event
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v\n%s", ev.Type(), err, b)
		}
		// Compared as written again: decoded acp blocks keep their raw
		// JSON beside the fields, which DeepEqual would count.
		again, err := json.Marshal(back)
		if err != nil {
			t.Fatalf("%s: %v", ev.Type(), err)
		}
		if reflect.TypeOf(back.Payload) != reflect.TypeOf(ev.Payload) || back.TurnID != ev.TurnID || back.SessionID != ev.SessionID ||
			back.Replay != ev.Replay || string(again) != string(b) {
			t.Errorf("%s changed on the wire:\n got %#v %s\nwant %#v %s", ev.Type(), back, again, ev, b)
		}
		seen[ev.Type()] = true
	}
	for _, p := range Payloads() {
		if typ := (Event{Payload: p}).Type(); !seen[typ] {
			t.Errorf("no round trip sample of %s (%T)", typ, p)
		}
	}
}

// The wire stays one flat object: the payload's fields beside type,
// turnId and sessionId, as the UI reads them.
func TestEventWireIsFlat(t *testing.T) {
	b, err := json.Marshal(Event{TurnID: "t", SessionID: "s", Replay: true, Payload: TextChunk{Text: "hi"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"type":"text","turnId":"t","sessionId":"s","text":"hi","replay":true}`; string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	b, _ = json.Marshal(Event{SessionID: "s", Payload: Ready{}})
	if want := `{"type":"ready","sessionId":"s"}`; string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	if _, err := json.Marshal(Event{SessionID: "s"}); err == nil {
		t.Error("an event without a payload was written")
	}
	// A payload that cannot be written fails the event, instead of sending
	// it without its fields (a refusal that names no setting).
	if b, err := json.Marshal(Event{SessionID: "s", Payload: OptionRefused{Text: "no", Refused: &Refusal{ConfigID: "model", Value: math.Inf(1)}}}); err == nil || !strings.Contains(err.Error(), "option_refused event") {
		t.Errorf("an unwritable refusal: %s, err %v", b, err)
	}
}

// An unknown type is refused, not passed on empty: both ends are built
// from this package, so it can only be a bug.
func TestEventUnknownTypeIsAnError(t *testing.T) {
	var ev Event
	err := json.Unmarshal([]byte(`{"type":"telepathy","text":"hi"}`), &ev)
	var unknown *UnknownTypeError
	if !errors.As(err, &unknown) || unknown.Type != "telepathy" {
		t.Fatalf("err = %v, event %+v", err, ev)
	}
	if err := json.Unmarshal([]byte(`{"type":"done","stopReason":7}`), &ev); err == nil || !strings.Contains(err.Error(), "done event") {
		t.Fatalf("a done event of the wrong shape: err = %v", err)
	}
}

// The payload kinds and the Event* constants (the TS EventType union) are
// the same set, one payload per type.
func TestPayloadKindsMatchEventTypes(t *testing.T) {
	consts := []string{EventText, EventThought, EventUserText, EventToolCall, EventToolCallUpdate, EventPlan, EventPermission,
		EventAnswered, EventUsage, EventError, EventWarning, EventAuthRequired, EventSession, EventConfigOptions, EventCommands,
		EventSessionInfo, EventMode, EventAgent, EventDone, EventUpdate, EventStatus, EventRefused, EventReady, EventInstall}
	kinds := map[string]bool{}
	for _, p := range Payloads() {
		typ := (Event{Payload: p}).Type()
		if kinds[typ] {
			t.Errorf("two payloads of type %s", typ)
		}
		kinds[typ] = true
	}
	for _, c := range consts {
		if !kinds[c] {
			t.Errorf("no payload of type %s", c)
		}
	}
	if len(kinds) != len(consts) {
		t.Errorf("%d payload kinds, %d Event* constants", len(kinds), len(consts))
	}
}
