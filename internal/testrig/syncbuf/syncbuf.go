// Package syncbuf holds Buffer, a bytes.Buffer that goroutines may write
// into while a test reads it: the log tests give the engine and the app,
// the front end's output in the signal faults, a flooding agent's stderr.
package syncbuf

import (
	"bytes"
	"sync"
)

// Buffer is safe for concurrent Write, String and Len. With Keep > 0 it
// keeps only the first Keep bytes (a flood's stderr would otherwise cost
// its whole size) but still counts every byte written.
type Buffer struct {
	Keep int

	mu sync.Mutex
	b  bytes.Buffer
	n  int64
}

func (w *Buffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.n += int64(len(p))
	if w.Keep <= 0 {
		return w.b.Write(p)
	}
	if room := w.Keep - w.b.Len(); room > 0 {
		w.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// String is everything written so far (its first Keep bytes).
func (w *Buffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// Len is how many bytes were written in all, kept or not.
func (w *Buffer) Len() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}
