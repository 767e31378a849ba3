package chat

import (
	"context"
	"io"
	"runtime"
	"strings"
	"testing"

	"cdxtheme/core/acp"

	"github.com/rs/zerolog"
)

// lines yields line n times, then EOF.
type lines struct {
	line []byte
	n    int
	off  int
}

func (r *lines) Read(p []byte) (int, error) {
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

// streamText runs n chunk lines through a link into a turn and returns the
// text the turn emitted.
func streamText(tb testing.TB, n int, start func()) int {
	line := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"01a2360f-02d3-7551-b339-f4d167fb91c8","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` +
		strings.Repeat("x", 64) + `"}}}}` + "\n")
	l := &link{conn: acp.NewConn(&lines{line: line, n: n}, io.Discard, acp.Options{}), log: zerolog.Nop()}
	got := 0
	ts := &turnState{ctx: context.Background(), log: zerolog.Nop(), emitFn: func(ev Event) {
		if ev.Type() != EventText {
			tb.Fatalf("event %+v", ev)
		}
		got += len(ev.Payload.(TextChunk).Text)
	}}
	l.attach(ts)
	l.register()
	start()
	l.conn.Start()
	<-l.conn.Dispatched()
	return got
}

// BenchmarkChunkToEvent is a streamed chunk from the wire to the turn's
// text event: the whole core path but the pipe (see internal/bench).
func BenchmarkChunkToEvent(b *testing.B) {
	b.ReportAllocs()
	got := streamText(b, b.N, b.ResetTimer)
	b.StopTimer()
	if got != 64*b.N {
		b.Fatalf("emitted %d bytes of text, want %d", got, 64*b.N)
	}
}

// maxAllocsPerChunkEvent bounds the heap allocations of one streamed chunk
// from the wire to the turn's event: acp's three (line, notification with
// its block, text), the event's payload boxed in its interface (the price
// of the typed union: one per event) and the growth of the turn's
// collected text, amortised.
const maxAllocsPerChunkEvent = 4.2

// Allocation counts are deterministic where time is not: a change that
// makes the chunk path decode twice or box its payload twice fails here.
func TestAllocsPerChunkEvent(t *testing.T) {
	const n = 20000
	var before, after runtime.MemStats
	got := streamText(t, n, func() {
		runtime.GC()
		runtime.ReadMemStats(&before)
	})
	runtime.ReadMemStats(&after)
	if got != 64*n {
		t.Fatalf("emitted %d bytes of text, want %d", got, 64*n)
	}
	per := float64(after.Mallocs-before.Mallocs) / n
	t.Logf("%.2f allocations per chunk event", per)
	if per > maxAllocsPerChunkEvent {
		t.Fatalf("%.2f allocations per streamed chunk event, want ≤ %.1f", per, maxAllocsPerChunkEvent)
	}
}
