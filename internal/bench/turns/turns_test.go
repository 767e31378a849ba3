//go:build unix

package turns

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"cdxtheme/internal/testrig/respmock"
)

// The mock's first delta must be exactly what the watchers look for, or
// every timed turn would end "without its answer".
func TestAnswerStartsWithFirstWord(t *testing.T) {
	reply := answer(requestFor(t, "turn-12"))
	if !strings.HasPrefix(reply.Text, firstWord("turn-12")) {
		t.Fatalf("answer %q does not start with %q", reply.Text, firstWord("turn-12"))
	}
	if strings.HasPrefix(answer(requestFor(t, "turn-1")).Text, firstWord("turn-12")) ||
		strings.HasPrefix(answer(requestFor(t, "turn-12")).Text, firstWord("turn-1")) {
		t.Error("answers of different turns are confused")
	}
}

// requestFor builds a request the way the mock parses one, by sending it.
func requestFor(t *testing.T, prompt string) respmock.Request {
	t.Helper()
	var got respmock.Request
	s := startMock(t, func(r respmock.Request) respmock.Reply { got = r; return respmock.Message("x") })
	postTurn(t, s, prompt)
	return got
}

func startMock(t *testing.T, r respmock.Responder) *respmock.Server {
	t.Helper()
	s, err := respmock.Start(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func postTurn(t *testing.T, s *respmock.Server, prompt string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"model": "gpt-5.5", "stream": true, "input": []any{
		map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": prompt}}},
	}})
	resp, err := http.Post(s.BaseURL()+"/responses", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
}

func TestWatcher(t *testing.T) {
	w := newWatcher()
	note := func(kind, text string) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"sessionId": "s", "update": map[string]any{"sessionUpdate": kind, "content": map[string]any{"type": "text", "text": text}}})
		return b
	}
	hit := w.expect("answer-turn-2 ")
	w.onNotify("session/update", note("agent_message_chunk", "answer-turn-1 ")) // replayed history
	w.onNotify("session/update", note("user_message_chunk", "answer-turn-2 "))
	w.onNotify("_auth/status_update", note("agent_message_chunk", "answer-turn-2 "))
	select {
	case <-hit:
		t.Fatal("watcher fired on the wrong chunk")
	default:
	}
	w.onNotify("session/update", note("agent_message_chunk", "answer-turn-2 "))
	w.onNotify("session/update", note("agent_message_chunk", "answer-turn-2 ")) // a second one must not block
	select {
	case <-hit:
	default:
		t.Fatal("watcher missed the answer's first chunk")
	}
}

func TestCountModels(t *testing.T) {
	tests := []struct {
		body string
		want int
		err  bool
	}{
		{`{"configOptions":[{"id":"mode","category":"mode","options":[{},{}]},{"id":"model","category":"model","options":[{"value":"a"},{"value":"b"},{"value":"c"}]}]}`, 3, false},
		{`{"configOptions":[{"id":"model","options":[{"value":"a"}]}]}`, 1, false},
		{`{"configOptions":[]}`, 0, false},
		{`not json`, 0, true},
	}
	for _, tt := range tests {
		got, err := countModels(json.RawMessage(tt.body))
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("countModels(%s) = %d, %v", tt.body, got, err)
		}
	}
}
