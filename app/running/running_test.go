package running

import (
	"context"
	"fmt"
	"testing"

	"cdxtheme/core/permission"
)

// A turn id the page chose is one turn's: a second turn under it, running
// or kept for a retry, is refused, and the workspace is busy only while
// its turn runs.
func TestAnIDIsOneTurns(t *testing.T) {
	var s Set[string]
	id, err := s.Start("t-1", New("ws"))
	if err != nil || id != "t-1" || !s.Busy("ws") || s.Busy("other") {
		t.Fatalf("start: %q, %v; busy %v", id, err, s.Busy("ws"))
	}
	if _, err := s.Start("t-1", New("ws")); err == nil {
		t.Fatal("a second turn took a running turn's id")
	}
	s.End("t-1")
	s.KeepForRetry("t-1", "again")
	if _, err := s.Start("t-1", New("ws")); err == nil || s.Busy("ws") {
		t.Fatalf("a turn kept for a retry lost its id (%v), or ws is busy", err)
	}
	if p, ok := s.TakeRetry("t-1"); !ok || p != "again" {
		t.Fatalf("retry: %q, %v", p, ok)
	}
	if _, ok := s.TakeRetry("t-1"); ok {
		t.Fatal("a retry was handed over twice")
	}
	if made, err := s.Start("", New("")); err != nil || CheckID(made) != nil {
		t.Fatalf("made id %q: %v", made, err)
	}
	for _, bad := range []string{"a b", "<script>", string(make([]byte, MaxID+1))} {
		if CheckID(bad) == nil {
			t.Errorf("CheckID(%q) accepted it", bad)
		}
	}
}

// Past the bound the oldest turn kept for a retry is forgotten.
func TestRetriesAreBounded(t *testing.T) {
	var s Set[int]
	for i := range MaxRetryable + 1 {
		s.KeepForRetry(fmt.Sprint(i), i)
	}
	if _, ok := s.TakeRetry("0"); ok {
		t.Fatal("the oldest retry was kept past the bound")
	}
	if p, ok := s.TakeRetry(fmt.Sprint(MaxRetryable)); !ok || p != MaxRetryable {
		t.Fatal("the newest retry was lost")
	}
}

// The page's answer reaches the request waiting for it; an answer to no
// open request is an error, and a cancelled turn stops waiting.
func TestDeciderWaitsForThePage(t *testing.T) {
	d := NewDecider()
	if d.Answer("r1", "allow") == nil {
		t.Fatal("an answer to no request was taken")
	}
	got := make(chan string)
	go func() {
		opt, _ := d.Decide(context.Background(), "s", permission.Permission{RequestID: "r1"})
		got <- opt
	}()
	for d.Answer("r1", "allow") != nil {
		// the request is not registered yet
	}
	if opt := <-got; opt != "allow" {
		t.Fatalf("decided %q", opt)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := d.Decide(ctx, "s", permission.Permission{RequestID: "r2"}); err == nil {
		t.Fatal("a cancelled turn went on waiting")
	}
}
