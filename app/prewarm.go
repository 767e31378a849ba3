package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

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
// first message: the agent's session opens in it ahead of time. It is no
// build yet (Home lists builds only once a message reached the agent) and
// goes again when the view closes unused or the app quits.
type prewarms struct {
	mu    sync.Mutex
	build *workspace.Meta
	// stopLending ends the socket that lends the warm agent to the CLI.
	stopLending context.CancelFunc
}

// Prewarm starts the agent of the chat a view just opened in the
// background, so its first message goes out on a ready connection: for a
// new build, in a folder made for it now; for a saved chat, with the
// session resumed. Nothing shows, and a failure is only logged: the
// message then starts the agent itself and reports what goes wrong. With
// warm connections off in the settings it does nothing.
func (a *Turns) Prewarm(req PrewarmRequest) error { return a.prewarm(req) }

// prewarm is Prewarm, for the other services too.
func (a *Turns) prewarm(req PrewarmRequest) error {
	s := a.settings.current()
	if !s.Warm() {
		return nil
	}
	p := turnParams{workspaceID: req.WorkspaceID, sessionID: req.SessionID, cwd: req.Cwd}
	switch {
	case req.SessionID == "" && req.WorkspaceID == "" && req.Cwd == "":
		ws, err := a.pendingBuild()
		if err != nil {
			return err
		}
		p.workspaceID, p.cwd = ws.ID, ws.Dir
	case req.SessionID == "":
		return errors.New("pre-warm: a saved chat needs its session id")
	case req.WorkspaceID != "":
		ws, err := a.openWorkspace(req.WorkspaceID)
		if err != nil {
			return err
		}
		p.cwd = ws.Dir
	}
	if fi, err := os.Stat(p.cwd); err != nil || !fi.IsDir() {
		return nil // the chat's folder is gone: its first message says so
	}
	list := a.agents.agentList()
	ag := a.agents.agentFor(list, p)
	eng := a.engineFor(s, ag)
	t := chat.Turn{SessionID: p.sessionID, Cwd: p.cwd, MCPServers: a.mcpServers(list, p.cwd)}
	if p.sessionID == "" {
		// New build: the agent's own options reach the bar now, not after
		// the first message.
		t.OnOpen = func(setup *acp.SessionSetup) {
			for _, o := range a.observers {
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
func (a *Chats) sessionWarmed(agentID string, setup *acp.SessionSetup) {
	if setup == nil || (len(setup.ConfigOptions) == 0 && setup.Modes == nil) {
		return
	}
	a.withMemory(func(m *chatMemory) {
		m.file.Agents[agentID] = &agentState{Options: setup.ConfigOptions, Modes: setup.Modes, Seen: time.Now()}
	})
	a.emit.Emit("agent-options", AgentOptionsEvent{AgentID: agentID})
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
func (a *Turns) Release(req PrewarmRequest) {
	var dropped *workspace.Meta
	cwd, sid := req.Cwd, req.SessionID
	if req.SessionID == "" && req.WorkspaceID == "" && req.Cwd == "" {
		a.warmups.mu.Lock()
		dropped, a.warmups.build = a.warmups.build, nil
		a.warmups.mu.Unlock()
		if dropped == nil {
			return
		}
		cwd = dropped.Dir
	} else if req.WorkspaceID != "" {
		ws, err := a.openWorkspace(req.WorkspaceID)
		if err != nil {
			return
		}
		cwd = ws.Dir
	}
	a.turns.mu.Lock()
	eng := a.turns.engine
	a.turns.mu.Unlock()
	a.turns.wg.Add(1) // Shutdown waits: an agent must not outlive the app
	go func() {
		defer a.turns.wg.Done()
		if eng != nil {
			eng.Release(cwd, sid)
		}
		if dropped != nil {
			a.removeUnused(dropped.ID)
		}
	}()
}

// rewarmBuild pre-warms the open New build view's folder again after its
// agent was changed: the one started before is the wrong agent now.
func (a *Turns) rewarmBuild() {
	a.warmups.mu.Lock()
	open := a.warmups.build != nil
	a.warmups.mu.Unlock()
	if open {
		if err := a.prewarm(PrewarmRequest{}); err != nil {
			a.log.Info().Err(err).Msg("pre-warm the new agent")
		}
	}
}

// pendingBuild returns the open New build view's folder, made on first use.
func (a *Turns) pendingBuild() (workspace.Meta, error) {
	a.warmups.mu.Lock()
	defer a.warmups.mu.Unlock()
	if b := a.warmups.build; b != nil {
		if ws, err := workspace.Open(workspace.Root(), b.ID); err == nil {
			return ws, nil
		}
	}
	ws, err := workspace.Create(workspace.Root(), "", "")
	if err != nil {
		return ws, fmt.Errorf("create workspace: %w", err)
	}
	a.warmups.build = &ws
	return ws, nil
}

// takeBuild hands the pre-warmed New build folder to the build whose first
// message is being sent, titled after it; ok is false when there is none.
func (a *Turns) takeBuild(title, model string) (ws workspace.Meta, ok bool) {
	a.warmups.mu.Lock()
	b := a.warmups.build
	a.warmups.build = nil
	a.warmups.mu.Unlock()
	if b == nil {
		return ws, false
	}
	root := workspace.Root()
	if _, err := workspace.SetTitle(root, b.ID, title); err != nil {
		a.log.Warn().Err(err).Str("workspace", b.ID).Msg("pre-warmed build folder unusable; making another")
		return ws, false
	}
	ws, err := workspace.SetModel(root, b.ID, model)
	if err != nil {
		a.log.Warn().Err(err).Str("workspace", b.ID).Msg("pre-warmed build folder unusable; making another")
		return ws, false
	}
	return ws, true
}

// dropBuild removes the New build folder nobody sent from (at quit, after
// the engines are closed).
func (a *Turns) dropBuild() {
	a.warmups.mu.Lock()
	b := a.warmups.build
	a.warmups.build = nil
	a.warmups.mu.Unlock()
	if b != nil {
		a.removeUnused(b.ID)
	}
}

func (a *Turns) removeUnused(id string) {
	if err := workspace.Remove(workspace.Root(), id); err != nil {
		a.log.Warn().Err(err).Str("workspace", id).Msg("remove unused workspace")
	}
}
