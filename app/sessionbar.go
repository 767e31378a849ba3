package app

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"strings"

	"cdxtheme/app/chatmemory"
	"cdxtheme/app/sessionopts"
	"cdxtheme/app/turnrun"
	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/settings"
)

// BarState is what a chat's session bar shows before its agent answers:
// the agent, and its options with the values they are known to have.
type BarState struct {
	AgentID   string `json:"agentId"`
	AgentName string `json:"agentName"`
	// acp.ConfigOption marshals as ACP's SessionConfigOption: ts_type gives
	// the page that shape, not the Go struct's.
	Options []acp.ConfigOption    `json:"options" ts_type:"{id: string; name?: string; description?: string | null; category?: string | null; type?: string; currentValue?: unknown; options?: unknown[]}[]"`
	Modes   *acp.SessionModeState `json:"modes"`
	// Known is true when Options are the agent's own report (this chat's
	// last, or for a new build a fresh session's); false when they were
	// built from models_cache.json and config.toml because the agent has
	// not been asked yet.
	Known bool `json:"known"`
	// Defaults are the agent's values for new builds (agents.toml).
	Defaults map[string]any `json:"defaults" ts_type:"{[key: string]: string | boolean}"`
	// Fixed: CDXTHEME_AGENT runs every agent, so there is no agent to
	// choose; AgentName is that command.
	Fixed bool `json:"fixed"`
}

