package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"cdxtheme/core/acp"
)

// ErrNotLive is returned by SetOption when no idle warm connection holds
// the session: the caller keeps the value and passes it in the next Turn.
var ErrNotLive = errors.New("the session is not open on a live agent connection")

// methodLogout ends the agent's authenticated session (ACP v1, optional;
// advertised as agentCapabilities.auth.logout).
const methodLogout = "logout"

// configure applies the turn's mode, model, effort and other options to the
// open session: mode first (a mode may change which models exist), then
// model (a model decides which efforts exist), then effort, then the rest
// in a fixed order. changed says whether anything was sent. Failing to set
// one is reported (a refusal event, or a warning); only cancellation or a
// dead agent end the turn here.
func (e *Engine) configure(tctx context.Context, l *link, ts *turnState, t Turn) (changed bool, err error) {
	cfg := configurer{e: e, l: l, ts: ts}
	if t.Mode != "" {
		if err := cfg.mode(tctx, t.Mode); err != nil {
			return cfg.changed, err
		}
	}
	if err := cfg.byCategory(tctx, "model", acp.CategoryModel, "model", t.Model); err != nil {
		return cfg.changed, err
	}
	if err := cfg.byCategory(tctx, "reasoning effort", acp.CategoryThoughtLevel, "reasoning_effort", t.Effort); err != nil {
		return cfg.changed, err
	}
	values := map[string]any{}
	for k, v := range t.Defaults {
		values[k] = v
	}
	for k, v := range t.Options {
		values[k] = v
	}
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	// The same order every turn, by what each setting decides.
	rank := func(k string) int { return categoryRank(cfg.resolve(k).Category, k) }
	sort.Slice(keys, func(i, j int) bool {
		if ri, rj := rank(keys[i]), rank(keys[j]); ri != rj {
			return ri < rj
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		_, explicit := t.Options[k]
		opt, ok := acp.FindConfigOption(l.configOptions(), "", k)
		if !ok {
			opt, ok = acp.FindConfigOption(l.configOptions(), k, "")
		}
		if !ok {
			if k == acp.CategoryMode && l.modeState() != nil {
				if s, isStr := values[k].(string); isStr {
					if err := cfg.mode(tctx, s); err != nil {
						return cfg.changed, err
					}
					continue
				}
			}
			if explicit {
				ts.warn(fmt.Sprintf("the agent no longer offers the setting %q; not applied", k))
			}
			continue
		}
		if err := cfg.set(tctx, opt.Name, opt, values[k]); err != nil {
			return cfg.changed, err
		}
	}
	return cfg.changed, nil
}

// categoryRank orders settings: mode, model, effort, then the rest.
func categoryRank(category, key string) int {
	for i, c := range []string{acp.CategoryMode, acp.CategoryModel, acp.CategoryThoughtLevel} {
		if category == c || key == c {
			return i
		}
	}
	return 3
}

// configurer applies one turn's settings and remembers whether it sent any.
type configurer struct {
	e       *Engine
	l       *link
	ts      *turnState
	changed bool
}

// resolve finds the option a settings key names (id, else category).
func (c *configurer) resolve(key string) acp.ConfigOption {
	if o, ok := acp.FindConfigOption(c.l.configOptions(), "", key); ok {
		return o
	}
	o, _ := acp.FindConfigOption(c.l.configOptions(), key, "")
	return o
}

// byCategory sets a select option found by category (else id) to want.
func (c *configurer) byCategory(tctx context.Context, label, category, fallbackID, want string) error {
	if want == "" {
		return nil
	}
	opt, ok := acp.FindConfigOption(c.l.configOptions(), category, fallbackID)
	if !ok {
		c.ts.warn(fmt.Sprintf("the agent offers no %s setting; %s %q not applied", label, label, want))
		return nil
	}
	return c.set(tctx, label, opt, want)
}

// mode sets the mode through the config option of category "mode", else
// session/set_mode when the agent only offers modes.
func (c *configurer) mode(tctx context.Context, mode string) error {
	if opt, ok := acp.FindConfigOption(c.l.configOptions(), acp.CategoryMode, "mode"); ok {
		return c.set(tctx, "mode", opt, mode)
	}
	if ms := c.l.modeState(); ms != nil && ms.CurrentModeID == mode {
		return nil
	}
	c.changed = true
	err := c.e.setMode(tctx, c.l, mode)
	if err == nil || tctx.Err() != nil || errors.Is(err, acp.ErrClosed) {
		return err
	}
	cur := ""
	if ms := c.l.modeState(); ms != nil {
		cur = ms.CurrentModeID
	}
	c.refused(acp.CategoryMode, "mode", mode, cur, err)
	return nil
}

// set sends set_config_option for opt unless value is already current. A
// value the agent refuses is reported, with what it still runs.
func (c *configurer) set(tctx context.Context, label string, opt acp.ConfigOption, value any) error {
	req, current, same, err := setRequest(c.l.session(), opt, value)
	if errors.Is(err, errNotOffered) {
		c.refused(opt.ID, firstNonEmpty(opt.Name, label), value, current, err)
		return nil
	}
	if err != nil {
		c.ts.warn(fmt.Sprintf("%s: %v; not applied", label, err))
		return nil
	}
	if same {
		return nil
	}
	c.changed = true
	if err := c.e.apply(tctx, c.l, opt, req); err != nil {
		if tctx.Err() != nil || errors.Is(err, acp.ErrClosed) {
			return err
		}
		c.refused(opt.ID, firstNonEmpty(opt.Name, label), value, current, err)
	}
	return nil
}

// apply sends req for opt: set_config_option, or session/set_model for the
// option made from the models state; the agent's new state is recorded.
func (e *Engine) apply(ctx context.Context, l *link, opt acp.ConfigOption, req acp.SetConfigOptionRequest) error {
	if opt.ViaSetModel {
		if err := l.conn.Call(ctx, acp.MethodSetModel, acp.SetModelRequest{SessionID: req.SessionID, ModelID: req.Value}, nil); err != nil {
			return err
		}
		l.setCurrentModel(req.Value)
		return nil
	}
	var resp acp.SetConfigOptionResponse
	if err := l.conn.Call(ctx, acp.MethodSetConfigOption, req, &resp); err != nil {
		return err
	}
	if len(resp.ConfigOptions) > 0 {
		l.setOptions(resp.ConfigOptions)
	}
	return nil
}

// errNotOffered is a select value the agent does not list.
var errNotOffered = errors.New("not offered")

func (c *configurer) refused(id, name string, value, current any, err error) {
	c.ts.emit(Event{SessionID: c.ts.session(), Payload: OptionRefused{Text: refusalReason(err), Refused: &Refusal{ConfigID: id, Name: name, Value: value, Current: current}}})
}

// refusalReason is the agent's own message for a refused setting.
func refusalReason(err error) string {
	var re *acp.RPCError
	if errors.As(err, &re) && re.Message != "" {
		var detail string
		if json.Unmarshal(re.Data, &detail) == nil && detail != "" && detail != re.Message {
			return re.Message + ": " + detail
		}
		return re.Message
	}
	return err.Error()
}

// setMode calls session/set_mode unless mode is already current.
func (e *Engine) setMode(ctx context.Context, l *link, mode string) error {
	ms := l.modeState()
	if ms == nil {
		return errors.New("the agent offers no modes")
	}
	if ms.CurrentModeID == mode {
		return nil
	}
	if err := l.conn.Call(ctx, acp.MethodSetMode, acp.SetModeRequest{SessionID: l.session(), ModeID: mode}, nil); err != nil {
		return err
	}
	l.setCurrentMode(mode)
	return nil
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// setRequest builds the set_config_option request for value, which must
// fit the option's type: a string for a select, a bool for a boolean.
func setRequest(sessionID string, opt acp.ConfigOption, value any) (req acp.SetConfigOptionRequest, current any, same bool, err error) {
	req = acp.SetConfigOptionRequest{SessionID: sessionID, ConfigID: opt.ID}
	switch opt.Type {
	case "boolean":
		b, ok := value.(bool)
		if !ok {
			return req, opt.Bool, false, fmt.Errorf("%v is not true or false", printable(value))
		}
		req.Bool = &b
		return req, opt.Bool, b == opt.Bool, nil
	case "select":
		s, ok := value.(string)
		if !ok || s == "" {
			return req, opt.Value, false, fmt.Errorf("%v is not one of the choices", printable(value))
		}
		// The models state (session/set_model) lists the agent's
		// suggestions, not every model it runs: Claude Code takes any model
		// id its API serves ("claude-haiku-4-5-20251001"), so an id it does
		// not list is sent and the agent's own answer decides. Refused
		// here, the turn silently ran the default model.
		if id, ok := opt.Match(s); ok {
			s = id
		} else if len(opt.Values()) > 0 && !opt.ViaSetModel {
			return req, opt.Value, false, fmt.Errorf("%w: %q is none of the values the agent offers: %s", errNotOffered, s, opt.Offered())
		}
		req.Value = s
		return req, opt.Value, s == opt.Value, nil
	default:
		return req, nil, false, fmt.Errorf("the setting has a type this app does not know (%q)", opt.Type)
	}
}

func printable(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// SetOption changes one setting of an open session right away, on the
// idle warm connection that holds it: configID names a config option (by
// id, else category); "mode" falls back to session/set_mode when the agent
// offers modes but no config option for them. It returns the options as
// the agent reports them afterwards. With no such connection it returns
// ErrNotLive and the caller applies the value with the next Turn.
func (e *Engine) SetOption(ctx context.Context, sessionID, configID string, value any) ([]acp.ConfigOption, error) {
	if sessionID == "" || configID == "" {
		return nil, &Error{Code: CodeInput, Message: "SetOption needs a session id and an option id"}
	}
	e.mu.Lock()
	l := e.warm
	if l == nil || l.status != linkReady || l.session() != sessionID || !l.alive() {
		e.mu.Unlock()
		return nil, ErrNotLive
	}
	e.warm = nil // ours until we give it back; a turn starting now spawns its own
	e.ownLocked(l)
	e.mu.Unlock()

	tctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	opt, ok := acp.FindConfigOption(l.configOptions(), "", configID)
	if !ok {
		opt, ok = acp.FindConfigOption(l.configOptions(), configID, "")
	}
	var err error
	switch {
	case ok:
		var req acp.SetConfigOptionRequest
		var same bool
		if req, _, same, err = setRequest(sessionID, opt, value); err != nil {
			err = &Error{Code: CodeInput, Message: fmt.Sprintf("%s: %v", opt.Name, err)}
		} else if !same {
			err = e.apply(tctx, l, opt, req)
		}
	case configID == acp.CategoryMode:
		mode, isStr := value.(string)
		if !isStr {
			err = &Error{Code: CodeInput, Message: fmt.Sprintf("mode %v is not a mode id", printable(value))}
		} else {
			err = e.setMode(tctx, l, mode)
		}
	default:
		err = &Error{Code: CodeInput, Message: fmt.Sprintf("the agent offers no setting %q", configID)}
	}
	if err != nil {
		if _, isCE := errors.AsType[*Error](err); !isCE {
			if errors.Is(err, acp.ErrClosed) || tctx.Err() != nil {
				e.stopOwned(l)
				return nil, ErrNotLive // the value is applied with the next turn
			}
			err = &Error{Code: CodeRPC, Message: fmt.Sprintf("set %s: %v", configID, err), Agent: l.agentDesc(), Err: err}
		}
	}
	if l.alive() {
		e.putWarm(l)
	} else {
		e.stopOwned(l)
	}
	return l.configOptions(), err
}

// Logout ends the agent's sign-in when it advertises the logout method
// (agentCapabilities.auth.logout). supported is false, with no error, when
// it does not: the caller then only forgets its own credentials. Any warm
// connection is dropped afterwards, since it ran signed in.
func (e *Engine) Logout(ctx context.Context, cwd string) (supported bool, err error) {
	tctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	l, _, err := e.borrow(ctx, tctx, cwd, true)
	if err != nil {
		return false, err
	}
	defer e.stopOwned(l)
	var auth struct {
		Logout *acp.Capability `json:"logout"`
	}
	if len(l.init.AgentCapabilities.Auth) == 0 || json.Unmarshal(l.init.AgentCapabilities.Auth, &auth) != nil || auth.Logout == nil {
		return false, nil
	}
	if err := l.conn.Call(tctx, methodLogout, struct{}{}, nil); err != nil {
		return true, &Error{Code: CodeRPC, Message: "logout: " + err.Error(), Agent: l.agentDesc(), Err: err}
	}
	return true, nil
}

// mcpServers keeps the servers the agent can use: stdio always, http and
// sse only when advertised. Dropped ones are a warning, not a failure.
func mcpServers(caps acp.MCPCapabilities, servers []json.RawMessage, ts *turnState) []json.RawMessage {
	var out []json.RawMessage
	for _, raw := range servers {
		var h struct {
			Type string `json:"type"`
			Name string `json:"name"`
		}
		if err := json.Unmarshal(raw, &h); err != nil {
			ts.warn(fmt.Sprintf("an MCP server entry is unreadable and was left out: %v", err))
			continue
		}
		switch {
		case h.Type == "" || h.Type == "stdio",
			h.Type == "http" && caps.HTTP,
			h.Type == "sse" && caps.SSE:
			out = append(out, raw)
		default:
			ts.warn(fmt.Sprintf("the agent does not take %s MCP servers; %q was left out", h.Type, h.Name))
		}
	}
	return out
}

// Describe asks a fresh agent in cwd what a new session offers: it
// connects, opens one session (session/new) and returns the session's
// setup as the agent reports it (its models state as the model option),
// then lets the agent go. For `cdxtheme models --agent`.
func (e *Engine) Describe(ctx context.Context, cwd string) (*acp.SessionSetup, error) {
	tctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	l, err := e.connect(ctx, tctx, cwd)
	if err != nil {
		return nil, err
	}
	ts := &turnState{ctx: tctx, emitFn: func(Event) {}, log: e.opts.Log, openOnly: true}
	l.attach(ts)
	if err := e.openSession(tctx, l, Turn{Cwd: cwd}, ts); err != nil {
		e.stopOwned(l)
		return nil, e.describe(ctx, tctx, l, "while opening a session", err)
	}
	e.flush(l)
	setup := l.setupNow()
	l.mu.Lock()
	setup.Models = l.models
	l.mu.Unlock()
	e.windDown(l)
	return setup, nil
}
