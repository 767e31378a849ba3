package app

import (
	"os"

	"cdxtheme/core/agent"
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
func (ags *Agents) agentFor(l settings.AgentList, p turnParams) settings.Agent {
	id := ags.chats.Of(p.sessionID, p.workspaceID)
	if p.agentID != "" {
		id = p.agentID
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
func (ags *Agents) observeTurn(t *turnPlan) func(chat.Event) {
	if t.workspaceID != "" {
		ags.runsWorkspace(t.workspaceID, t.agentID)
	}
	recorded := false
	return func(ev chat.Event) {
		if recorded || ev.SessionID == "" {
			return
		}
		recorded = true
		if t.workspaceID != "" {
			ags.recordSession(t.workspaceID, ev.SessionID)
		}
		ags.runsSession(ev.SessionID, t.agentID)
	}
}

// agentResolve says how the agent's command is found: CDXTHEME_AGENT
// (tests, scripts) as a command line for every agent; else the entry's own
// words (a custom program, Codex's set command, Bun running the package);
// else the search for codex-acp. Secrets meant for Codex are kept from
// every other agent, also when they are in the app's own environment.
func agentResolve(s settings.Settings, ag settings.Agent) agent.ResolveOptions {
	r := agent.ResolveOptions{SidecarVersion: s.ACPVersion(), CacheDir: settings.AgentsCacheDir()}
	if v := os.Getenv("CDXTHEME_AGENT"); v != "" {
		r.Override = v
	} else {
		bun := agent.FindBun("")
		if bun == "" {
			bun = "bun" // resolution explains the miss
		}
		r.Argv = ag.Argv(bun)
		r.Package = ag.Package()
	}
	if !ag.GetsAPIKey() {
		r.Unset = settings.APIKeyVars
	}
	return r
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
