package app

import (
	"time"

	"cdxtheme/app/chatmemory"
	"cdxtheme/app/turnrun"
	"cdxtheme/core/acp"
)

// PrewarmRequest names the chat a view has just opened: a saved chat
// (SessionID, in its workspace or Cwd), or a new build (all empty).
type PrewarmRequest struct {
	WorkspaceID string `json:"workspaceId"`
	SessionID   string `json:"sessionId"`
	Cwd         string `json:"cwd"`
}

func (req PrewarmRequest) params() turnrun.Params {
	return turnrun.Params{WorkspaceID: req.WorkspaceID, SessionID: req.SessionID, Cwd: req.Cwd}
}

// Prewarm starts the agent of the chat a view just opened in the
// background, so its first message goes out on a ready connection. Nothing
// shows, and a failure is only logged: the message then starts the agent
// itself and reports what goes wrong. With warm connections off in the
// settings it does nothing.
func (tu *Turns) Prewarm(req PrewarmRequest) error { return tu.run.Prewarm(req.params()) }

// Release gives up what Prewarm started for a view that closed: an agent
// no message used is stopped, and a new build's folder that never got a
// message is removed. An agent a turn ran on stays: it is the open chat's
// warm connection.
func (tu *Turns) Release(req PrewarmRequest) { tu.run.Release(req.params()) }

// rewarmBuild pre-warms the open New build view again after its agent was
// changed.
func (tu *Turns) rewarmBuild() { tu.run.Rewarm() }

// sessionWarmed remembers what a fresh session of the agent reported (what
// New build's bar shows) and tells the page.
func (c *Chats) sessionWarmed(agentID string, setup *acp.SessionSetup) {
	if setup == nil || (len(setup.ConfigOptions) == 0 && setup.Modes == nil) {
		return
	}
	c.withMemory(func(m *chatmemory.Memory) {
		m.File.Agents[agentID] = &chatmemory.Agent{Options: setup.ConfigOptions, Modes: setup.Modes, Seen: time.Now()}
	})
	c.emit.Emit("agent-options", AgentOptionsEvent{AgentID: agentID})
}

// AgentOptionsEvent says a fresh session of the agent reported its options:
// New build's bar may show them now.
type AgentOptionsEvent struct {
	AgentID string `json:"agentId"`
}
