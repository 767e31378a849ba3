package app

import (
	"context"
	"errors"
	"sync"
	"time"

	"cdxtheme/core/codexhome"
	"cdxtheme/core/search"
)

// IndexStatus is the payload of the "search-index" event and of
// SearchStatus: how the full-text index is doing.
type IndexStatus struct {
	Building bool   `json:"building"`
	First    bool   `json:"first"` // the first build: text search sees only part of the sessions
	Done     int    `json:"done"`
	Total    int    `json:"total"`
	Changed  bool   `json:"changed"` // the last update changed what a search finds
	Error    string `json:"error,omitempty"`
}

// indexer keeps the search index of the current Codex home current: an
// update runs in the background at start and whenever the library is
// listed (at most every refreshEvery), one at a time.
type indexer struct {
	mu      sync.Mutex
	dir     string
	ix      *search.Index
	running bool
	again   bool
	last    time.Time
	status  IndexStatus
	ctx     context.Context
	stop    context.CancelFunc
	wg      sync.WaitGroup
}

const (
	refreshEvery  = 10 * time.Second
	progressEvery = 200 * time.Millisecond
)

// searchIndex returns the open index of h, opening it (and closing the
// one of another home) as needed; nil, with why, when it cannot be opened
// (nil alone while another home's update winds down).
func (li *Library) searchIndex(h codexhome.Home) (*search.Index, error) {
	x := &li.lib.index
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
		li.log.Warn().Err(err).Msg("search index unavailable; searching titles only")
		return nil, err
	}
	x.ix, x.dir, x.status = ix, h.Dir, IndexStatus{}
	return ix, nil
}

// indexError is why the index's last update failed ("" when it did not).
func (li *Library) indexError() error {
	x := &li.lib.index
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.status.Error == "" {
		return nil
	}
	return errors.New(x.status.Error)
}

// refreshIndex starts a background update unless one ran just now; one
// asked for while another runs follows it.
func (li *Library) refreshIndex(force bool) {
	h := li.settings.home()
	if !h.Exists() {
		return
	}
	ix, _ := li.searchIndex(h)
	if ix == nil {
		return
	}
	x := &li.lib.index
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
	go li.runIndex(ix)
}

func (li *Library) runIndex(ix *search.Index) {
	x := &li.lib.index
	defer x.wg.Done()
	for {
		var sent time.Time
		st, err := ix.Update(x.ctx, func(p search.Progress) {
			x.mu.Lock()
			x.status = IndexStatus{Building: true, First: p.First, Done: p.Done, Total: p.Total}
			status := x.status
			x.mu.Unlock()
			// Only a long update is worth a progress bar; a few changed
			// files are done before it would show.
			if p.First && (time.Since(sent) >= progressEvery || p.Done == p.Total) {
				sent = time.Now()
				li.emit.Emit("search-index", status)
			}
		})
		x.mu.Lock()
		x.status = IndexStatus{Changed: st.Indexed+st.Removed > 0}
		if err != nil && x.ctx.Err() == nil {
			x.status.Error = err.Error()
			li.log.Warn().Err(err).Msg("update the search index")
		}
		status := x.status
		x.last = time.Now()
		again := x.again && x.ctx.Err() == nil
		x.again = false
		x.running = again
		x.mu.Unlock()
		if status.Changed || status.Error != "" || !sent.IsZero() {
			li.emit.Emit("search-index", status)
		}
		if !again {
			return
		}
	}
}

// SearchStatus tells the UI whether the index is being built (Home shows
// the first build's progress).
func (li *Library) SearchStatus() IndexStatus {
	x := &li.lib.index
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.status
}

// stopIndex cancels a running update and closes the index.
func (li *Library) stopIndex() {
	x := &li.lib.index
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