// SessionBar returns the session bar of a chat (sessionID), or of a new
// build with the agent chosen for new builds when sessionID is "". A new
// build's values are its agent's defaults over what a fresh session of that
// agent reported (config.toml's model and effort when it has none yet).
func (c *Chats) SessionBar(workspaceID, sessionID string) BarState {
	list := c.agents.agentList()
	ag := c.agents.agentFor(list, turnrun.Params{WorkspaceID: workspaceID, SessionID: sessionID})
	bar := BarState{AgentID: ag.ID, AgentName: ag.Name, Defaults: ag.Defaults}
	codex := sessionopts.IsCodex(ag)
	if v := strings.TrimSpace(os.Getenv("CDXTHEME_AGENT")); v != "" {
		// Every agent runs this command: the bar names it, not the entry.
		bar.AgentName, bar.Fixed, codex = v, true, false
	}
	var fresh *chatmemory.Agent
	c.withMemory(func(m *chatmemory.Memory) {
		if sessionID != "" {
			if e := m.File.Sessions[sessionID]; e != nil && (len(e.Reported) > 0 || e.Modes != nil) {
				bar.Options, bar.Modes, bar.Known = e.Reported, e.Modes, true
				return
			}
		}
		fresh = m.File.Agents[ag.ID]
	})
	if bar.Known {
		return bar
	}
	if fresh != nil && (len(fresh.Options) > 0 || fresh.Modes != nil) {
		bar.Options, bar.Modes, bar.Known = append([]acp.ConfigOption(nil), fresh.Options...), fresh.Modes, true
	} else if codex {
		// Codex not asked yet: its models from models_cache.json. Another
		// agent's options are its own to report (before the first message
		// when pre-warmed, see freshReport), never Codex's.
		bar.Options = sessionopts.ModelOptions(c.library.models())
	}
	if sessionID != "" {
		return bar // a saved chat opens in the agent's own values; Open makes them live
	}
	values := map[string]any{}
	if cfg, err := c.settings.home().Config(); err == nil && codex {
		if cfg.Model != "" {
			values[acp.CategoryModel] = cfg.Model
		}
		if cfg.ReasoningEffort != "" {
			values[acp.CategoryThoughtLevel] = cfg.ReasoningEffort
		}
	}
	for k, v := range ag.Defaults {
		values[k] = v
	}
	ml := c.library.models()
	bar.Options, bar.Modes = sessionopts.NewBuild(bar.Options, bar.Modes, values, ag.Defaults, func(model string) string { return sessionopts.DefaultEffort(ml, model) })
	return bar
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

// OptionChange is one session setting the user changed in the chat.
type OptionChange struct {
	WorkspaceID string `json:"workspaceId"`
	SessionID   string `json:"sessionId"`
	// ConfigID is the config option's id; "mode" also covers agents that
	// only offer modes (session/set_mode).
	ConfigID string `json:"configId"`
	Value    any    `json:"value" ts_type:"string | boolean"` // string (select) or bool (boolean)
}

// OptionResult is what became of a change.
type OptionResult struct {
	// Applied: the live agent took it; ConfigOptions are as it reports them
	// now. Otherwise (no live agent holds the session) Pending holds the
	// chat's values that go with the next message.
	Applied       bool               `json:"applied"`
	ConfigOptions []acp.ConfigOption `json:"configOptions" ts_type:"{id: string; name?: string; description?: string | null; category?: string | null; type?: string; currentValue?: unknown; options?: unknown[]}[]"`
	Pending       map[string]any     `json:"pending,omitempty" ts_type:"{[key: string]: string | boolean}"`
	// Refused: the agent did not take it and still runs Refused.Current;
	// Reason is its own word.
	Refused *chat.Refusal `json:"refused,omitempty"`
	Reason  string        `json:"reason,omitempty"`
}

// SetSessionOption changes a setting of one chat: on the live agent when
// one holds the session, else with the next message. It is remembered for
// that chat only. A model change also puts the effort back to the new
// model's default.
func (c *Chats) SetSessionOption(req OptionChange) (OptionResult, error) {
	if req.ConfigID == "" || req.SessionID == "" {
		return OptionResult{}, errors.New("a setting needs a chat and a setting name")
	}
	switch req.Value.(type) {
	case string, bool:
	default:
		return OptionResult{}, fmt.Errorf("setting %s: %v is neither text nor true/false", req.ConfigID, req.Value)
	}
	eng := c.turns.liveEngine()
	var reported []acp.ConfigOption
	c.withMemory(func(m *chatmemory.Memory) {
		if e := m.File.Sessions[req.SessionID]; e != nil {
			reported = e.Reported
		}
	})
	target, _ := chatmemory.ResolveOption(reported, req.ConfigID)
	changes := []OptionChange{req}
	isModel := target.Category == acp.CategoryModel || req.ConfigID == acp.CategoryModel
	res := OptionResult{}
	for i := 0; i < len(changes); i++ {
		ch := changes[i]
		opts, err := c.setLive(eng, ch)
		switch {
		case errors.Is(err, chat.ErrNotLive):
			c.withMemory(func(m *chatmemory.Memory) { m.Entry(ch.SessionID).SetChoice(ch.ConfigID, ch.Value) })
		case err != nil:
			ce, isCE := errors.AsType[*chat.Error](err)
			if !isCE || ce.Code != chat.CodeRPC {
				return OptionResult{ConfigOptions: opts}, err
			}
			// The agent refused: nothing is remembered, the bar shows what
			// it still runs and why.
			cur, _ := chatmemory.ResolveOption(opts, ch.ConfigID)
			res.Refused = &chat.Refusal{ConfigID: cmp.Or(cur.ID, ch.ConfigID), Name: cur.Name, Value: ch.Value, Current: sessionopts.CurrentOf(cur)}
			res.Reason = sessionopts.RPCReason(err)
			res.ConfigOptions = opts
			c.rememberReport(ch.SessionID, opts)
			return res, nil
		default:
			res.Applied, res.ConfigOptions = true, opts
			c.withMemory(func(m *chatmemory.Memory) {
				e := m.Entry(ch.SessionID)
				e.Reported = opts
				e.SetChoice(ch.ConfigID, ch.Value)
			})
		}
		if i == 0 && isModel {
			if eff, ok := c.effortReset(req, res.ConfigOptions, reported); ok {
				changes = append(changes, eff)
			}
		}
	}
	if !res.Applied {
		res.Pending = c.choicesFor(req.SessionID)
	}
	return res, nil
}

// effortReset is the change that puts the reasoning effort back to the
// new model's default after a model change, when the agent offers it.
func (c *Chats) effortReset(req OptionChange, now, before []acp.ConfigOption) (OptionChange, bool) {
	model, _ := req.Value.(string)
	def := sessionopts.DefaultEffort(c.library.models(), model)
	opts := now
	if len(opts) == 0 {
		opts = before
	}
	eff, ok := acp.FindConfigOption(opts, acp.CategoryThoughtLevel, "reasoning_effort")
	if def == "" || !ok || !eff.HasValue(def) || (len(now) > 0 && eff.Value == def) {
		return OptionChange{}, false
	}
	return OptionChange{WorkspaceID: req.WorkspaceID, SessionID: req.SessionID, ConfigID: eff.ID, Value: def}, true
}

// setLive sets the option on the live agent; without an engine nothing is live.
func (c *Chats) setLive(eng *chat.Engine, ch OptionChange) ([]acp.ConfigOption, error) {
	if eng == nil {
		return nil, chat.ErrNotLive
	}
	return eng.SetOption(c.bg(), ch.SessionID, ch.ConfigID, ch.Value)
}

func (c *Chats) rememberReport(sessionID string, opts []acp.ConfigOption) {
	if len(opts) == 0 {
		return
	}
	c.withMemory(func(m *chatmemory.Memory) { m.Entry(sessionID).Reported = opts })
}
