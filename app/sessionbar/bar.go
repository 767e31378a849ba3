// Package sessionbar is a chat's session bar: what it shows before the
// agent answers (Show) and a setting the user changes in it (Set), on the
// live agent or with the next message, remembered for that chat in the
// chat memory.
package sessionbar

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"cdxtheme/app/chatmemory"
	"cdxtheme/app/sessionopts"
	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/codexhome"
	"cdxtheme/core/settings"
)

// State is what a chat's session bar shows before its agent answers: the
// agent, and its options with the values they are known to have.
type State struct {
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

// Change is one session setting the user changed in the chat.
type Change struct {
	WorkspaceID string `json:"workspaceId"`
	SessionID   string `json:"sessionId"`
	// ConfigID is the config option's id; "mode" also covers agents that
	// only offer modes (session/set_mode).
	ConfigID string `json:"configId"`
	Value    any    `json:"value" ts_type:"string | boolean"` // string (select) or bool (boolean)
}

// Result is what became of a change.
type Result struct {
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

// Bar is what the bar is made from: the chat memory, Codex's models and
// config.toml, the chat's values for the next message and the live engine.
type Bar struct {
	// Memory runs f on the loaded chat memory and saves what it changed.
	Memory  func(f func(m *chatmemory.Memory))
	Models  func() codexhome.ModelList
	Home    func() codexhome.Home
	Choices func(sessionID string) map[string]any
	Live    func() *chat.Engine // nil: no agent holds a session
}

// Show is the bar of a chat (sessionID) run by ag, or of a new build when
// sessionID is "". A new build's values are its agent's defaults over what
// a fresh session of that agent reported (config.toml's model and effort
// when it has none yet).
func (b Bar) Show(ag settings.Agent, sessionID string) State {
	bar := State{AgentID: ag.ID, AgentName: ag.Name, Defaults: ag.Defaults}
	codex := sessionopts.IsCodex(ag)
	if v := strings.TrimSpace(os.Getenv("CDXTHEME_AGENT")); v != "" {
		// Every agent runs this command: the bar names it, not the entry.
		bar.AgentName, bar.Fixed, codex = v, true, false
	}
	var fresh *chatmemory.Agent
	b.Memory(func(m *chatmemory.Memory) {
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
		// when pre-warmed), never Codex's.
		bar.Options = sessionopts.ModelOptions(b.Models())
	}
	if sessionID != "" {
		return bar // a saved chat opens in the agent's own values; Open makes them live
	}
	values := map[string]any{}
	if cfg, err := b.Home().Config(); err == nil && codex {
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
	ml := b.Models()
	bar.Options, bar.Modes = sessionopts.NewBuild(bar.Options, bar.Modes, values, ag.Defaults, func(model string) string { return sessionopts.DefaultEffort(ml, model) })
	return bar
}

// Set changes a setting of one chat: on the live agent when one holds the
// session, else with the next message. It is remembered for that chat
// only. A model change also puts the effort back to the new model's
// default.
func (b Bar) Set(ctx context.Context, req Change) (Result, error) {
	if req.ConfigID == "" || req.SessionID == "" {
		return Result{}, errors.New("a setting needs a chat and a setting name")
	}
	switch req.Value.(type) {
	case string, bool:
	default:
		return Result{}, fmt.Errorf("setting %s: %v is neither text nor true/false", req.ConfigID, req.Value)
	}
	eng := b.Live()
	var reported []acp.ConfigOption
	b.Memory(func(m *chatmemory.Memory) {
		if e := m.File.Sessions[req.SessionID]; e != nil {
			reported = e.Reported
		}
	})
	target, _ := chatmemory.ResolveOption(reported, req.ConfigID)
	changes := []Change{req}
	isModel := target.Category == acp.CategoryModel || req.ConfigID == acp.CategoryModel
	res := Result{}
	for i := 0; i < len(changes); i++ {
		ch := changes[i]
		opts, err := setLive(ctx, eng, ch)
		switch {
		case errors.Is(err, chat.ErrNotLive):
			b.Memory(func(m *chatmemory.Memory) { m.Entry(ch.SessionID).SetChoice(ch.ConfigID, ch.Value) })
		case err != nil:
			ce, isCE := errors.AsType[*chat.Error](err)
			if !isCE || ce.Code != chat.CodeRPC {
				return Result{ConfigOptions: opts}, err
			}
			// The agent refused: nothing is remembered, the bar shows what
			// it still runs and why.
			cur, _ := chatmemory.ResolveOption(opts, ch.ConfigID)
			res.Refused = &chat.Refusal{ConfigID: cmp.Or(cur.ID, ch.ConfigID), Name: cur.Name, Value: ch.Value, Current: sessionopts.CurrentOf(cur)}
			res.Reason = sessionopts.RPCReason(err)
			res.ConfigOptions = opts
			b.rememberReport(ch.SessionID, opts)
			return res, nil
		default:
			res.Applied, res.ConfigOptions = true, opts
			b.Memory(func(m *chatmemory.Memory) {
				e := m.Entry(ch.SessionID)
				e.Reported = opts
				e.SetChoice(ch.ConfigID, ch.Value)
			})
		}
		if i == 0 && isModel {
			if eff, ok := b.effortReset(req, res.ConfigOptions, reported); ok {
				changes = append(changes, eff)
			}
		}
	}
	if !res.Applied {
		res.Pending = b.Choices(req.SessionID)
	}
	return res, nil
}

// effortReset is the change that puts the reasoning effort back to the
// new model's default after a model change, when the agent offers it.
func (b Bar) effortReset(req Change, now, before []acp.ConfigOption) (Change, bool) {
	model, _ := req.Value.(string)
	def := sessionopts.DefaultEffort(b.Models(), model)
	opts := now
	if len(opts) == 0 {
		opts = before
	}
	eff, ok := acp.FindConfigOption(opts, acp.CategoryThoughtLevel, "reasoning_effort")
	if def == "" || !ok || !eff.HasValue(def) || (len(now) > 0 && eff.Value == def) {
		return Change{}, false
	}
	return Change{WorkspaceID: req.WorkspaceID, SessionID: req.SessionID, ConfigID: eff.ID, Value: def}, true
}

// setLive sets the option on the live agent; without an engine nothing is live.
func setLive(ctx context.Context, eng *chat.Engine, ch Change) ([]acp.ConfigOption, error) {
	if eng == nil {
		return nil, chat.ErrNotLive
	}
	return eng.SetOption(ctx, ch.SessionID, ch.ConfigID, ch.Value)
}

func (b Bar) rememberReport(sessionID string, opts []acp.ConfigOption) {
	if len(opts) == 0 {
		return
	}
	b.Memory(func(m *chatmemory.Memory) { m.Entry(sessionID).Reported = opts })
}
