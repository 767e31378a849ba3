// Package drops keeps the latest file drop from another program until the
// page takes it: the page names it by a token and never sees or names the
// paths, so it can import only what the user dropped, once.
package drops

import (
	"crypto/rand"
	"encoding/hex"
	"path/filepath"
	"sync"
)

// Drop is what the page is told of a drop: its token, where it landed and
// the files' base names (for messages). app.FileDrop has its fields.
type Drop struct {
	Token string   `json:"token"`
	X     int      `json:"x"`
	Y     int      `json:"y"`
	Names []string `json:"names"` // base names, for messages
}

// Latest holds the latest drop until the page takes it.
type Latest struct {
	mu    sync.Mutex
	token string
	paths []string
}

// Keep keeps the absolute paths of a drop at x, y in place of the last
// one and returns what the page is told (ok false: no path to keep).
func (l *Latest) Keep(x, y int, paths []string) (Drop, bool) {
	var kept []string
	for _, p := range paths {
		if p != "" && filepath.IsAbs(p) {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return Drop{}, false
	}
	var r [12]byte
	rand.Read(r[:])
	d := Drop{Token: hex.EncodeToString(r[:]), X: x, Y: y}
	for _, p := range kept {
		d.Names = append(d.Names, filepath.Base(p))
	}
	l.mu.Lock()
	l.token, l.paths = d.Token, kept
	l.mu.Unlock()
	return d, true
}

// Take hands over the paths of the drop token names, once, and only the
// latest drop's (ok false: that drop is gone).
func (l *Latest) Take(token string) (paths []string, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if token == "" || token != l.token {
		return nil, false
	}
	paths = l.paths
	l.token, l.paths = "", nil
	return paths, true
}
