package app

import (
	"sync"
	"time"
)

// Emitter sends a named event to the UI. The Wails runtime implements it in
// the desktop build; tests pass a recorder. (runtime.EventsEmit with a
// non-Wails context calls log.Fatalf, hence the seam.)
type Emitter interface {
	Emit(name string, payload any)
}

// EmitterFunc adapts a function to Emitter.
type EmitterFunc func(name string, payload any)

// Emit calls f.
func (f EmitterFunc) Emit(name string, payload any) { f(name, payload) }

// FlushInterval is the most often a turn's events cross into the UI: one
// frame at 60 Hz. Token-by-token events would flood the webview's IPC.
const FlushInterval = 16 * time.Millisecond

// batcher collects a turn's events and emits them as one "turn" event per
// interval, carrying everything since the last flush, in order.
type batcher[T any] struct {
	// flushMu serialises flushes: the timer's and Close's must not emit
	// concurrently, or two batches could overtake each other.
	flushMu  sync.Mutex
	mu       sync.Mutex
	pending  []T
	timer    *time.Timer
	interval time.Duration
	flushFn  func([]T)
	closed   bool
}

func newBatcher[T any](interval time.Duration, flush func([]T)) *batcher[T] {
	return &batcher[T]{interval: interval, flushFn: flush}
}

// Add queues ev; the first event after a flush arms the timer, so a lone
// event waits at most one interval and a burst costs one emit per interval.
func (b *batcher[T]) Add(ev T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.pending = append(b.pending, ev)
	if b.timer == nil {
		b.timer = time.AfterFunc(b.interval, b.flush)
	}
}

func (b *batcher[T]) flush() {
	b.flushMu.Lock()
	defer b.flushMu.Unlock()
	b.mu.Lock()
	evs := b.pending
	b.pending = nil
	b.timer = nil
	b.mu.Unlock()
	if len(evs) > 0 {
		b.flushFn(evs)
	}
}

// Close flushes what is pending now; later Adds are dropped.
func (b *batcher[T]) Close() {
	b.flushMu.Lock()
	defer b.flushMu.Unlock()
	b.mu.Lock()
	b.closed = true
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	evs := b.pending
	b.pending = nil
	b.mu.Unlock()
	if len(evs) > 0 {
		b.flushFn(evs)
	}
}
