// Package searchindex keeps the full-text index of the current Codex
// home's sessions (core/search) up to date: an update runs in the
// background at start and whenever the library is listed (at most every
// refreshEvery), one at a time, and its progress and failures are told.
package searchindex

import (
	"context"
	"errors"
	"sync"
	"time"

	"cdxtheme/core/codexhome"
	"cdxtheme/core/search"

	"github.com/rs/zerolog"
)

// Status is how the full-text index is doing (app.Status, the
// "search-index" event's payload, has its fields).
type Status struct {
	Building bool   `json:"building"`
	First    bool   `json:"first"` // the first build: text search sees only part of the sessions
	Done     int    `json:"done"`
	Total    int    `json:"total"`
	Changed  bool   `json:"changed"` // the last update changed what a search finds
	Error    string `json:"error,omitempty"`
}

// Indexer keeps the search index of the current Codex home current.
type Indexer struct {
	// Log is where a failed update is told (a pointer: the app's logger
	// may be replaced after the indexer is made).
	Log *zerolog.Logger
	// Told receives the status when it is worth telling the page.
	Told func(Status)

	mu      sync.Mutex
	dir     string
	ix      *search.Index
	running bool
	again   bool
	last    time.Time
	status  Status
	ctx     context.Context
	stop    context.CancelFunc
	wg      sync.WaitGroup
}

const (
	refreshEvery  = 10 * time.Second
	progressEvery = 200 * time.Millisecond
)

// Open returns the open index of h, opening it (and closing the
// one of another home) as needed; nil, with why, when it cannot be opened
// (nil alone while another home's update winds down).
func (x *Indexer) Open(h codexhome.Home) (*search.Index, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.ix != nil && x.dir == h.Dir {
		return x.ix, nil
	}
	if x.ctx == nil {
		x.ctx, x.stop = context.WithCancel(context.Background())
	}
	if x.ix != nil {
		if x.running {
			return nil, nil // the old home's update is still winding down
		}
		x.ix.Close()
		x.ix = nil
	}
	ix, err := search.Open(x.ctx, search.Path(h), h)
	if err != nil {
		x.status.Error = err.Error()
		x.Log.Warn().Err(err).Msg("search index unavailable; searching titles only")
		return nil, err
	}
	x.ix, x.dir, x.status = ix, h.Dir, Status{}
	return ix, nil
}

// Err is why the index's last update failed ("" when it did not).
func (x *Indexer) Err() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.status.Error == "" {
		return nil
	}
	return errors.New(x.status.Error)
}

// Refresh starts a background update of h's index unless one ran just
// now (force: even then); one asked for while another runs follows it.
func (x *Indexer) Refresh(h codexhome.Home, force bool) {
	if !h.Exists() {
		return
	}
	ix, _ := x.Open(h)
	if ix == nil {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.running {
		x.again = x.again || force
		return
	}
	if !force && time.Since(x.last) < refreshEvery {
		return
	}
	x.running = true
	x.wg.Add(1)
	go x.run(ix)
}

func (x *Indexer) run(ix *search.Index) {
	defer x.wg.Done()
	for {
		var sent time.Time
		st, err := ix.Update(x.ctx, func(p search.Progress) {
			x.mu.Lock()
			x.status = Status{Building: true, First: p.First, Done: p.Done, Total: p.Total}
			status := x.status
			x.mu.Unlock()
			// Only a long update is worth a progress bar; a few changed
			// files are done before it would show.
			if p.First && (time.Since(sent) >= progressEvery || p.Done == p.Total) {
				sent = time.Now()
				x.Told(status)
			}
		})
		x.mu.Lock()
		x.status = Status{Changed: st.Indexed+st.Removed > 0}
		if err != nil && x.ctx.Err() == nil {
			x.status.Error = err.Error()
			x.Log.Warn().Err(err).Msg("update the search index")
		}
		status := x.status
		x.last = time.Now()
		again := x.again && x.ctx.Err() == nil
		x.again = false
		x.running = again
		x.mu.Unlock()
		if status.Changed || status.Error != "" || !sent.IsZero() {
			x.Told(status)
		}
		if !again {
			return
		}
	}
}

// Status is whether the index is being built (Home shows the first
// build's progress) and why its last update failed.
func (x *Indexer) Status() Status {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.status
}

// Wait waits for the update running now (none: returns at once).
func (x *Indexer) Wait() { x.wg.Wait() }

// Fail records that an update failed with err, as a failed update does
// (tests stand in for a full disk with it).
func (x *Indexer) Fail(err error) {
	x.mu.Lock()
	x.status.Error = err.Error()
	x.mu.Unlock()
}

// Stop cancels a running update and closes the index.
func (x *Indexer) Stop() {
	x.mu.Lock()
	if x.stop != nil {
		x.stop()
	}
	x.mu.Unlock()
	x.wg.Wait()
	x.mu.Lock()
	if x.ix != nil {
		x.ix.Close()
		x.ix = nil
	}
	x.mu.Unlock()
}
