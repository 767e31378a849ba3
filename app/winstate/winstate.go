// Package winstate remembers the window's size and place between runs
// (window.json in the app's config folder) and holds the window's size
// limits.
package winstate

import (
	"encoding/json"
	"os"
	"path/filepath"

	"cdxtheme/core/paths"
)

// State is the window's size and position, remembered between runs.
type State struct {
	X, Y          int
	Width, Height int
	Maximised     bool
}

// Window size limits: the smallest is the one the layout is tested at
// (e2e/tests/comfort.test.mjs: nothing wider than the window at 800×600),
// so a user can make the window as small as it is known to work.
const (
	MinWidth      = 800
	MinHeight     = 600
	DefaultWidth  = 1360
	DefaultHeight = 860
)

// Path is window.json.
func Path() string { return filepath.Join(paths.ConfigDir(), "window.json") }

// Load reads the remembered window; anything missing, corrupt
// or smaller than the minimum gives the defaults (never an error: a bad
// file must not keep the app from opening).
func Load(path string) State {
	def := State{Width: DefaultWidth, Height: DefaultHeight, X: -1, Y: -1}
	b, err := os.ReadFile(path)
	if err != nil {
		return def
	}
	var s State
	if json.Unmarshal(b, &s) != nil || s.Width < MinWidth || s.Height < MinHeight || s.Width > 16384 || s.Height > 16384 {
		return def
	}
	return s
}

// Closing is what is remembered of the window as it closes (now):
// a maximised window keeps the last normal geometry (prev), so that
// un-maximising it after the next start gives back that size, not a
// screen-sized one.
func Closing(now, prev State) State {
	if now.Maximised {
		now.X, now.Y, now.Width, now.Height = prev.X, prev.Y, prev.Width, prev.Height
	}
	return now
}

// Save remembers the window for the next start.
func Save(path string, s State) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return paths.WriteFileAtomic(path, b, 0o600)
}
