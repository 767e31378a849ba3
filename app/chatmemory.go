package app

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

// chatMemory is what the app remembers per chat (by session id) across
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
type chatMemory struct {
	mu     sync.Mutex
	loaded bool
	dirty  bool
	// kept: the file is damaged and could not be set aside; it is never
	// saved over.
	kept bool
	file chatMemoryFile
}

type chatMemoryFile struct {
	Sessions map[string]*chatEntry  `json:"sessions"`
	Agents   map[string]*agentState `json:"agents"`
}

type chatEntry struct {
	Agent    string                `json:"agent,omitempty"`
	Cwd      string                `json:"cwd,omitempty"` // the folder the chat last ran in
	Choices  map[string]any        `json:"choices,omitempty"`
	Reported []acp.ConfigOption    `json:"reported,omitempty"`
	Modes    *acp.SessionModeState `json:"modes,omitempty"`
	Used     time.Time             `json:"used"`
}

// agentState is what a fresh session of an agent reported.
type agentState struct {
	Options []acp.ConfigOption    `json:"options,omitempty"`
	Modes   *acp.SessionModeState `json:"modes,omitempty"`
	Seen    time.Time             `json:"seen"`
}

func chatMemoryPath() string { return filepath.Join(paths.ConfigDir(), "chat-settings.json") }

// load reads the file once; a damaged one is set aside (core/damaged)
// before anything is saved, and reported. Called with mu held.
func (m *chatMemory) load() error {
	if m.loaded {
		return nil
	}
	m.loaded = true
	m.file = chatMemoryFile{Sessions: map[string]*chatEntry{}, Agents: map[string]*agentState{}}
	b, err := os.ReadFile(chatMemoryPath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		m.kept = true // unreadable is not empty: never replace it
	} else {
		var f chatMemoryFile
		if perr := json.Unmarshal(b, &f); perr != nil {
			err = damaged.Handle(chatMemoryPath(), fmt.Errorf("parse chat settings: %w", perr))
			m.kept = !errors.As(err, new(*damaged.Error))
		} else {
			for id, e := range f.Sessions {
				if e != nil {
					m.file.Sessions[id] = e
				}
			}
			for id, s := range f.Agents {
				if s != nil {
					m.file.Agents[id] = s
				}
			}
		}
	}
	return err
}

// entry returns the session's entry, creating it. Called with mu held.
func (m *chatMemory) entry(sessionID string) *chatEntry {
	e := m.file.Sessions[sessionID]
	if e == nil {
		e = &chatEntry{}
		m.file.Sessions[sessionID] = e
	}
	e.Used = time.Now()
	m.dirty = true
	return e
}

// save writes the file when something changed, dropping the oldest chats
// past the bound. Called with mu held.
func (m *chatMemory) save() error {
	if !m.dirty {
		return nil
	}
	if m.kept {
		return fmt.Errorf("not saved: the damaged %s could not be set aside", chatMemoryPath())
	}
	if len(m.file.Sessions) > maxRememberedChats {
		ids := make([]string, 0, len(m.file.Sessions))
		for id := range m.file.Sessions {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return m.file.Sessions[ids[i]].Used.After(m.file.Sessions[ids[j]].Used) })
		for _, id := range ids[maxRememberedChats:] {
			delete(m.file.Sessions, id)
		}
	}
	b, err := json.Marshal(m.file)
	if err == nil {
		err = paths.WriteFileAtomic(chatMemoryPath(), b, 0o600)
	}
	if err == nil {
		m.dirty = false
	}
	return err
}

// withMemory runs f on the loaded memory and saves what it changed.
func (c *Chats) withMemory(f func(m *chatMemory)) {
	m := &c.memory
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.load(); err != nil {
		c.log.Warn().Err(err).Msg("chat-settings.json unreadable; chats start from the agent's defaults")
	}
	f(m)
	if err := m.save(); err != nil {
		c.log.Warn().Err(err).Msg("remember the chats' settings")
	}
}

// choicesFor are the values chosen in a chat, to apply when it opens.
func (c *Chats) choicesFor(sessionID string) map[string]any {
	out := map[string]any{}
	if sessionID == "" {
		return out
	}
	c.withMemory(func(m *chatMemory) {
		if e := m.file.Sessions[sessionID]; e != nil {
			for k, v := range e.Choices {
				out[k] = v
			}
		}
	})
	return out
}

// setChoice records a value chosen in a chat (nil forgets it), replacing any
// other key that names the same option (an id and its category).
func setChoice(e *chatEntry, configID string, value any) {
	if e.Choices == nil {
		e.Choices = map[string]any{}
	}
	target, found := resolveOption(e.Reported, configID)
	for k := range e.Choices {
		if k == configID {
			continue
		}
		if o, ok := resolveOption(e.Reported, k); found && ok && o.ID == target.ID {
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

// resolveOption finds the option a settings key names: by id, else by category.
func resolveOption(opts []acp.ConfigOption, key string) (acp.ConfigOption, bool) {
	if o, ok := acp.FindConfigOption(opts, "", key); ok {
		return o, true
	}
	return acp.FindConfigOption(opts, key, "")
}

// planTurn gives a chat's turn what the memory keeps of that chat: the
// values chosen in it, applied again (agents forget them with their
// process), and, when the folder an opened chat began in is gone, the one
// chosen for it later (Choose folder).
func (c *Chats) planTurn(t *turnPlan) {
	if t.sessionID == "" {
		return
	}
	t.options = c.choicesFor(t.sessionID)
	if !t.open || isDir(t.cwd) {
		return
	}
	c.withMemory(func(m *chatMemory) {
		if e := m.file.Sessions[t.sessionID]; e != nil && isDir(e.Cwd) {
			t.cwd = e.Cwd
		}
	})
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// observeTurn follows every turn for the chat memory: what the agent
// reports of the chat's settings is remembered as the events go by.
func (c *Chats) observeTurn(t *turnPlan) func(chat.Event) {
	fresh := t.sessionID == ""
	return func(ev chat.Event) { c.noteOptions(t.turnParams, ev, &fresh) }
}

// noteOptions records what the agent reports about a chat's settings as
// the events of a turn go by; fresh is true for a turn that created the
// session, whose first report is what the agent starts sessions with.
func (c *Chats) noteOptions(p turnParams, ev chat.Event, fresh *bool) {
	sid := ev.SessionID
	if sid == "" {
		return
	}
	switch ev.Payload.(type) {
	case chat.SessionSetup, chat.ConfigOptionsUpdate, chat.ModeChanged, chat.OptionRefused:
	default:
		return
	}
	c.withMemory(func(m *chatMemory) {
		e := m.entry(sid)
		e.Agent, e.Cwd = p.agentID, p.cwd
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
				m.file.Agents[p.agentID] = &agentState{Options: setup.ConfigOptions, Modes: setup.Modes, Seen: time.Now()}
				// The build's values go under the ids this agent uses.
				for k, v := range p.options {
					setChoice(e, k, v)
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
				setChoice(e, pl.Refused.ConfigID, nil)
			}
		}
	})
}
