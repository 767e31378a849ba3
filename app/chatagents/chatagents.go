// Package chatagents remembers which agent each workspace's chat and each
// session runs (chat-agents.json in the app's config folder), so a
// follow-up after a restart goes to the agent that holds the session.
package chatagents

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"cdxtheme/core/damaged"
	"cdxtheme/core/paths"

	"github.com/rs/zerolog"
)

// file is chat-agents.json.
type file struct {
	Workspaces map[string]string `json:"workspaces"`
	Sessions   map[string]string `json:"sessions"`
}

// Path is chat-agents.json.
func Path() string { return filepath.Join(paths.ConfigDir(), "chat-agents.json") }

// Map is which agent runs each chat, read from disk the first time it is
// asked.
type Map struct {
	// Log is where a file that cannot be read or saved is told (a
	// pointer: the app's logger may be replaced after the map is made).
	Log       *zerolog.Logger
	mu        sync.Mutex
	wsAgent   map[string]string // workspace id → agent id its chat runs
	sessAgent map[string]string // session id → agent id
	// kept: chat-agents.json could not be read or set aside; it is never
	// saved over.
	kept bool
}

// load fills the maps from disk once. A file that does not parse is set
// aside (core/damaged) and reported, and the default agent is used; one
// that cannot be read, or set aside, is never saved over (kept). Called
// with mu held.
func (m *Map) load() {
	if m.wsAgent != nil {
		return
	}
	var c file
	path := Path()
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		m.kept = true
		m.Log.Warn().Err(err).Msg("chat-agents.json unreadable; chats use the default agent and it is left as it is")
	default:
		if perr := json.Unmarshal(b, &c); perr != nil {
			err := damaged.Handle(path, fmt.Errorf("parse chat agents: %w", perr))
			m.kept = !errors.As(err, new(*damaged.Error))
			m.Log.Warn().Err(err).Msg("chat-agents.json damaged; chats use the default agent")
			c = file{}
		}
	}
	m.wsAgent, m.sessAgent = c.Workspaces, c.Sessions
	if m.wsAgent == nil {
		m.wsAgent = map[string]string{}
	}
	if m.sessAgent == nil {
		m.sessAgent = map[string]string{}
	}
}

// save writes the maps, unless the file on disk is one that could not be
// read or set aside. Called with mu held.
func (m *Map) save() {
	if m.kept {
		return
	}
	b, err := json.Marshal(file{Workspaces: m.wsAgent, Sessions: m.sessAgent})
	if err == nil {
		err = paths.WriteFileAtomic(Path(), b, 0o600)
	}
	if err != nil {
		m.Log.Warn().Err(err).Msg("remember which agent runs each chat")
	}
}

// Of is the agent the session runs, else the one the workspace's chat
// runs ("" when neither is known).
func (m *Map) Of(sessionID, workspaceID string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.load()
	id := ""
	if sessionID != "" {
		id = m.sessAgent[sessionID]
	}
	if id == "" && workspaceID != "" {
		id = m.wsAgent[workspaceID]
	}
	return id
}

// RunsWorkspace remembers that the workspace's chat runs agentID (a turn
// started there).
func (m *Map) RunsWorkspace(workspaceID, agentID string) {
	m.remember(func() map[string]string { return m.wsAgent }, workspaceID, agentID)
}

// RunsSession remembers that agentID holds the session (its first event
// named it).
func (m *Map) RunsSession(sessionID, agentID string) {
	m.remember(func() map[string]string { return m.sessAgent }, sessionID, agentID)
}

// remember sets key to agentID in the map which picks (read after the
// load, which may replace the maps) and saves only on a change.
func (m *Map) remember(which func() map[string]string, key, agentID string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.load()
	if w := which(); w[key] != agentID {
		w[key] = agentID
		m.save()
	}
}
