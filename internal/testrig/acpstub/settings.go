package acpstub

import (
	"encoding/json"
	"fmt"
	"strings"
)

// HoldSettings makes the agent hold config options per connection, as
// codex-acp does: session/new, session/resume and session/load answer them
// at their defaults (a new connection forgot what the last one was set
// to), session/set_config_option and session/set_mode change one and
// answer them all, and Turn.Setting reads what the agent runs. options is
// the configOptions array as the agent writes it; a mode option is also
// answered as the session's modes. A value the option does not offer is
// refused, as is one in refuse ("id=value" → the agent's reason).
func (a *Agent) HoldSettings(options string, refuse map[string]string) {
	var defs []map[string]any
	if err := json.Unmarshal([]byte(options), &defs); err != nil {
		panic("acpstub: HoldSettings: " + err.Error())
	}
	h := &held{defs: defs, refuse: refuse}
	opened := func(c *Call, id string) map[string]any {
		c.peer.mu.Lock()
		c.peer.settings = h.defaults()
		c.peer.order = nil
		for _, d := range h.defs {
			c.peer.order = append(c.peer.order, d["id"].(string))
		}
		vals := c.peer.settings
		c.peer.mu.Unlock()
		out := h.setup(vals)
		if id != "" {
			out["sessionId"] = id
		}
		return out
	}
	a.Handle("session/new", func(c *Call) (any, error) {
		a.mu.Lock()
		a.sessions++
		n := a.sessions
		a.mu.Unlock()
		return opened(c, fmt.Sprintf("s-%d", n)), nil
	})
	a.Handle("session/resume", func(c *Call) (any, error) { return opened(c, ""), nil })
	a.Handle("session/load", func(c *Call) (any, error) {
		a.replay(c)
		return opened(c, ""), nil
	})
	set := func(c *Call, id string, value any) (any, error) {
		if err := h.check(id, value); err != nil {
			return nil, err
		}
		c.peer.mu.Lock()
		defer c.peer.mu.Unlock()
		if c.peer.settings == nil {
			return nil, &Error{Code: -32002, Message: "Resource not found: no session open"}
		}
		c.peer.settings[id] = value
		return h.setup(c.peer.settings), nil
	}
	a.Handle("session/set_config_option", func(c *Call) (any, error) {
		var p struct {
			ConfigID string `json:"configId"`
			Value    any    `json:"value"`
		}
		json.Unmarshal(c.Params, &p)
		out, err := set(c, p.ConfigID, p.Value)
		if err != nil {
			return nil, err
		}
		return map[string]any{"configOptions": out.(map[string]any)["configOptions"]}, nil
	})
	a.Handle("session/set_mode", func(c *Call) (any, error) {
		var p struct {
			ModeID string `json:"modeId"`
		}
		json.Unmarshal(c.Params, &p)
		mode := h.modeID()
		if mode == "" {
			return nil, &Error{Code: -32601, Message: "Method not found: session/set_mode"}
		}
		if _, err := set(c, mode, p.ModeID); err != nil {
			return nil, err
		}
		return struct{}{}, nil
	})
}

// Setting is the value the agent runs with for option id on this turn's
// connection, as text ("gpt-5.4", "true"); "" when it holds none.
func (t *Turn) Setting(id string) string {
	t.peer.mu.Lock()
	defer t.peer.mu.Unlock()
	v, ok := t.peer.settings[id]
	if !ok {
		return ""
	}
	return fmt.Sprint(v)
}

// Settings is every value the agent runs with on this turn's connection,
// as "id=value" in the options' order, comma-separated.
func (t *Turn) Settings() string {
	t.peer.mu.Lock()
	defer t.peer.mu.Unlock()
	var out []string
	for _, id := range t.peer.order {
		if v, ok := t.peer.settings[id]; ok {
			out = append(out, id+"="+fmt.Sprint(v))
		}
	}
	return strings.Join(out, ", ")
}

type held struct {
	defs   []map[string]any
	refuse map[string]string
}

func (h *held) defaults() map[string]any {
	vals := map[string]any{}
	for _, d := range h.defs {
		vals[d["id"].(string)] = d["currentValue"]
	}
	return vals
}

// setup is a session's answer: the options at vals, and the modes.
func (h *held) setup(vals map[string]any) map[string]any {
	var opts []map[string]any
	for _, d := range h.defs {
		o := map[string]any{}
		for k, v := range d {
			o[k] = v
		}
		o["currentValue"] = vals[d["id"].(string)]
		opts = append(opts, o)
	}
	out := map[string]any{"configOptions": opts}
	if id := h.modeID(); id != "" {
		var modes []map[string]any
		for _, v := range h.values(id) {
			modes = append(modes, map[string]any{"id": v, "name": v})
		}
		out["modes"] = map[string]any{"currentModeId": vals[id], "availableModes": modes}
	}
	return out
}

// modeID is the id of the select option of the mode category ("" if none).
func (h *held) modeID() string {
	for _, d := range h.defs {
		if d["category"] == "mode" && d["type"] == "select" {
			return d["id"].(string)
		}
	}
	return ""
}

// values are what a select option offers (its groups' too).
func (h *held) values(id string) []string {
	var out []string
	var walk func(any)
	walk = func(list any) {
		items, _ := list.([]any)
		for _, it := range items {
			m, _ := it.(map[string]any)
			if v, ok := m["value"].(string); ok {
				out = append(out, v)
			}
			walk(m["options"])
		}
	}
	for _, d := range h.defs {
		if d["id"] == id {
			walk(d["options"])
		}
	}
	return out
}

func (h *held) check(id string, value any) error {
	var def map[string]any
	for _, d := range h.defs {
		if d["id"] == id {
			def = d
		}
	}
	if def == nil {
		return &Error{Code: -32602, Message: fmt.Sprintf("unknown config option %q", id)}
	}
	if why, ok := h.refuse[id+"="+fmt.Sprint(value)]; ok {
		return &Error{Code: -32602, Message: why}
	}
	if def["type"] == "boolean" {
		if _, ok := value.(bool); !ok {
			return &Error{Code: -32602, Message: fmt.Sprintf("%s takes true or false", id)}
		}
		return nil
	}
	s, _ := value.(string)
	for _, v := range h.values(id) {
		if v == s {
			return nil
		}
	}
	return &Error{Code: -32602, Message: fmt.Sprintf("%s has no value %v", id, value)}
}
