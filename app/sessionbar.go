package app

import (
	"fmt"

	"cdxtheme/app/sessionbar"
	"cdxtheme/app/turnrun"
	"cdxtheme/core/settings"
)

// BarState is what a chat's session bar shows before its agent answers
// (sessionbar.State: its fields are the page's).
type BarState sessionbar.State

// OptionChange is one session setting the user changed in the chat
// (sessionbar.Change).
type OptionChange sessionbar.Change

// OptionResult is what became of a change (sessionbar.Result).
type OptionResult sessionbar.Result

// bar is the session bar of Chats' chats, made from the chat memory.
func (c *Chats) bar() sessionbar.Bar {
	return sessionbar.Bar{Memory: c.withMemory, Models: c.library.models, Home: c.settings.home,
		Choices: c.choicesFor, Live: c.turns.liveEngine}
}

// SessionBar returns the session bar of a chat (sessionID), or of a new
// build with the agent chosen for new builds when sessionID is "".
func (c *Chats) SessionBar(workspaceID, sessionID string) BarState {
	ag := c.agents.agentFor(c.agents.agentList(), turnrun.Params{WorkspaceID: workspaceID, SessionID: sessionID})
	return BarState(c.bar().Show(ag, sessionID))
}

// SaveBuildDefaults makes values (config option id → text or true/false)
// the settings new builds with agentID start with; it replaces the agent's
// previous defaults. Only this explicit action changes them.
func (c *Chats) SaveBuildDefaults(agentID string, values map[string]any) error {
	for k, v := range values {
		switch v.(type) {
		case string, bool:
		default:
			return fmt.Errorf("default %s: %v is neither text nor true/false", k, v)
		}
	}
	l := c.agents.agentList()
	found := false
	for i := range l.Agents {
		if l.Agents[i].ID == agentID {
			l.Agents[i].Defaults = values
			found = true
		}
	}
	if !found {
		return fmt.Errorf("no agent %q", agentID)
	}
	return wrapf(settings.SaveAgents(l), "save the defaults of %s", agentID)
}

// SetSessionOption changes a setting of one chat: on the live agent when
// one holds the session, else with the next message; remembered for that
// chat only (sessionbar.Bar.Set).
func (c *Chats) SetSessionOption(req OptionChange) (OptionResult, error) {
	res, err := c.bar().Set(c.bg(), sessionbar.Change(req))
	return OptionResult(res), err
}
