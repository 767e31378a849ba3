// Package liveswitch keeps which programs each build updates live: the
// switches of the Apply menu, in live.json in the app's data folder
// (never the workspace, which the agent can write). core/live does the
// updating; this only remembers what is turned on.
package liveswitch

import (
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"sync"

	"cdxtheme/core/fsread"
	"cdxtheme/core/paths"

	"github.com/rs/zerolog"
)

// maxBuilds bounds live.json; the builds turned on longest ago go.
const maxBuilds = 64

// Path is live.json.
func Path() string { return filepath.Join(paths.DataDir(), "live.json") }

// Switches are the programs turned on per build, read from live.json the
// first time they are asked for.
type Switches struct {
	// Log is where an unreadable live.json is told (a pointer: the app's
	// logger may be replaced after the switches are made).
	Log    *zerolog.Logger
	mu     sync.Mutex
	loaded bool
	on     map[string][]string // build id → targets turned on
}

// On is the build's programs turned on (a copy).
func (s *Switches) On(build string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.load()
	return slices.Clone(s.on[build])
}

// load reads live.json once; unreadable, live starts all off. Called with
// mu held.
func (s *Switches) load() {
	if s.loaded {
		return
	}
	s.loaded = true
	s.on = map[string][]string{}
	b, err := fsread.ReadFile(Path(), 1<<20, fsread.NoFollow)
	if err == nil {
		err = json.Unmarshal(b, &s.on)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.Log.Warn().Err(err).Msg("live.json unreadable; every program starts off")
		s.on = map[string][]string{}
	}
}

// save writes live.json, past the bound without some build. Called with
// mu held.
func (s *Switches) save() error {
	for len(s.on) > maxBuilds {
		for k := range s.on { // any: a bound, not an order
			delete(s.on, k)
			break
		}
	}
	b, err := json.Marshal(s.on)
	if err != nil {
		return err
	}
	return paths.WriteFileAtomic(Path(), b, 0o600)
}

// Set turns target on or off for the build and saves the switches.
func (s *Switches) Set(build, target string, on bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.load()
	list := slices.DeleteFunc(slices.Clone(s.on[build]), func(t string) bool { return t == target })
	if on {
		list = append(list, target)
	}
	if len(list) == 0 {
		delete(s.on, build)
	} else {
		s.on[build] = list
	}
	return s.save()
}

// Off turns target off for every build (Undo apply ends its live
// updates), saving the switches when that changed them.
func (s *Switches) Off(target string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.load()
	changed := false
	for b, list := range s.on {
		if i := slices.Index(list, target); i >= 0 {
			changed = true
			if list = slices.Delete(slices.Clone(list), i, i+1); len(list) == 0 {
				delete(s.on, b)
			} else {
				s.on[b] = list
			}
		}
	}
	if !changed {
		return nil
	}
	return s.save()
}
