package faults

import (
	"os"
	"sort"
	"sync"
	"time"

	"cdxtheme/core/procfs"
)

// Proc is one process as /proc shows it.
type Proc = procfs.Proc

// ErrNoProc is returned where there is no /proc to read.
var ErrNoProc = procfs.ErrUnavailable

// The /proc readers the cases use, from the one helper the core uses too.
var (
	Processes   = procfs.All
	Lookup      = procfs.Lookup
	Marked      = procfs.Marked
	Descendants = procfs.Descendants
	LiveInGroup = procfs.LiveInGroup
	Groups      = procfs.Groups
)

// Watch samples the processes carrying a marker in the background, so a
// case learns every agent process (and its group) it caused, including
// short-lived ones, without a hook in the code under test.
type Watch struct {
	marker string
	stop   chan struct{}
	done   chan struct{}

	mu   sync.Mutex
	seen map[int]Proc // by pid
	err  error
}

// StartWatch begins sampling every interval.
func StartWatch(marker string, interval time.Duration) *Watch {
	w := &Watch{marker: marker, stop: make(chan struct{}), done: make(chan struct{}), seen: map[int]Proc{}}
	go func() {
		defer close(w.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			w.Sample()
			select {
			case <-w.stop:
				return
			case <-t.C:
			}
		}
	}()
	return w
}

// Sample takes one sample now (also useful right after an event that
// proves an agent is running). It looks only at this process's
// descendants, which keeps sampling cheap; orphans that escaped are the
// business of a final Marked scan.
func (w *Watch) Sample() {
	ps, err := Descendants(os.Getpid())
	ps = procfs.FilterMarked(ps, w.marker)
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		w.err = err
		return
	}
	for _, p := range ps {
		w.seen[p.PID] = p // the latest sighting: past exec, in its own group
	}
}

// Stop ends sampling and returns every process seen, by pid.
func (w *Watch) Stop() ([]Proc, error) {
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
	<-w.done
	return w.Seen()
}

// Seen returns the processes seen so far, sorted by pid.
func (w *Watch) Seen() ([]Proc, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]Proc, 0, len(w.seen))
	for _, p := range w.seen {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out, w.err
}
