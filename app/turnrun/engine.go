package turnrun

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"cdxtheme/core/agent"
	"cdxtheme/core/chat"
	"cdxtheme/core/mcp"
	"cdxtheme/core/settings"
)

// Resolve says how the agent's command is found: CDXTHEME_AGENT (tests,
// scripts) as a command line for every agent; else the entry's own words
// (a custom program, Codex's set command, Bun running the package); else
// the search for codex-acp. Secrets meant for Codex are kept from every
// other agent, also when they are in the app's own environment.
func Resolve(s settings.Settings, ag settings.Agent) agent.ResolveOptions {
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

// MCPServers are the MCP servers every session of a chat in cwd gets: the
// user's own and, for a build unless the settings turn them off, the app's
// theme tools (`cdxtheme mcp`, core/mcp) run from this very binary. The
// pre-warm and the lent turn ask here too, so a warm agent serves the turn
// (its servers must match).
func (r *Runner) MCPServers(list settings.AgentList, cwd string) []json.RawMessage {
	servers := list.ACPServers()
	if !r.Settings().Tools() {
		return servers
	}
	return mcp.With(servers, mcp.ForBuild(mcp.Executable(), cwd))
}

// EngineFor returns the chat engine for the settings and agent, rebuilding
// it (and dropping its warm connection) when the agent setup changed.
func (r *Runner) EngineFor(s settings.Settings, ag settings.Agent) *chat.Engine {
	resolve := Resolve(s, ag)
	var env []string
	if ag.GetsAPIKey() {
		env = r.AgentEnv()
	}
	env = append(env, ag.EnvList()...)
	key := strings.Join(append([]string{resolve.Override, strings.Join(resolve.Argv, "\x01"), strings.Join(resolve.Unset, "\x01"),
		s.ACPVersion(), fmt.Sprint(s.Warm(), s.Timeout()), r.KeyID()}, ag.EnvList()...), "\x00")
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.engine != nil && r.engKey == key {
		return r.engine
	}
	if r.engine != nil {
		old := r.engine
		r.retired = append(r.retired, old)
		go old.Close()
	}
	var dial func(cwd string) (chat.Running, error)
	if d := r.Dial; d != nil {
		dial = func(cwd string) (chat.Running, error) { return d(ag.ID, cwd) }
	}
	r.engine = chat.NewEngine(chat.Options{
		Resolve: resolve,
		Version: r.Version,
		Warm:    s.Warm(),
		Timeout: s.Timeout(),
		Env:     env,
		Log:     *r.Log,
		Dial:    dial,
	})
	r.engKey = key
	return r.engine
}

// Live is the engine as it is now (nil before the first turn), for acting
// on the warm agent without replacing it.
func (r *Runner) Live() *chat.Engine {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.engine
}

// hasRollout reports whether Codex keeps a rollout of the session, where
// the chat's history is read from; without one the agent's replay is the
// history. Only found ones are remembered: a session started in this run
// gets its rollout later.
func (r *Runner) hasRollout(sessionID string) bool {
	r.mu.Lock()
	known := r.rollouts[sessionID]
	r.mu.Unlock()
	if known {
		return true
	}
	if _, err := r.Home().FindRollout(sessionID); err != nil {
		return false
	}
	r.mu.Lock()
	if r.rollouts == nil {
		r.rollouts = map[string]bool{}
	}
	r.rollouts[sessionID] = true
	r.mu.Unlock()
	return true
}

// modelServer names the model server of a Codex agent from config.toml
// ("" for other agents or when unknown).
func (r *Runner) modelServer(ag settings.Agent) string {
	if ag.Kind != settings.KindCodex && ag.Kind != settings.KindCodexRS && ag.Kind != "" {
		return ""
	}
	cfg, err := r.Home().Config()
	if err != nil {
		return ""
	}
	return cfg.ModelServer()
}
