package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"cdxtheme/core/agent"
	"cdxtheme/core/chat"
	"cdxtheme/core/damaged"
	"cdxtheme/core/paths"
	"cdxtheme/core/settings"
)

// chatAgents remembers which agent each workspace and session runs, so a
// follow-up after a restart goes to the agent that holds the session.
type chatAgents struct {
	Workspaces map[string]string `json:"workspaces"`
	Sessions   map[string]string `json:"sessions"`
}

func chatAgentsPath() string { return filepath.Join(paths.ConfigDir(), "chat-agents.json") }

// loadChatAgents fills the maps from disk once. A file that does not parse
// is set aside (core/damaged) and reported, and the default agent is used;
// one that cannot be read, or set aside, is never saved over (chatsKept).
// Called with ags.mu held.
func (ags *Agents) loadChatAgents() {
	if ags.wsAgent != nil {
		return
	}
	var c chatAgents
	path := chatAgentsPath()
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		ags.chatsKept = true
		ags.log.Warn().Err(err).Msg("chat-agents.json unreadable; chats use the default agent and it is left as it is")
	default:
		if perr := json.Unmarshal(b, &c); perr != nil {
			err := damaged.Handle(path, fmt.Errorf("parse chat agents: %w", perr))
			ags.chatsKept = !errors.As(err, new(*damaged.Error))
			ags.log.Warn().Err(err).Msg("chat-agents.json damaged; chats use the default agent")
			c = chatAgents{}
		}
	}
	ags.wsAgent, ags.sessAgent = c.Workspaces, c.Sessions
	if ags.wsAgent == nil {
		ags.wsAgent = map[string]string{}
	}
	if ags.sessAgent == nil {
		ags.sessAgent = map[string]string{}
	}
}

// saveChatAgents writes the maps, unless the file on disk is one that could
// not be read or set aside. Called with ags.mu held.
func (ags *Agents) saveChatAgents() {
	if ags.chatsKept {
		return
	}
	b, err := json.Marshal(chatAgents{Workspaces: ags.wsAgent, Sessions: ags.sessAgent})
	if err == nil {
		err = paths.WriteFileAtomic(chatAgentsPath(), b, 0o600)
	}
	if err != nil {
		ags.log.Warn().Err(err).Msg("remember which agent runs each chat")
	}
}

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
	id := p.agentID
	ags.mu.Lock()
	ags.loadChatAgents()
	if id == "" && p.sessionID != "" {
		id = ags.sessAgent[p.sessionID]
	}
	if id == "" && p.workspaceID != "" {
		id = ags.wsAgent[p.workspaceID]
	}
	ags.mu.Unlock()
	if ag, ok := l.Find(id); ok {
		return ag
	}
	ag, _ := l.Find("")
	return ag
}

// runsWorkspace remembers that the workspace's chat runs agentID (a turn
// started there).
func (ags *Agents) runsWorkspace(workspaceID, agentID string) {
	ags.remember(func() map[string]string { return ags.wsAgent }, workspaceID, agentID)
}

// runsSession remembers that agentID holds the session (its first event
// named it).
func (ags *Agents) runsSession(sessionID, agentID string) {
	ags.remember(func() map[string]string { return ags.sessAgent }, sessionID, agentID)
}

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

// remember sets key to agentID in the map which picks (read after the
// load, which may replace the maps) and saves only on a change.
func (ags *Agents) remember(which func() map[string]string, key, agentID string) {
	ags.mu.Lock()
	defer ags.mu.Unlock()
	ags.loadChatAgents()
	if m := which(); m[key] != agentID {
		m[key] = agentID
		ags.saveChatAgents()
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
