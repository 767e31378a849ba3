package watchset

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
)

// Past Max the least recently used watcher stops, a watcher started again
// becomes the most recent instead of a second one, and a failed one is
// forgotten (so the next open tries again) with its error told.
func TestWatchersAreBoundedAndRetried(t *testing.T) {
	var s Set
	var live atomic.Int32
	watch := func(ctx context.Context) error {
		live.Add(1)
		defer live.Add(-1)
		<-ctx.Done()
		return ctx.Err()
	}
	never := func(err error) { t.Errorf("a stopped watcher was told as failed: %v", err) }
	for i := range Max + 4 {
		s.Start(fmt.Sprint(i), watch, never)
	}
	s.Start("5", watch, never)
	ids := s.IDs()
	if len(ids) != Max || ids[len(ids)-1] != "5" || slices.Contains(ids, "0") {
		t.Fatalf("watching %v", ids)
	}
	failed := make(chan error, 1)
	s.Start("broken", func(context.Context) error { return errors.New("no inotify") }, func(err error) { failed <- err })
	if err := <-failed; err.Error() != "no inotify" || slices.Contains(s.IDs(), "broken") {
		t.Fatalf("told %v; watching %v (a failed watcher is forgotten)", err, s.IDs())
	}
	s.StopAll()
	if n := live.Load(); n != 0 || len(s.IDs()) != 0 {
		t.Fatalf("%d watchers still run after StopAll (%v)", n, s.IDs())
	}
}
