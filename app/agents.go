package app

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"cdxtheme/core/settings"
)

// chatAgents remembers which agent each workspace and session runs, so a
// follow-up after a restart goes to the agent that holds the session.
type chatAgents struct {
	Workspaces map[string]string `json:"workspaces"`
	Sessions   map[string]string `json:"sessions"`
}

func chatAgentsPath() string { return filepath.Join(settings.ConfigDir(), "chat-agents.json") }

// loadChatAgents fills the maps from disk once; a damaged file is logged
// and ignored (the default agent is used then). Called with turns.mu held.
func (a *App) loadChatAgents() {
	if a.turns.wsAgent != nil {
		return
	}
	var c chatAgents
	if b, err := os.ReadFile(chatAgentsPath()); err == nil {
		if err := json.Unmarshal(b, &c); err != nil {
			a.log.Warn().Err(err).Msg("chat-agents.json unreadable; chats use the default agent")
		}
	}
	a.turns.wsAgent, a.turns.sessAgent = c.Workspaces, c.Sessions
	if a.turns.wsAgent == nil {
		a.turns.wsAgent = map[string]string{}
	}
	if a.turns.sessAgent == nil {
		a.turns.sessAgent = map[string]string{}
	}
}

// saveChatAgents writes the maps. Called with turns.mu held.
func (a *App) saveChatAgents() {
	b, err := json.Marshal(chatAgents{Workspaces: a.turns.wsAgent, Sessions: a.turns.sessAgent})
	if err == nil {
		err = settings.WriteFileAtomic(chatAgentsPath(), b, 0o600)
	}
	if err != nil {
		a.log.Warn().Err(err).Msg("remember which agent runs each chat")
	}
}

// agentList reads agents.toml; a broken file is logged and the built-in
// entries are used (the file stays for the user to fix).
func (a *App) agentList() settings.AgentList {
	l, err := settings.LoadAgents()
	if err != nil {
		a.log.Warn().Err(err).Msg("agents list unreadable; using the built-in agents")
	}
	return l
}

// agentFor picks the agent of a turn: the one asked for, else the one the
// session or workspace already runs, else the agent for new builds.
func (a *App) agentFor(l settings.AgentList, p turnParams) settings.Agent {
	id := p.agentID
	a.turns.mu.Lock()
	a.loadChatAgents()
	if id == "" && p.sessionID != "" {
		id = a.turns.sessAgent[p.sessionID]
	}
	if id == "" && p.workspaceID != "" {
		id = a.turns.wsAgent[p.workspaceID]
	}
	a.turns.mu.Unlock()
	if ag, ok := l.Find(id); ok {
		return ag
	}
	ag, _ := l.Find("")
	return ag
}

// agentOverride is the agent command that beats resolution:
// CDXTHEME_AGENT (tests, scripts) for every agent; else the settings'
// command for Codex; else the entry's own command.
func agentOverride(s settings.Settings, ag settings.Agent) string {
	if v := os.Getenv("CDXTHEME_AGENT"); v != "" {
		return v
	}
	if ag.Kind == settings.KindCodex || ag.Kind == "" {
		return s.AgentCommand
	}
	return ag.Override(findBun())
}

// findBun looks for the Bun that ships beside the app (as the Codex
// sidecar does), else on PATH; "bun" lets resolution explain a miss.
func findBun() string {
	name := "bun"
	if runtime.GOOS == "windows" {
		name = "bun.exe"
	}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		dir := filepath.Dir(exe)
		for _, d := range []string{dir, filepath.Join(dir, "sidecar")} {
			p := filepath.Join(d, name)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				return p
			}
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	return name
}

// turnOptions merges this run's choices for the session and the request's
// own values (later wins); the agent's remembered defaults go separately
// (see turnDefaults). Called with turns.mu held.
func (a *App) turnOptions(p turnParams) map[string]any {
	out := map[string]any{}
	for k, v := range a.turns.sessOpts[p.sessionID] {
		if p.sessionID != "" {
			out[k] = v
		}
	}
	for k, v := range p.options {
		out[k] = v
	}
	return withoutExplicit(out, p)
}

// turnDefaults are the agent's remembered defaults: applied where the
// agent offers them, silently skipped elsewhere.
func turnDefaults(ag settings.Agent, p turnParams) map[string]any {
	out := map[string]any{}
	for k, v := range ag.Defaults {
		out[k] = v
	}
	return withoutExplicit(out, p)
}

// withoutExplicit drops what the turn sets explicitly (model, effort,
// mode), so nothing is set twice.
func withoutExplicit(m map[string]any, p turnParams) map[string]any {
	if p.model != "" {
		delete(m, "model")
	}
	if p.effort != "" {
		delete(m, "reasoning_effort")
		delete(m, "thought_level")
	}
	if p.mode != "" {
		delete(m, "mode")
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// Agents returns the agents list with the MCP servers.
func (a *App) Agents() settings.AgentList { return a.agentList() }

// SaveAgents validates and stores the agents list; the next turn runs with it.
func (a *App) SaveAgents(l settings.AgentList) error {
	return wrapf(settings.SaveAgents(l), "save agents")
}

// SetBuildAgent chooses the agent New Build starts (remembered).
func (a *App) SetBuildAgent(id string) error {
	l := a.agentList()
	l.Default = id
	if err := settings.SaveAgents(l); err != nil {
		return wrapf(err, "choose agent %s", id)
	}
	a.rewarmBuild()
	return nil
}
