package stream

import (
	"sync"
	"testing"
	"time"
)

func TestBatcherKeepsOrderAndCoalesces(t *testing.T) {
	var mu sync.Mutex
	var batches [][]int
	b := NewBatcher(20*time.Millisecond, func(evs []int) {
		mu.Lock()
		batches = append(batches, evs)
		mu.Unlock()
	})
	const n = 10000
	for i := 0; i < n; i++ {
		b.Add(i)
	}
	b.Close()
	b.Add(n) // after Close: dropped, never emitted

	mu.Lock()
	defer mu.Unlock()
	next := 0
	for _, batch := range batches {
		for _, v := range batch {
			if v != next {
				t.Fatalf("event %d arrived where %d was expected", v, next)
			}
			next++
		}
	}
	if next != n {
		t.Fatalf("got %d events, want %d", next, n)
	}
	// A burst added far faster than the interval must not produce one emit
	// per event; on a loaded machine a few timer flushes may interleave.
	if len(batches) > n/100 {
		t.Fatalf("%d emits for %d events: not batched", len(batches), n)
	}
}

func TestBatcherFlushesALoneEvent(t *testing.T) {
	got := make(chan []string, 1)
	b := NewBatcher(time.Millisecond, func(evs []string) { got <- evs })
	b.Add("only")
	select {
	case evs := <-got:
		if len(evs) != 1 || evs[0] != "only" {
			t.Fatalf("flushed %v", evs)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a lone event was never flushed")
	}
	b.Close()
}

// A bounded batcher holds its producer (the agent's reader) once the
// pending events weigh more than the bound, until a flush takes them; and
// it joins adjacent events before they are emitted.
func TestBoundedBatcherHoldsTheProducer(t *testing.T) {
	var mu sync.Mutex
	var got []string
	b := NewBatcher(time.Hour, func(evs []string) { // only Close flushes
		mu.Lock()
		got = append(got, evs...)
		mu.Unlock()
	}).Bounded(10, func(s string) int { return len(s) }, func(evs []string) []string {
		joined := ""
		for _, s := range evs {
			joined += s
		}
		return []string{joined}
	})
	added := make(chan struct{})
	go func() {
		defer close(added)
		b.Add("aaaaaa")
		b.Add("bbbbbb") // 12 > 10: waits for a flush
		b.Add("c")
	}()
	for {
		b.mu.Lock()
		waiting := b.waits > 0
		b.mu.Unlock()
		if waiting {
			break
		}
		select {
		case <-added:
			t.Fatal("Add went on past the bound with nothing flushed")
		case <-time.After(time.Millisecond):
		}
	}
	b.flush()
	<-added
	b.Close()
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || got[0] != "aaaaaabbbbbb" || got[1] != "c" {
		t.Fatalf("emitted %q, want the first two joined, then c", got)
	}
}
