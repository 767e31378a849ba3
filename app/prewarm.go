package app

import (
	"context"
	"errors"
	"os"
	"sync"
	"time"

	"cdxtheme/app/chatmemory"
	"cdxtheme/app/pendingbuild"
	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/workspace"
)

// PrewarmRequest names the chat a view has just opened: a saved chat
// (SessionID, in its workspace or Cwd), or a new build (all empty).
type PrewarmRequest struct {
	WorkspaceID string `json:"workspaceId"`
	SessionID   string `json:"sessionId"`
	Cwd         string `json:"cwd"`
}

// prewarms holds the folder made for the open New build view before its
// first message (app/pendingbuild) and what ends the socket lending the
// warm agent to the CLI.
type prewarms struct {
	build pendingbuild.Folder
	mu    sync.Mutex
	// stopLending ends the socket that lends the warm agent to the CLI.
	stopLending context.CancelFunc
}

// Prewarm starts the agent of the chat a view just opened in the
// background, so its first message goes out on a ready connection: for a
// new build, in a folder made for it now; for a saved chat, with the
// session resumed. Nothing shows, and a failure is only logged: the
// message then starts the agent itself and reports what goes wrong. With
// warm connections off in the settings it does nothing.
func (tu *Turns) Prewarm(req PrewarmRequest) error { return tu.prewarm(req) }

// prewarm is Prewarm, for the other services too.
func (tu *Turns) prewarm(req PrewarmRequest) error {
	s := tu.settings.current()
	if !s.Warm() {
		return nil
	}
	p := turnParams{workspaceID: req.WorkspaceID, sessionID: req.SessionID, cwd: req.Cwd}
	switch {
	case req.SessionID == "" && req.WorkspaceID == "" && req.Cwd == "":
		ws, err := tu.warmups.build.Get()
		if err != nil {
			return err
		}
		p.workspaceID, p.cwd = ws.ID, ws.Dir
	case req.SessionID == "":
		return errors.New("pre-warm: a saved chat needs its session id")
	case req.WorkspaceID != "":
		ws, err := tu.openWorkspace(req.WorkspaceID)
		if err != nil {
			return err
		}
		p.cwd = ws.Dir
	}
	if fi, err := os.Stat(p.cwd); err != nil || !fi.IsDir() {
		return nil // the chat's folder is gone: its first message says so
	}
	list := tu.agents.agentList()
	ag := tu.agents.agentFor(list, p)
	eng := tu.engineFor(s, ag)
	t := chat.Turn{SessionID: p.sessionID, Cwd: p.cwd, MCPServers: tu.mcpServers(list, p.cwd)}
	if p.sessionID == "" {
		// New build: the agent's own options reach the bar now, not after
		// the first message.
		t.OnOpen = func(setup *acp.SessionSetup) {
			for _, o := range tu.observers {
				if w, ok := o.(warmObserver); ok {
					w.sessionWarmed(ag.ID, setup)
				}
			}
		}
	}
	eng.Prewarm(t)
	return nil
}

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

// Release gives up what Prewarm started for a view that closed: an agent
// no message used is stopped (in the background), and a new build's folder
// that never got a message is removed. An agent a turn ran on stays: it is
// the open chat's warm connection.
func (tu *Turns) Release(req PrewarmRequest) {
	var dropped *workspace.Meta
	cwd, sid := req.Cwd, req.SessionID
	if req.SessionID == "" && req.WorkspaceID == "" && req.Cwd == "" {
		if dropped = tu.warmups.build.Drop(); dropped == nil {
			return
		}
		cwd = dropped.Dir
	} else if req.WorkspaceID != "" {
		ws, err := tu.openWorkspace(req.WorkspaceID)
		if err != nil {
			return
		}
		cwd = ws.Dir
	}
	tu.turns.mu.Lock()
	eng := tu.turns.engine
	tu.turns.mu.Unlock()
	tu.turns.wg.Add(1) // Shutdown waits: an agent must not outlive the app
	go func() {
		defer tu.turns.wg.Done()
		if eng != nil {
			eng.Release(cwd, sid)
		}
		if dropped != nil {
			tu.removeUnused(dropped.ID)
		}
	}()
}

// rewarmBuild pre-warms the open New build view's folder again after its
// agent was changed: the one started before is the wrong agent now.
func (tu *Turns) rewarmBuild() {
	if tu.warmups.build.Made() {
		if err := tu.prewarm(PrewarmRequest{}); err != nil {
			tu.log.Info().Err(err).Msg("pre-warm the new agent")
		}
	}
}

// dropBuild removes the New build folder nobody sent from (at quit, after
// the engines are closed).
func (tu *Turns) dropBuild() {
	if b := tu.warmups.build.Drop(); b != nil {
		tu.removeUnused(b.ID)
	}
}

func (tu *Turns) removeUnused(id string) {
	if err := workspace.Remove(workspace.Root(), id); err != nil {
		tu.log.Warn().Err(err).Str("workspace", id).Msg("remove unused workspace")
	}
}
