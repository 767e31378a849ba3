package main

// Modes and config options shaped like @agentclientprotocol/codex-acp 2.x.

var modes = []map[string]any{
	{"id": "read-only", "name": "Read-only", "description": "Requires approval to edit files and access the internet."},
	{"id": "workspace-write", "name": "Workspace access", "description": "Edit workspace files; ask before writing outside the workspace or accessing the network."},
	{"id": "agent", "name": "Auto review", "description": "Only ask for actions detected as potentially unsafe"},
	{"id": "agent-full-access", "name": "Full access", "description": "Unrestricted access to the internet and any file on your computer"},
}

const defaultMode = "agent"

// option is one config option's definition.
type option struct {
	id, name, description, category string
	boolean                         bool
	def                             any
	values                          []map[string]any // flat select values
	groups                          []map[string]any // grouped select (values inside "options")
	extra                           bool             // only in the "options" scenario
}

// refuseKey marks a listed select value that set_config_option refuses
// with this reason (never sent on the wire).
const refuseKey = "_refuse"

var options = []option{
	{id: "mode", name: "Mode", description: "Approval and sandboxing preset for the session", category: "mode", def: defaultMode, values: modeValues()},
	{id: "model", name: "Model", description: "Model Codex uses for the session", category: "model", def: "gpt-5.5", values: []map[string]any{
		{"value": "gpt-5.5", "name": "GPT-5.5", "description": "Frontier model for complex coding, research, and real-world work."},
		{"value": "gpt-5.4", "name": "gpt-5.4", "description": "Strong model for everyday coding."},
		{"value": "gpt-5.4-mini", "name": "GPT-5.4-Mini", "description": "Small, fast, and cost-efficient model for simpler coding tasks."},
		// Listed but refused, like a model the account may not use.
		{"value": "gpt-5-pro", "name": "GPT-5 Pro", "description": "For the hardest problems.", refuseKey: "gpt-5-pro is not available for this account"},
	}},
	{id: "reasoning_effort", name: "Reasoning effort", description: "How much the model thinks before answering", category: "thought_level", def: "medium", values: []map[string]any{
		{"value": "low", "name": "Low", "description": "Fast responses with lighter reasoning"},
		{"value": "medium", "name": "Medium", "description": "Balances speed and reasoning depth"},
		{"value": "high", "name": "High", "description": "Greater reasoning depth for complex problems"},
		{"value": "xhigh", "name": "Extra high", "description": "Extra high reasoning depth"},
	}},
	{id: "palette_family", name: "Palette family", description: "Which family of palettes to start from", category: "_theme", def: "midnight", extra: true, groups: []map[string]any{
		{"group": "dark", "name": "Dark", "options": []map[string]any{
			{"value": "midnight", "name": "Midnight", "description": "Deep blues"},
			{"value": "ember", "name": "Ember", "description": "Warm reds on charcoal"},
		}},
		{"group": "light", "name": "Light", "options": []map[string]any{
			{"value": "paper", "name": "Paper", "description": "Ink on off-white"},
			{"value": "meadow", "name": "Meadow"},
		}},
	}},
	{id: "fast-mode", name: "Fast mode", description: "Trade some quality for speed", category: "model_config", boolean: true, def: false, extra: true},
}

func modeValues() []map[string]any {
	var v []map[string]any
	for _, m := range modes {
		v = append(v, map[string]any{"value": m["id"], "name": m["name"], "description": m["description"]})
	}
	return v
}

func findOption(id string) *option {
	for i := range options {
		if options[i].id == id {
			return &options[i]
		}
	}
	return nil
}

// allows reports whether value is one of the option's choices.
func (o *option) allows(value any) bool {
	if o.boolean {
		_, ok := value.(bool)
		return ok
	}
	s, ok := value.(string)
	if !ok {
		return false
	}
	for _, v := range o.values {
		if v["value"] == s {
			return v[refuseKey] == nil
		}
	}
	for _, g := range o.groups {
		for _, v := range g["options"].([]map[string]any) {
			if v["value"] == s {
				return true
			}
		}
	}
	return false
}

// refusal is why a listed value is refused, "" when it is not.
func (o *option) refusal(value any) string {
	for _, v := range o.values {
		if v["value"] == value {
			if why, ok := v[refuseKey].(string); ok {
				return why
			}
		}
	}
	return ""
}

// wireValues are the select values as the wire shows them.
func (o *option) wireValues() []map[string]any {
	out := make([]map[string]any, 0, len(o.values))
	for _, v := range o.values {
		c := map[string]any{}
		for k, x := range v {
			if k != refuseKey {
				c[k] = x
			}
		}
		out = append(out, c)
	}
	return out
}

func (o *option) current(ss *session) any {
	if o.id == "mode" { // one source of truth for set_mode and set_config_option
		if ss.Mode != "" {
			return ss.Mode
		}
		return defaultMode
	}
	if v, ok := ss.Config[o.id]; ok {
		return v
	}
	return o.def
}

// configOptions renders the session's options as the wire shows them.
func configOptions(ss *session) []map[string]any {
	var out []map[string]any
	for i := range options {
		o := &options[i]
		if o.extra && !ss.Extras {
			continue
		}
		m := map[string]any{
			"id": o.id, "name": o.name, "description": o.description, "category": o.category,
			"currentValue": o.current(ss),
		}
		if o.boolean {
			m["type"] = "boolean"
		} else {
			m["type"] = "select"
			if o.groups != nil {
				m["options"] = o.groups
			} else {
				m["options"] = o.wireValues()
			}
		}
		out = append(out, m)
	}
	return out
}

func modeState(ss *session) map[string]any {
	cur := ss.Mode
	if cur == "" {
		cur = defaultMode
	}
	return map[string]any{"availableModes": modes, "currentModeId": cur}
}

func validMode(id string) bool {
	for _, m := range modes {
		if m["id"] == id {
			return true
		}
	}
	return false
}

// commands is the available_commands_update list: descriptions, some with input hints.
var commands = []map[string]any{
	{"name": "review", "description": "Review uncommitted changes, or review with custom instructions.", "input": map[string]any{"hint": "optional review instructions"}},
	{"name": "rename", "description": "Rename the current session.", "input": map[string]any{"hint": "new name"}},
	{"name": "status", "description": "Display session configuration and token usage.", "input": nil},
	{"name": "compact", "description": "Summarize conversation to avoid hitting the context limit.", "input": nil},
}
