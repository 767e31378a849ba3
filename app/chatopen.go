package app

import (
	"errors"

	"cdxtheme/app/turnrun"
	"cdxtheme/core/agent"
	"cdxtheme/core/chat"
)

// AgentCheck says whether the agent of a chat (or of new builds) can be
// started, before anything is sent.
type AgentCheck struct {
	OK        bool   `json:"ok"`
	AgentID   string `json:"agentId"`
	AgentName string `json:"agentName"`
	Code      string `json:"code,omitempty"`   // chat.CodeAgentMissing
	Detail    string `json:"detail,omitempty"` // what was tried, for the curious
}

// CheckAgent resolves the agent a chat would run (sessionID/workspaceID
// empty: the one for new builds) without starting it.
func (c *Chats) CheckAgent(workspaceID, sessionID string) AgentCheck {
	s := c.settings.current()
	ag := c.agents.agentFor(c.agents.agentList(), turnrun.Params{WorkspaceID: workspaceID, SessionID: sessionID})
	out := AgentCheck{OK: true, AgentID: ag.ID, AgentName: ag.Name}
	// An adapter the sidecar has yet to install is no problem: the first
	// message installs it, as its own visible step.
	if _, err := agent.Resolve(turnrun.Resolve(s, ag)); err != nil && !errors.Is(err, agent.ErrNotInstalled) {
		out.OK, out.Code, out.Detail = false, chat.CodeAgentMissing, err.Error()
	}
	return out
}

// EnvPickFolder answers ChooseFolder without a dialog (tests, scripts).
const EnvPickFolder = "CDXTHEME_TEST_PICK_FOLDER"
