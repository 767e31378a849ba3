package acp

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Config option categories (open set; others pass through).
const (
	CategoryMode         = "mode"
	CategoryModel        = "model"
	CategoryModelConfig  = "model_config"
	CategoryThoughtLevel = "thought_level"
)

// ConfigSelectOption is one value of a select option.
type ConfigSelectOption struct {
	Value       string          `json:"value"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// ConfigSelectGroup is a named group of values (the "Grouped" form).
type ConfigSelectGroup struct {
	Group   string               `json:"group"`
	Name    string               `json:"name"`
	Options []ConfigSelectOption `json:"options"`
	Meta    json.RawMessage      `json:"_meta,omitempty"`
}

// ConfigOption is a session setting. Type "select" fills Value and either
// Options or Groups; "boolean" fills Bool. An unknown type keeps only the
// common fields and Raw. Raw is always the object as the agent sent it,
// and is what MarshalJSON writes back.
type ConfigOption struct {
	// The tags name the fields as on the wire, for internal/tools/tsgen;
	// encoding/json uses the methods.
	ID          string               `json:"id"`
	Name        string               `json:"name"`
	Description string               `json:"description,omitempty"`
	Category    string               `json:"category,omitempty"`
	Type        string               `json:"type"`
	Value       string               `json:"currentValue" ts:"string | boolean"` // select: currentValue
	Bool        bool                 `json:"-"`                                  // boolean: currentValue
	Options     []ConfigSelectOption `json:"options,omitempty" ts:"(ConfigSelectOption | ConfigSelectGroup)[]"`
	Groups      []ConfigSelectGroup  `json:"-"`
	Meta        json.RawMessage      `json:"_meta,omitempty"`
	Raw         json.RawMessage      `json:"-"`
	// ViaSetModel: made from the agent's models state, set with
	// session/set_model rather than set_config_option.
	ViaSetModel bool `json:"-"`
}

// UnmarshalJSON decodes by the "type" discriminator and the shape of
// options (flat values or groups).
func (o *ConfigOption) UnmarshalJSON(b []byte) error {
	var h struct {
		ID           string          `json:"id"`
		Name         string          `json:"name"`
		Description  string          `json:"description"`
		Category     *string         `json:"category"`
		Type         string          `json:"type"`
		CurrentValue json.RawMessage `json:"currentValue"`
		Options      json.RawMessage `json:"options"`
		Meta         json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(b, &h); err != nil {
		return err
	}
	*o = ConfigOption{ID: h.ID, Name: h.Name, Description: h.Description, Type: h.Type, Meta: h.Meta,
		Raw: append(json.RawMessage(nil), b...)}
	if h.Category != nil {
		o.Category = *h.Category
	}
	switch h.Type {
	case "select":
		// Lenient like the schema's x-deserialize-default-on-error: one
		// odd option must not make the whole session/new result unreadable.
		_ = json.Unmarshal(h.CurrentValue, &o.Value)
		var items []json.RawMessage
		_ = json.Unmarshal(h.Options, &items)
		for _, it := range items {
			var probe struct {
				Group *string `json:"group"`
			}
			if json.Unmarshal(it, &probe) != nil {
				continue // schema: skip invalid items
			}
			if probe.Group != nil {
				var g ConfigSelectGroup
				if json.Unmarshal(it, &g) == nil {
					o.Groups = append(o.Groups, g)
				}
				continue
			}
			var v ConfigSelectOption
			if json.Unmarshal(it, &v) == nil && v.Value != "" {
				o.Options = append(o.Options, v)
			}
		}
	case "boolean":
		_ = json.Unmarshal(h.CurrentValue, &o.Bool)
	}
	return nil
}

// MarshalJSON writes Raw when present (the agent's own form), else the
// known fields.
func (o ConfigOption) MarshalJSON() ([]byte, error) {
	if len(o.Raw) > 0 {
		return o.Raw, nil
	}
	m := map[string]any{"id": o.ID, "name": o.Name, "type": o.Type}
	if o.Description != "" {
		m["description"] = o.Description
	}
	if o.Category != "" {
		m["category"] = o.Category
	}
	if len(o.Meta) > 0 {
		m["_meta"] = o.Meta
	}
	switch o.Type {
	case "select":
		m["currentValue"] = o.Value
		if len(o.Groups) > 0 {
			m["options"] = o.Groups
		} else {
			opts := o.Options
			if opts == nil {
				opts = []ConfigSelectOption{}
			}
			m["options"] = opts
		}
	case "boolean":
		m["currentValue"] = o.Bool
	}
	return json.Marshal(m)
}

// Values lists every selectable value, flattening groups.
func (o ConfigOption) Values() []ConfigSelectOption {
	if len(o.Groups) == 0 {
		return o.Options
	}
	var out []ConfigSelectOption
	for _, g := range o.Groups {
		out = append(out, g.Options...)
	}
	return out
}

// HasValue reports whether v is one of the select values.
func (o ConfigOption) HasValue(v string) bool {
	for _, x := range o.Values() {
		if x.Value == v {
			return true
		}
	}
	return false
}

// Match finds the select value v names: by value id, else by display name
// (case-insensitive), so a user can type what the agent shows.
func (o ConfigOption) Match(v string) (string, bool) {
	if o.HasValue(v) {
		return v, true
	}
	for _, x := range o.Values() {
		if x.Name != "" && strings.EqualFold(x.Name, v) {
			return x.Value, true
		}
	}
	return "", false
}

// Offered lists the select values as `id (name)`, for a message.
func (o ConfigOption) Offered() string {
	var out []string
	for _, x := range o.Values() {
		if x.Name != "" && x.Name != x.Value {
			out = append(out, fmt.Sprintf("%s (%s)", x.Value, x.Name))
		} else {
			out = append(out, x.Value)
		}
	}
	return strings.Join(out, ", ")
}

// FindConfigOption returns the option of the given category, else the one
// whose id is fallbackID. Agents name things differently; the category is
// the reliable signal, the id the seed's fallback.
func FindConfigOption(opts []ConfigOption, category, fallbackID string) (ConfigOption, bool) {
	for _, o := range opts {
		if category != "" && o.Category == category {
			return o, true
		}
	}
	for _, o := range opts {
		if fallbackID != "" && o.ID == fallbackID {
			return o, true
		}
	}
	return ConfigOption{}, false
}
