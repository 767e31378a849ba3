// Package running keeps the agent's turns that run now, by the id the
// page chose for each: which workspace each writes (Busy), how to stop it
// (Cancel) and the permission requests waiting for the page's answer
// (Decider); and the turns that ended needing sign-in, kept to run again
// once the user signed in (Retry).
package running

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
)

// Turn is one turn running now.
type Turn struct {
	ID          string
	WorkspaceID string
	Ctx         context.Context
	Cancel      context.CancelFunc
	Decider     *Decider
}

// New is a turn about to run in workspaceID ("" for none), cancelled by
// its Cancel; its id is set by Set.Start.
func New(workspaceID string) *Turn {
	ctx, cancel := context.WithCancel(context.Background())
	return &Turn{WorkspaceID: workspaceID, Ctx: ctx, Cancel: cancel, Decider: NewDecider()}
}

// MaxRetryable bounds the turns kept for a retry after sign-in.
const MaxRetryable = 16

// Set is the turns running now and those kept for a retry, whose
// parameters are P.
type Set[P any] struct {
	mu         sync.Mutex
	turns      map[string]*Turn
	retry      map[string]P // turns that ended needing sign-in, by turn id
	retryOrder []string     // oldest first, to bound retry
}

// MaxID bounds the id the page chooses for a turn.
const MaxID = 64

// CheckID accepts an id the page chose: short and plain ("" is made
// later, by Start).
func CheckID(id string) error {
	if len(id) > MaxID || strings.Trim(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != "" {
		return fmt.Errorf("turn id %.80q is not an id (letters, digits, - and _, at most %d)", id, MaxID)
	}
	return nil
}

func newID() string {
	var b [8]byte
	rand.Read(b[:])
	return "t-" + hex.EncodeToString(b[:])
}

// Start registers t as running under id, unless a turn has that id
// (running, or kept for a retry); "" makes one. It returns the id.
func (s *Set[P]) Start(id string, t *Turn) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id == "" {
		id = newID()
	} else if _, ok := s.turns[id]; ok {
		return "", fmt.Errorf("turn %s is already running", id)
	} else if _, ok := s.retry[id]; ok {
		return "", fmt.Errorf("turn id %s is taken", id)
	}
	t.ID = id
	if s.turns == nil {
		s.turns = map[string]*Turn{}
	}
	s.turns[id] = t
	return id, nil
}

// End forgets the turn: it no longer runs.
func (s *Set[P]) End(id string) {
	s.mu.Lock()
	delete(s.turns, id)
	s.mu.Unlock()
}

// Get is the running turn of that id, nil when none runs.
func (s *Set[P]) Get(id string) *Turn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.turns[id]
}

// Busy reports whether a turn runs in the workspace now.
func (s *Set[P]) Busy(workspaceID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.turns {
		if t.WorkspaceID == workspaceID {
			return true
		}
	}
	return false
}

// CancelAll cancels every running turn (at quit).
func (s *Set[P]) CancelAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.turns {
		t.Cancel()
	}
}

// KeepForRetry remembers a turn that stopped for sign-in (bounded).
func (s *Set[P]) KeepForRetry(id string, p P) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.retry == nil {
		s.retry = map[string]P{}
	}
	s.retry[id] = p
	s.retryOrder = append(s.retryOrder, id)
	for len(s.retryOrder) > MaxRetryable {
		delete(s.retry, s.retryOrder[0])
		s.retryOrder = s.retryOrder[1:]
	}
}

// TakeRetry hands over a turn kept for retry, once.
func (s *Set[P]) TakeRetry(id string) (P, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.retry[id]
	delete(s.retry, id)
	return p, ok
}
