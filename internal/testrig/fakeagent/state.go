package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// session is what the fake agent remembers between processes.
type session struct {
	ID        string         `json:"sessionId"`
	Cwd       string         `json:"cwd"`
	Title     string         `json:"title,omitempty"`
	UpdatedAt string         `json:"updatedAt"`
	Mode      string         `json:"mode"`
	Config    map[string]any `json:"config"`           // configId -> string or bool
	Extras    bool           `json:"extras,omitempty"` // the "options" scenario's extra config options are on
	History   []turnMessage  `json:"history,omitempty"`
	// MCP are the MCP servers the client gave when it last opened the
	// session (session/new|load|resume), as it sent them.
	MCP []json.RawMessage `json:"mcp,omitempty"`
}

type turnMessage struct {
	Role string `json:"role"` // user | agent
	Text string `json:"text"`
}

// store keeps one JSON file per session in dir, so several fake agent
// processes (tests run in parallel) never fight over one file.
type store struct {
	mu  sync.Mutex
	dir string
}

func newStore(dir string) (*store, error) {
	if err := os.MkdirAll(filepath.Join(dir, "sessions"), 0o755); err != nil {
		return nil, fmt.Errorf("state dir: %w", err)
	}
	return &store{dir: dir}, nil
}

func (s *store) path(id string) string {
	return filepath.Join(s.dir, "sessions", id+".json")
}

func validID(id string) bool {
	return id != "" && !strings.ContainsAny(id, `/\.`) && len(id) < 200
}

func (s *store) get(id string) (*session, error) {
	if !validID(id) {
		return nil, fs.ErrNotExist
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := os.ReadFile(s.path(id))
	if err != nil {
		return nil, err
	}
	var ss session
	if err := json.Unmarshal(b, &ss); err != nil {
		return nil, fmt.Errorf("session %s: %w", id, err)
	}
	if ss.Config == nil {
		ss.Config = map[string]any{}
	}
	return &ss, nil
}

func (s *store) put(ss *session) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := json.MarshalIndent(ss, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Join(s.dir, "sessions"), ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), s.path(ss.ID))
}

// list returns sessions newest first, optionally only those in cwd.
func (s *store) list(cwd string) ([]*session, error) {
	entries, err := os.ReadDir(filepath.Join(s.dir, "sessions"))
	if err != nil {
		return nil, err
	}
	var out []*session
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
			continue
		}
		ss, err := s.get(strings.TrimSuffix(name, ".json"))
		if err != nil {
			continue // a damaged file hides one session, not all
		}
		if cwd != "" && ss.Cwd != cwd {
			continue
		}
		out = append(out, ss)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].UpdatedAt > out[j].UpdatedAt })
	return out, nil
}

func (s *store) authenticated() bool {
	_, err := os.Stat(filepath.Join(s.dir, "authenticated"))
	return err == nil
}

func (s *store) setAuthenticated(method string) error {
	return os.WriteFile(filepath.Join(s.dir, "authenticated"), []byte(method+"\n"), 0o644)
}

var errNoSession = errors.New("session not found")

// clearAuthenticated undoes setAuthenticated (logout).
func (s *store) clearAuthenticated() error {
	err := os.Remove(filepath.Join(s.dir, "authenticated"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}
