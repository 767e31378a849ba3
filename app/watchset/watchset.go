// Package watchset keeps one watcher per recently used workspace, at most
// Max: each watcher holds an inotify instance, a per-user resource other
// programs need too, so the workspaces used last keep theirs and opening
// another again starts its watcher anew.
package watchset

import (
	"context"
	"errors"
	"slices"
	"sync"
)

// Max bounds the watchers.
const Max = 16

// Set is the watchers running now, by workspace id.
type Set struct {
	mu     sync.Mutex
	cancel map[string]context.CancelFunc
	order  []string // least recently used first
	// running counts the watch goroutines: a watcher's callback in flight
	// may still change the workspace (a build following its theme's
	// name), which must be over before the app (or a test) lets go of the
	// data folder.
	running sync.WaitGroup
}

// Start runs watch for id on a goroutine of its own unless it runs
// already (id then becomes the most recently used); past Max the least
// recently used watcher stops. A watcher that fails (not stopped) is
// forgotten, so the next Start tries again, and its error goes to failed.
func (s *Set) Start(id string, watch func(ctx context.Context) error, failed func(error)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel == nil {
		s.cancel = map[string]context.CancelFunc{}
	}
	if i := slices.Index(s.order, id); i >= 0 {
		s.order = append(slices.Delete(s.order, i, i+1), id)
		return
	}
	for len(s.order) >= Max {
		old := s.order[0]
		s.order = s.order[1:]
		s.cancel[old]()
		delete(s.cancel, old)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel[id] = cancel
	s.order = append(s.order, id)
	s.running.Add(1)
	go func() {
		defer s.running.Done()
		err := watch(ctx)
		if err == nil || errors.Is(err, context.Canceled) {
			return
		}
		s.mu.Lock()
		if i := slices.Index(s.order, id); i >= 0 && ctx.Err() == nil {
			s.order = slices.Delete(s.order, i, i+1)
			delete(s.cancel, id)
		}
		s.mu.Unlock()
		failed(err)
	}()
}

// Stop stops id's watcher.
func (s *Set) Stop(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.cancel[id]; ok {
		c()
		delete(s.cancel, id)
	}
}

// StopAll stops every watcher and waits for them to end.
func (s *Set) StopAll() {
	s.mu.Lock()
	for id, c := range s.cancel {
		c()
		delete(s.cancel, id)
	}
	s.order = nil
	s.mu.Unlock()
	s.running.Wait()
}

// IDs lists the workspaces with a watcher, least recently used first.
func (s *Set) IDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.order)
}
