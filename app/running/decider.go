package running

import (
	"context"
	"fmt"
	"sync"

	"cdxtheme/core/permission"
)

// Decider hands permission requests to the page (the engine has already
// emitted the "permission" event) and waits for its Answer.
type Decider struct {
	mu      sync.Mutex
	waiting map[string]chan string
}

// NewDecider is a Decider with no request waiting.
func NewDecider() *Decider { return &Decider{waiting: map[string]chan string{}} }

// Decide waits for the page's answer to the request, or for ctx's end.
func (d *Decider) Decide(ctx context.Context, _ string, p permission.Permission) (string, error) {
	ch := make(chan string, 1)
	d.mu.Lock()
	d.waiting[p.RequestID] = ch
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		delete(d.waiting, p.RequestID)
		d.mu.Unlock()
	}()
	select {
	case opt := <-ch:
		return opt, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Answer gives the page's answer (an option id; "" cancels) to a waiting
// request.
func (d *Decider) Answer(requestID, optionID string) error {
	d.mu.Lock()
	ch := d.waiting[requestID]
	d.mu.Unlock()
	if ch == nil {
		return fmt.Errorf("no open permission request %s", requestID)
	}
	select {
	case ch <- optionID:
	default:
	}
	return nil
}
