package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"cdxtheme/core/acp"
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
	ev := Event{Type: EventPermission, TurnID: "t1", SessionID: "s", Permission: &Permission{RequestID: `"u-1"`, ToolCall: &acp.ToolCall{ToolCallID: "c"},
		Options: []PermissionOption{{OptionID: "o", Name: "Yes", Kind: "allow_once"}}}}
	b, _ := json.Marshal(ev)
	want := `{"type":"permission","turnId":"t1","sessionId":"s","permission":{"requestId":"\"u-1\"","toolCall":{"toolCallId":"c","content":null,"locations":null},"options":[{"optionId":"o","name":"Yes","kind":"allow_once"}]}}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	done, _ := json.Marshal(Event{Type: EventDone, SessionID: "s", StopReason: "end_turn"})
	if string(done) != `{"type":"done","sessionId":"s","stopReason":"end_turn"}` {
		t.Fatalf("done = %s", done)
	}
}
