// Package chatmemory is what the app remembers per chat across restarts
// (chat-settings.json): the settings chosen in each chat, what its agent
// last reported, and what a fresh session of each agent starts with.
package chatmemory

import (
	"cdxtheme/core/damaged"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/paths"
)

// maxRememberedChats bounds chat-settings.json: the least recently used
// chats are forgotten first.
const maxRememberedChats = 500

// Memory is what the app remembers per chat (by session id) across
// restarts, so a chat keeps its own settings and shows them before its
// agent is connected:
//   - Choices: the values the user chose in that chat. Agents forget them
//     with their process (codex-acp resumes in its defaults), so they are
//     applied again every time the session is opened.
//   - Reported: the options as the agent last reported them.
//
// Per agent it keeps the options a fresh session starts with, which New
// build shows before the first message. Nothing here is ever a default for
// another chat: that is agents.toml's [agent.defaults], set explicitly.
type Memory struct {
	mu     sync.Mutex
	loaded bool
	dirty  bool
	// kept: the file is damaged and could not be set aside; it is never
	// saved over.
	kept bool
	File File
}

type File struct {
	Sessions map[string]*Entry `json:"sessions"`
	Agents   map[string]*Agent `json:"agents"`
}

type Entry struct {
	Agent    string                `json:"agent,omitempty"`
	Cwd      string                `json:"cwd,omitempty"` // the folder the chat last ran in
	Choices  map[string]any        `json:"choices,omitempty"`
	Reported []acp.ConfigOption    `json:"reported,omitempty"`
	Modes    *acp.SessionModeState `json:"modes,omitempty"`
	Used     time.Time             `json:"used"`
}

// Agent is what a fresh session of an agent reported.
type Agent struct {
	Options []acp.ConfigOption    `json:"options,omitempty"`
	Modes   *acp.SessionModeState `json:"modes,omitempty"`
	Seen    time.Time             `json:"seen"`
}

// Path is chat-settings.json, in the app's config folder.
func Path() string { return filepath.Join(paths.ConfigDir(), "chat-settings.json") }

// load reads the file once; a damaged one is set aside (core/damaged)
// before anything is saved, and reported. Called with mu held.
func (m *Memory) load() error {
	if m.loaded {
		return nil
	}
	m.loaded = true
	m.File = File{Sessions: map[string]*Entry{}, Agents: map[string]*Agent{}}
	b, err := os.ReadFile(Path())
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		m.kept = true // unreadable is not empty: never replace it
	} else {
		var f File
		if perr := json.Unmarshal(b, &f); perr != nil {
			err = damaged.Handle(Path(), fmt.Errorf("parse chat settings: %w", perr))
			m.kept = !errors.As(err, new(*damaged.Error))
		} else {
			for id, e := range f.Sessions {
				if e != nil {
					m.File.Sessions[id] = e
				}
			}
			for id, s := range f.Agents {
				if s != nil {
					m.File.Agents[id] = s
				}
			}
		}
	}
	return err
}

// Entry returns the session's entry, creating it. Called with mu held.
func (m *Memory) Entry(sessionID string) *Entry {
	e := m.File.Sessions[sessionID]
	if e == nil {
		e = &Entry{}
		m.File.Sessions[sessionID] = e
	}
	e.Used = time.Now()
	m.dirty = true
	return e
}

// save writes the file when something changed, dropping the oldest chats
// past the bound. Called with mu held.
func (m *Memory) save() error {
	if !m.dirty {
		return nil
	}
	if m.kept {
		return fmt.Errorf("not saved: the damaged %s could not be set aside", Path())
	}
	if len(m.File.Sessions) > maxRememberedChats {
		ids := make([]string, 0, len(m.File.Sessions))
		for id := range m.File.Sessions {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return m.File.Sessions[ids[i]].Used.After(m.File.Sessions[ids[j]].Used) })
		for _, id := range ids[maxRememberedChats:] {
			delete(m.File.Sessions, id)
		}
	}
	b, err := json.Marshal(m.File)
	if err == nil {
		err = paths.WriteFileAtomic(Path(), b, 0o600)
	}
	if err == nil {
		m.dirty = false
	}
	return err
}

// SetChoice records a value chosen in a chat (nil forgets it), replacing any
// other key that names the same option (an id and its category).
func (e *Entry) SetChoice(configID string, value any) {
	if e.Choices == nil {
		e.Choices = map[string]any{}
	}
	target, found := ResolveOption(e.Reported, configID)
	for k := range e.Choices {
		if k == configID {
			continue
		}
		if o, ok := ResolveOption(e.Reported, k); found && ok && o.ID == target.ID {
			delete(e.Choices, k)
		}
	}
	if value == nil {
		delete(e.Choices, configID)
		if found {
			delete(e.Choices, target.ID)
		}
		return
	}
	if found {
		delete(e.Choices, configID)
		configID = target.ID
	}
	e.Choices[configID] = value
}

// ResolveOption finds the option a settings key names: by id, else by category.
func ResolveOption(opts []acp.ConfigOption, key string) (acp.ConfigOption, bool) {
	if o, ok := acp.FindConfigOption(opts, "", key); ok {
		return o, true
	}
	return acp.FindConfigOption(opts, key, "")
}

// Use runs f on the loaded memory and saves what it changed. f runs even
// when the file could not be read (over what is known: nothing); the
// errors say why the chats start from the agents' defaults (load) and why
// a change was not kept (save).
func (m *Memory) Use(f func(m *Memory)) (loadErr, saveErr error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	loadErr = m.load()
	f(m)
	return loadErr, m.save()
}

// Noted reports whether ev says something of a chat's settings that Note
// keeps.
func Noted(ev chat.Event) bool {
	if ev.SessionID == "" {
		return false
	}
	switch ev.Payload.(type) {
	case chat.SessionSetup, chat.ConfigOptionsUpdate, chat.ModeChanged, chat.OptionRefused:
		return true
	}
	return false
}

// Note records what the agent (agentID, running in cwd) reports about a
// chat's settings as the events of a turn go by; fresh is true for a turn
// that created the session, whose first report is what the agent starts
// sessions with, and options are the values that turn was started with.
func (m *Memory) Note(ev chat.Event, agentID, cwd string, options map[string]any, fresh *bool) {
	e := m.Entry(ev.SessionID)
	e.Agent, e.Cwd = agentID, cwd
	switch pl := ev.Payload.(type) {
	case chat.SessionSetup:
		if pl.Setup == nil {
			return
		}
		// The whole state the agent holds now: what it no longer
		// reports is not shown again.
		setup := *pl.Setup
		e.Reported, e.Modes = setup.ConfigOptions, setup.Modes
		if e.Reported == nil {
			e.Reported = []acp.ConfigOption{}
		}
		if *fresh {
			*fresh = false
			m.File.Agents[agentID] = &Agent{Options: setup.ConfigOptions, Modes: setup.Modes, Seen: time.Now()}
			// The build's values go under the ids this agent uses.
			for k, v := range options {
				e.SetChoice(k, v)
			}
		}
	case chat.ConfigOptionsUpdate:
		e.Reported = pl.ConfigOptions
		if e.Reported == nil {
			e.Reported = []acp.ConfigOption{}
		}
	case chat.ModeChanged:
		if pl.Mode != "" && e.Modes != nil {
			ms := *e.Modes
			ms.CurrentModeID = pl.Mode
			e.Modes = &ms
		}
	case chat.OptionRefused:
		// The agent will not take it: asking again every turn would only
		// repeat the refusal.
		if pl.Refused != nil {
			e.SetChoice(pl.Refused.ConfigID, nil)
		}
	}
}
