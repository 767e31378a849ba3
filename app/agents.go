package app

import (
	"cdxtheme/app/turnrun"
	"cdxtheme/core/chat"
	"cdxtheme/core/settings"
)

// agentList reads agents.toml; a broken file is logged and the built-in
// entries are used (the file stays for the user to fix).
func (ags *Agents) agentList() settings.AgentList {
	l, err := settings.LoadAgents()
	if err != nil {
		ags.log.Warn().Err(err).Msg("agents list unreadable; using the built-in agents")
	}
	return l
}

// agentFor picks the agent of a turn: the one asked for, else the one the
// session or workspace already runs, else the agent for new builds.
func (ags *Agents) agentFor(l settings.AgentList, p turnrun.Params) settings.Agent {
	id := ags.chats.Of(p.SessionID, p.WorkspaceID)
	if p.AgentID != "" {
		id = p.AgentID
	}
	if ag, ok := l.Find(id); ok {
		return ag
	}
	ag, _ := l.Find("")
	return ag
}

// runsWorkspace remembers that the workspace's chat runs agentID (a turn
// started there).
func (ags *Agents) runsWorkspace(workspaceID, agentID string) {
	ags.chats.RunsWorkspace(workspaceID, agentID)
}

// runsSession remembers that agentID holds the session (its first event
// named it).
func (ags *Agents) runsSession(sessionID, agentID string) { ags.chats.RunsSession(sessionID, agentID) }

// observeTurn keeps the session map of every turn: the workspace's chat
// runs the turn's agent from its start, and the session its first event
// names is recorded in the workspace and as held by that agent.
func (ags *Agents) observeTurn(t *turnrun.Plan) func(chat.Event) {
	if t.WorkspaceID != "" {
		ags.runsWorkspace(t.WorkspaceID, t.AgentID)
	}
	recorded := false
	return func(ev chat.Event) {
		if recorded || ev.SessionID == "" {
			return
		}
		recorded = true
		if t.WorkspaceID != "" {
			ags.recordSession(t.WorkspaceID, ev.SessionID)
		}
		ags.runsSession(ev.SessionID, t.AgentID)
	}
}

// Agents returns the agents list with the MCP servers.
func (ags *Agents) Agents() settings.AgentList { return ags.agentList() }

// SaveAgents validates and stores the agents list; the next turn runs with it.
func (ags *Agents) SaveAgents(l settings.AgentList) error {
	// Settings' Command field takes a whole command line, as --agent does.
	l.SplitCommands()
	return wrapf(settings.SaveAgents(l), "save agents")
}

// SetBuildAgent chooses the agent New Build starts (remembered).
func (ags *Agents) SetBuildAgent(id string) error {
	l := ags.agentList()
	l.Default = id
	if err := settings.SaveAgents(l); err != nil {
		return wrapf(err, "choose agent %s", id)
	}
	ags.turns.rewarmBuild()
	return nil
}
