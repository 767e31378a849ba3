// Package themewatch keeps what the preview shows of a workspace's
// theme.json (State: the theme, why the file is broken, its contrast
// checks and resolved roles) and the watcher that reads the file again
// after every settled change.
package themewatch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"
	"time"

	"cdxtheme/core/contrast"
	"cdxtheme/core/fsread"
	"cdxtheme/core/theme"

	"github.com/fsnotify/fsnotify"
)

// Debounce is how long the watcher waits after the last change to
// theme.json before reading it, so a burst of writes is read once.
const Debounce = 50 * time.Millisecond

// State is what the preview shows for a workspace: the theme (the last good
// one when the file is currently broken), why the file is broken, and the
// contrast checks of the theme shown.
type State struct {
	// The page reads the document as JSON (a Color is "#rrggbb" there).
	Theme  *theme.Theme     `json:"theme" ts_type:"{[key: string]: unknown}"`
	Error  string           `json:"error"`
	Checks []contrast.Check `json:"checks"`
	// Roles is every role of the catalogue as the theme paints it (set or
	// derived), so the preview and the colour editor need no rules of
	// their own.
	Roles []theme.RoleValue `json:"roles"`
	// Companion is the theme's other appearance as the preview shows it
	// (family.go); nil when the theme has none.
	Companion *State `json:"companion,omitempty"`
}

// withCompanion fills in the companion's state from the theme's.
func (st State) withCompanion() State {
	if st.Theme != nil && st.Theme.Companion != nil {
		c := st.Theme.Companion
		st.Companion = &State{Theme: c, Checks: contrast.Checks(c), Roles: c.Values()}
	}
	return st
}

// Load reads dir/theme.json once. A missing file is an empty State, not an
// error: a new workspace has no theme yet.
func Load(dir string) State {
	var w watchState
	st, _ := w.read(filepath.Join(dir, theme.FileName), false)
	return st
}

// Watch calls fn with the current State of dir/theme.json, then again after
// every change, until ctx is done. It watches the directory rather than the
// file because agents and editors replace the file by renaming a temporary
// one over it. fn is called from one goroutine. Watch returns nil when ctx
// ends and an error only when the directory cannot be watched.
func Watch(ctx context.Context, dir string, fn func(State)) error {
	return WatchLocked(ctx, dir, nil, fn)
}

// WatchLocked is Watch with every read of theme.json made while holding
// mu (released before fn runs). The read shares delete access
// (core/fsread), so on Windows 10 and later a rename with POSIX semantics
// replaces the file under it; but a classic rename (MoveFileEx, a
// filesystem without POSIX renames, Wine) cannot replace a file any handle
// has open ("Access is denied"), so a program that both watches
// theme.json and replaces it must not let the two overlap: it passes the
// lock its writes take.
func WatchLocked(ctx context.Context, dir string, mu sync.Locker, fn func(State)) error {
	return watchLocked(ctx, dir, mu, Debounce, fn)
}

// watchLocked is WatchLocked settling bursts for debounce.
func watchLocked(ctx context.Context, dir string, mu sync.Locker, debounce time.Duration, fn func(State)) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch %s: %w", dir, err)
	}
	defer w.Close()
	if err := w.Add(dir); err != nil {
		return fmt.Errorf("watch %s: %w", dir, err)
	}
	path := filepath.Join(dir, theme.FileName)
	var ws watchState
	read := func(wholeOnly bool) (State, bool) {
		if mu != nil {
			mu.Lock()
			defer mu.Unlock()
		}
		return ws.read(path, wholeOnly)
	}
	emit := func() {
		if st, changed := read(false); changed {
			fn(st)
		}
	}
	emit()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	// settling is whether the timer runs. The first event after a quiet
	// spell reads the file at once and reports it only when it is a
	// whole, valid theme (a rename into place, as agents and the app's
	// own edits write: a half-written JSON document never parses); the
	// rest of a burst, and any error, wait for the settle as before. It
	// takes the settle off a live update into the programs (issue #39).
	// A locked colour is then often restored while the agent's turn still
	// runs rather than at its end; the app's closing warning is the same
	// either way (app.Editor.enforceLocks).
	settling := false
	settle := func() {
		if !settling {
			if st, changed := read(true); changed {
				fn(st)
			}
		}
		settling = true
		timer.Reset(debounce)
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if filepath.Base(ev.Name) == theme.FileName {
				settle()
			}
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				// Events were lost; the file may have changed.
				settling = true
				timer.Reset(debounce)
			}
		case <-timer.C:
			settling = false
			emit()
		}
	}
}

// watchState remembers the last good theme and what was last reported, so
// a broken file keeps the preview and unchanged content is not re-sent.
type watchState struct {
	good     *theme.Theme
	checks   []contrast.Check
	data     []byte
	existed  bool
	reported bool
	lastErr  string
	missing  bool
}

// read reports the file when it changed; wholeOnly reports it only when
// it holds a valid theme, and otherwise leaves the state as it was.
func (w *watchState) read(path string, wholeOnly bool) (State, bool) {
	data, err := fsread.ReadFile(path, theme.MaxFileSize, fsread.NoFollow)
	if wholeOnly && err != nil {
		return State{}, false
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if w.reported && w.missing {
			return State{}, false
		}
		w.missing, w.data = true, nil
		w.lastErr = ""
		if w.existed {
			w.lastErr = theme.FileName + " was deleted"
		}
	case err != nil:
		w.missing, w.data = false, nil
		w.lastErr = err.Error() // names the file and why (a link, a FIFO, too large)
	default:
		if w.reported && !w.missing && bytes.Equal(data, w.data) {
			return State{}, false
		}
		t, perr := theme.Parse(data)
		if wholeOnly && perr != nil {
			return State{}, false
		}
		w.missing, w.existed, w.data = false, true, data
		if perr != nil {
			w.lastErr = perr.Error()
		} else {
			w.good, w.checks, w.lastErr = t, contrast.Checks(t), ""
		}
	}
	w.reported = true
	checks := w.checks
	if checks == nil {
		checks = []contrast.Check{} // the UI gets "checks": [] rather than null
	}
	roles := []theme.RoleValue{}
	if w.good != nil {
		roles = w.good.Values()
	}
	return State{Theme: w.good, Error: w.lastErr, Checks: checks, Roles: roles}.withCompanion(), true
}

// StateOf is the preview state of a theme document held in memory (an
// older version from a checkpoint), as Load gives for the file on disk.
func StateOf(data []byte) State {
	t, err := theme.Parse(data)
	if err != nil {
		return State{Error: err.Error(), Checks: []contrast.Check{}, Roles: []theme.RoleValue{}}
	}
	return State{Theme: t, Checks: contrast.Checks(t), Roles: t.Values()}.withCompanion()
}
