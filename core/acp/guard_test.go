package acp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// A message with a method and "id": null is a notification (JSON-RPC 2.0
// gives null ids to no request): it reaches the notification handler and
// gets no answer the agent would take for a reply to something else.
func TestNullIDMethodIsANotificationAndGetsNoAnswer(t *testing.T) {
	p := newPeer(t, Options{})
	var got []string
	p.conn.HandleNotification("_vendor/note", func(ctx context.Context, params json.RawMessage) {
		got = append(got, string(params))
	})
	p.conn.HandleRequest("_vendor/note", func(ctx context.Context, id json.RawMessage, params json.RawMessage) (any, error) {
		t.Error("a null-id notification was handled as a request")
		return map[string]any{}, nil
	})
	p.conn.Start()
	p.send(`{"jsonrpc":"2.0","id":null,"method":"_vendor/note","params":{"n":1}}`)
	done := make(chan error, 1)
	go func() { done <- p.conn.Call(context.Background(), MethodSessionList, ListSessionsRequest{}, nil) }()
	// The first line the Conn writes after the note must be our call.
	req := p.next()
	if m, _ := json.Marshal(req); string(req["method"]) != `"session/list"` {
		t.Fatalf("the Conn answered the notification: %s", m)
	}
	p.send(`{"jsonrpc":"2.0","id":` + string(req["id"]) + `,"result":{"sessions":[]}}`)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	p.conn.Flush(context.Background())
	if len(got) != 1 || got[0] != `{"n":1}` {
		t.Fatalf("notification handler got %q", got)
	}
}

// The frame cap is inclusive: a line of exactly MaxLine bytes is read, one
// byte more is skipped as a bad line.
func TestFrameCapAtExactlyTheLimit(t *testing.T) {
	const max = 1000
	frame := func(n int) string {
		head, tail := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]},"x":"`, `"}}`
		return head + strings.Repeat("z", n-len(head)-len(tail)) + tail
	}
	for _, tc := range []struct {
		size      int
		wantNotes int
		wantBad   int64
	}{{max, 1, 0}, {max + 1, 0, 1}} {
		p := newPeer(t, Options{MaxLine: max})
		notes := 0
		p.conn.HandleUpdates(func(ctx context.Context, n SessionNotification, err error) { notes++ })
		p.conn.Start()
		line := frame(tc.size)
		if len(line) != tc.size {
			t.Fatalf("frame of %d bytes, want %d", len(line), tc.size)
		}
		p.send(line)
		p.barrier()
		if notes != tc.wantNotes || p.conn.BadLines() != tc.wantBad {
			t.Errorf("a %d-byte line with MaxLine %d: %d updates, %d bad lines; want %d and %d", tc.size, max, notes, p.conn.BadLines(), tc.wantNotes, tc.wantBad)
		}
	}
}
