package acp

import (
	"context"
	"io"
	"runtime"
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

// chunkLine is an agent_message_chunk as codex-acp writes it, with a text
// of n bytes.
func chunkLine(n int) []byte {
	return []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"01a2360f-02d3-7551-b339-f4d167fb91c8","update":{"sessionUpdate":"agent_message_chunk","messageId":"msg_1","content":{"type":"text","text":"` +
		strings.Repeat("x", n) + `"}}}}` + "\n")
}

// streamChunks runs n copies of line through a Conn (framing, decoding,
// queue, dispatcher, handler) and returns the total text length handled.
func streamChunks(tb testing.TB, line []byte, n int, start func()) int {
	c := NewConn(&repeatReader{line: line, n: n}, io.Discard, Options{})
	var total int
	c.HandleUpdates(func(ctx context.Context, u SessionNotification, err error) {
		if err != nil {
			tb.Fatal(err)
		}
		total += len(u.Update.Content.Text)
	})
	start()
	c.Start()
	<-c.Dispatched()
	return total
}

// BenchmarkLineToEvent measures one agent_message_chunk from the wire to a
// decoded update with its text in hand: framing, the one-pass decoding of
// envelope, notification, update and content block, queue and dispatcher.
func BenchmarkLineToEvent(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"64B", 64}, {"1KB", 1 << 10}, {"1MB", 1 << 20}} {
		b.Run(size.name, func(b *testing.B) {
			line := chunkLine(size.n)
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			total := streamChunks(b, line, b.N, b.ResetTimer)
			b.StopTimer()
			if total != b.N*size.n {
				b.Fatalf("decoded %d bytes of text, want %d", total, b.N*size.n)
			}
		})
	}
}

// BenchmarkDecodeChunk is the decoding alone, without the goroutines.
func BenchmarkDecodeChunk(b *testing.B) {
	line := chunkLine(64)
	line = line[:len(line)-1]
	var d lineDecoder
	b.ReportAllocs()
	for b.Loop() {
		var m decoded
		if err := d.decode(line, &m); err != nil || m.note == nil {
			b.Fatal(err)
		}
	}
}

// maxAllocsPerChunk bounds the heap allocations one streamed chunk costs
// from the pipe to the handler: the line, the notification with its
// block, the text; the rest is the queue's amortised growth.
const maxAllocsPerChunk = 3.2

// The allocation count, unlike time, is deterministic: a change that makes
// the hot path allocate again fails here, not only in `make bench`.
func TestAllocsPerStreamedChunk(t *testing.T) {
	const n = 20000
	line := chunkLine(64)
	var before, after runtime.MemStats
	total := streamChunks(t, line, n, func() {
		runtime.GC()
		runtime.ReadMemStats(&before)
	})
	runtime.ReadMemStats(&after)
	if total != n*64 {
		t.Fatalf("handled %d bytes of text, want %d", total, n*64)
	}
	per := float64(after.Mallocs-before.Mallocs) / n
	t.Logf("%.2f allocations per chunk", per)
	if per > maxAllocsPerChunk {
		t.Fatalf("%.2f allocations per streamed chunk, want ≤ %.1f", per, maxAllocsPerChunk)
	}
}

// Decoding alone: the text and the notification, the ids are shared with
// the previous chunk of the same session and message.
func TestAllocsPerDecodedChunk(t *testing.T) {
	line := chunkLine(64)
	line = line[:len(line)-1]
	var d lineDecoder
	var m decoded
	if err := d.decode(line, &m); err != nil {
		t.Fatal(err)
	}
	got := testing.AllocsPerRun(1000, func() {
		m = decoded{}
		if err := d.decode(line, &m); err != nil || m.note == nil {
			t.Fatal(err)
		}
	})
	if got != 2 {
		t.Fatalf("%v allocations to decode a chunk line, want 2 (notification + text)", got)
	}
}
