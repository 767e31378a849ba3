package app

import (
	"os"

	"cdxtheme/app/chatmemory"
	"cdxtheme/app/turnrun"
	"cdxtheme/core/chat"
)

// withMemory runs f on the loaded memory and saves what it changed.
func (c *Chats) withMemory(f func(m *chatmemory.Memory)) {
	loadErr, saveErr := c.memory.Use(f)
	if loadErr != nil {
		c.log.Warn().Err(loadErr).Msg("chat-settings.json unreadable; chats start from the agent's defaults")
	}
	if saveErr != nil {
		c.log.Warn().Err(saveErr).Msg("remember the chats' settings")
	}
}

// choicesFor are the values chosen in a chat, to apply when it opens.
func (c *Chats) choicesFor(sessionID string) map[string]any {
	out := map[string]any{}
	if sessionID == "" {
		return out
	}
	c.withMemory(func(m *chatmemory.Memory) {
		if e := m.File.Sessions[sessionID]; e != nil {
			for k, v := range e.Choices {
				out[k] = v
			}
		}
	})
	return out
}

// planTurn gives a chat's turn what the memory keeps of that chat: the
// values chosen in it, applied again (agents forget them with their
// process), and, when the folder an opened chat began in is gone, the one
// chosen for it later (Choose folder).
func (c *Chats) planTurn(t *turnrun.Plan) {
	if t.SessionID == "" {
		return
	}
	t.Options = c.choicesFor(t.SessionID)
	if !t.Open || isDir(t.Cwd) {
		return
	}
	c.withMemory(func(m *chatmemory.Memory) {
		if e := m.File.Sessions[t.SessionID]; e != nil && isDir(e.Cwd) {
			t.Cwd = e.Cwd
		}
	})
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// observeTurn follows every turn for the chat memory: what the agent
// reports of the chat's settings is remembered as the events go by.
func (c *Chats) observeTurn(t *turnrun.Plan) func(chat.Event) {
	fresh := t.SessionID == ""
	return func(ev chat.Event) { c.noteOptions(t.Params, ev, &fresh) }
}

// noteOptions records what the agent reports about a chat's settings as
// the events of a turn go by (chatmemory.Memory.Note).
func (c *Chats) noteOptions(p turnrun.Params, ev chat.Event, fresh *bool) {
	if !chatmemory.Noted(ev) {
		return
	}
	c.withMemory(func(m *chatmemory.Memory) { m.Note(ev, p.AgentID, p.Cwd, p.Options, fresh) })
}
