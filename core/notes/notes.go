// Package notes keeps what the user says about Codex sessions inside the
// app: their own names for sessions and the ones hidden from the list. It
// lives in the app's data dir; CODEX_HOME belongs to Codex and is never
// written.
package notes

import (
	"cdxtheme/core/damaged"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"cdxtheme/core/paths"
)

const (
	maxTitle = 120  // runes
	maxID    = 4096 // bytes: a listing keys an unreadable file without a uuid by its path
	maxFile  = 16 << 20
)

// Notes is the whole store.
type Notes struct {
	Titles map[string]string `json:"titles"`
	Hidden map[string]bool   `json:"hidden"`
}

// Store is the notes file, read and written whole under a lock.
type Store struct {
	path string
	mu   sync.Mutex
}

// DefaultPath is the notes file in the app's data dir.
func DefaultPath() string { return filepath.Join(paths.DataDir(), "sessions.json") }

// Open returns the store at path (the file is made on the first change).
func Open(path string) *Store { return &Store{path: path} }

// Get reads the notes; a missing file is empty notes, a corrupt one an
// error with empty notes (the list still works).
func (s *Store) Get() (Notes, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.read()
}

func (s *Store) read() (Notes, error) {
	n := Notes{Titles: map[string]string{}, Hidden: map[string]bool{}}
	f, err := os.Open(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return n, nil
	}
	if err != nil {
		return n, fmt.Errorf("read session notes: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxFile {
		return n, fmt.Errorf("read session notes: %s is not a regular file of at most %d MB", s.path, maxFile>>20)
	}
	var got Notes
	if err := json.NewDecoder(f).Decode(&got); err != nil {
		f.Close()
		return n, damaged.Handle(s.path, fmt.Errorf("parse session notes: %w", err))
	}
	for id, t := range got.Titles {
		if validID(id) && t != "" {
			n.Titles[id] = t
		}
	}
	for id, h := range got.Hidden {
		if validID(id) && h {
			n.Hidden[id] = true
		}
	}
	return n, nil
}

func (s *Store) change(fn func(*Notes)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.read()
	if err != nil && !errors.As(err, new(*damaged.Error)) {
		// Unreadable, or damaged and not set aside: never written over.
		return err
	}
	fn(&n)
	b, err := json.MarshalIndent(n, "", "  ")
	if err != nil {
		return fmt.Errorf("write session notes: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o755); err != nil {
		return fmt.Errorf("write session notes: %w", err)
	}
	if err := paths.WriteFileAtomic(s.path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write session notes: %w", err)
	}
	return nil
}

// SetTitle names session id; an empty title removes the user's name (the
// session's own title shows again).
func (s *Store) SetTitle(id, title string) error {
	if !validID(id) {
		return fmt.Errorf("rename session: %q is not a session id", id)
	}
	title = cleanTitle(title)
	return s.change(func(n *Notes) {
		if title == "" {
			delete(n.Titles, id)
		} else {
			n.Titles[id] = title
		}
	})
}

// SetHidden hides session id from the list, or shows it again.
func (s *Store) SetHidden(id string, hidden bool) error {
	if !validID(id) {
		return fmt.Errorf("hide session: %q is not a session id", id)
	}
	return s.change(func(n *Notes) {
		if hidden {
			n.Hidden[id] = true
		} else {
			delete(n.Hidden, id)
		}
	})
}

// validID accepts what Codex uses as ids (uuids), and the file paths a
// listing uses for unreadable files without one.
func validID(id string) bool {
	return id != "" && len(id) <= maxID && utf8.ValidString(id) && strings.IndexFunc(id, unicode.IsControl) < 0
}

// cleanTitle makes one line of at most maxTitle runes.
func cleanTitle(s string) string {
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
	if utf8.RuneCountInString(s) > maxTitle {
		s = strings.TrimSpace(string([]rune(s)[:maxTitle-1])) + "…"
	}
	return s
}
