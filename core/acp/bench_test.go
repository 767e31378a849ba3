package acp

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// repeatReader yields line n times, then EOF, without allocating per line.
type repeatReader struct {
	line []byte
	n    int
	off  int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := copy(p, r.line[r.off:])
	r.off += k
	if r.off == len(r.line) {
		r.off = 0
		r.n--
	}
	return k, nil
}

// BenchmarkLineToEvent measures one agent_message_chunk from the wire to a
// decoded update with its text in hand: framing, envelope, queue,
// dispatcher, SessionNotification and content block decoding.
func BenchmarkLineToEvent(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"1KB", 1 << 10}, {"1MB", 1 << 20}} {
		b.Run(size.name, func(b *testing.B) {
			line := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"01a2360f-02d3-7551-b339-f4d167fb91c8","update":{"sessionUpdate":"agent_message_chunk","messageId":"msg_1","content":{"type":"text","text":"` +
				strings.Repeat("x", size.n) + `"}}}}` + "\n")
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			c := NewConn(&repeatReader{line: line, n: b.N}, io.Discard, Options{})
			var total int
			c.HandleNotification(MethodSessionUpdate, func(ctx context.Context, params json.RawMessage) {
				var n SessionNotification
				if err := json.Unmarshal(params, &n); err != nil {
					b.Fatal(err)
				}
				total += len(n.Update.Content.Text)
			})
			b.ResetTimer()
			c.Start()
			<-c.Dispatched()
			b.StopTimer()
			if total != b.N*size.n {
				b.Fatalf("decoded %d bytes of text, want %d", total, b.N*size.n)
			}
		})
	}
}
