// Package stream is how a turn's events reach the page: batched once a
// frame, bounded so a flooding agent is slowed rather than buffered, runs
// of text joined, and the agent's text capped per turn (Weigh, JoinText,
// TextCap). app.Turns.runTurn puts them together.
package stream

import (
	"sync"
	"time"
)

// FlushInterval is the most often a turn's events cross into the UI: one
// frame at 60 Hz. Token-by-token events would flood the webview's IPC.
const FlushInterval = 16 * time.Millisecond

// MaxPending bounds the bytes of events a turn holds waiting for the next
// flush. When they reach it, Add waits for that flush: the agent's reader
// then waits too (core/acp's queue is bounded), so a flooding agent is
// slowed to what the UI takes instead of filling memory.
const MaxPending = 256 << 10

// Batcher collects a turn's events and emits them as one "turn" event per
// interval, carrying everything since the last flush, in order.
type Batcher[T any] struct {
	// flushMu serialises flushes: the timer's and Close's must not emit
	// concurrently, or two batches could overtake each other.
	flushMu  sync.Mutex
	mu       sync.Mutex
	space    sync.Cond // signalled when a flush took the pending events
	pending  []T
	bytes    int // weight of pending
	timer    *time.Timer
	interval time.Duration
	flushFn  func([]T)
	closed   bool
	waits    int // Adds that waited for room (tests)

	// Optional (set before the first Add): weigh is an event's size in
	// bytes, its struct included (nil: no bound); compact rewrites a batch
	// before it is emitted (adjacent text joined). Joining at flush, not
	// per Add, keeps a burst of one-byte chunks linear.
	max     int
	weigh   func(T) int
	compact func([]T) []T
}

func NewBatcher[T any](interval time.Duration, flush func([]T)) *Batcher[T] {
	b := &Batcher[T]{interval: interval, flushFn: flush}
	b.space.L = &b.mu
	return b
}

// Bounded makes Add wait while max bytes (by weigh) are pending, and has
// every batch pass through compact before it is emitted.
func (b *Batcher[T]) Bounded(max int, weigh func(T) int, compact func([]T) []T) *Batcher[T] {
	b.max, b.weigh, b.compact = max, weigh, compact
	return b
}

// Add queues ev; the first event after a flush arms the timer, so a lone
// event waits at most one interval and a burst costs one emit per interval.
// With a bound it waits, once ev is queued, while the pending events weigh
// more than the bound (until a flush takes them, or Close).
func (b *Batcher[T]) Add(ev T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.pending = append(b.pending, ev)
	if b.timer == nil {
		b.timer = time.AfterFunc(b.interval, b.flush)
	}
	if b.weigh == nil {
		return
	}
	b.bytes += b.weigh(ev)
	for b.bytes > b.max && !b.closed {
		b.waits++
		b.space.Wait()
	}
}

// take hands over the pending events and wakes an Add waiting for room.
func (b *Batcher[T]) take() []T {
	evs := b.pending
	b.pending, b.bytes = nil, 0
	b.space.Broadcast()
	if b.compact != nil && len(evs) > 1 {
		evs = b.compact(evs)
	}
	return evs
}

func (b *Batcher[T]) flush() {
	b.flushMu.Lock()
	defer b.flushMu.Unlock()
	b.mu.Lock()
	evs := b.take()
	b.timer = nil
	b.mu.Unlock()
	if len(evs) > 0 {
		b.flushFn(evs)
	}
}

// Close flushes what is pending now; later Adds are dropped.
func (b *Batcher[T]) Close() {
	b.flushMu.Lock()
	defer b.flushMu.Unlock()
	b.mu.Lock()
	b.closed = true
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	evs := b.take()
	b.mu.Unlock()
	if len(evs) > 0 {
		b.flushFn(evs)
	}
}
