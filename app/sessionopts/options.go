// Package sessionopts is a chat's settings as its session bar shows them
// before the agent answers: the values chosen laid over the options the
// agent reported (WithValues, NewBuild), Codex's models and efforts from
// models_cache.json (ModelOptions, DefaultEffort), and what an option or
// the agent's refusal says (CurrentOf, RPCReason).
package sessionopts

import (
	"cmp"
	"errors"
	"strings"

	"cdxtheme/app/chatmemory"
	"cdxtheme/core/acp"
	"cdxtheme/core/codexhome"
	"cdxtheme/core/settings"
)

// NewBuild lays a new build's values (config.toml's model and effort for
// Codex, then the agent's defaults; keys are option ids or categories)
// over the options and modes the bar starts from: the effort follows the
// model (its default level, defaultEffort) unless a value names it, and
// the mode follows its option or value.
func NewBuild(opts []acp.ConfigOption, modes *acp.SessionModeState, values, defaults map[string]any, defaultEffort func(model string) string) ([]acp.ConfigOption, *acp.SessionModeState) {
	opts = WithValues(opts, values)
	if m, ok := acp.FindConfigOption(opts, acp.CategoryModel, "model"); ok && values[acp.CategoryThoughtLevel] == nil && !HasKeyFor(opts, defaults, acp.CategoryThoughtLevel) {
		// The effort follows the model: its default level.
		if eff := defaultEffort(m.Value); eff != "" {
			opts = WithValues(opts, map[string]any{acp.CategoryThoughtLevel: eff})
		}
	}
	if modes != nil {
		if o, ok := acp.FindConfigOption(opts, acp.CategoryMode, ""); ok {
			ms := *modes
			ms.CurrentModeID = o.Value
			modes = &ms
		} else if v, ok := values[acp.CategoryMode].(string); ok {
			ms := *modes
			ms.CurrentModeID = v
			modes = &ms
		}
	}
	return opts, modes
}

// IsCodex reports whether the entry runs Codex (either adapter), whose
// models_cache.json and config.toml describe it before it answers.
func IsCodex(ag settings.Agent) bool {
	return ag.Kind == settings.KindCodex || ag.Kind == settings.KindCodexRS || ag.Kind == ""
}

// HasKeyFor reports whether values hold a key naming the option of category.
func HasKeyFor(opts []acp.ConfigOption, values map[string]any, category string) bool {
	for k := range values {
		if o, ok := chatmemory.ResolveOption(opts, k); ok && o.Category == category {
			return true
		}
	}
	return false
}

// WithValues sets the current values of opts from values (keys are ids or
// categories); a value the option does not offer is left out.
func WithValues(opts []acp.ConfigOption, values map[string]any) []acp.ConfigOption {
	out := append([]acp.ConfigOption(nil), opts...)
	for k, v := range values {
		for i, o := range out {
			if o.ID != k && o.Category != k {
				continue
			}
			switch val := v.(type) {
			case string:
				if o.Type == "select" && o.HasValue(val) {
					out[i] = withSelect(o, val)
				}
			case bool:
				if o.Type == "boolean" {
					o.Bool, o.Raw = val, nil
					out[i] = o
				}
			}
			break
		}
	}
	return out
}

// withSelect is o with another current value; Raw is dropped so the
// option marshals from its fields.
func withSelect(o acp.ConfigOption, v string) acp.ConfigOption {
	o.Value, o.Raw = v, nil
	return o
}

// ModelOptions are the model and effort choices from models_cache.json
// (or the built-in list) when the agent has not reported its own, under
// the ids Codex uses.
func ModelOptions(ml codexhome.ModelList) []acp.ConfigOption {
	model := acp.ConfigOption{ID: "model", Name: "Model", Category: acp.CategoryModel, Type: "select", Value: ml.Current}
	var levels []codexhome.ReasoningLevel
	for _, m := range ml.Models {
		model.Options = append(model.Options, acp.ConfigSelectOption{Value: m.ID, Name: cmp.Or(m.Name, m.ID), Description: m.Description})
		if m.ID == ml.Current {
			levels = m.ReasoningLevels
		}
	}
	if len(model.Options) == 0 {
		return nil
	}
	if !model.HasValue(model.Value) {
		model.Value = model.Options[0].Value
	}
	out := []acp.ConfigOption{model}
	if len(levels) > 0 {
		eff := acp.ConfigOption{ID: "reasoning_effort", Name: "Reasoning effort", Category: acp.CategoryThoughtLevel, Type: "select"}
		for _, l := range levels {
			eff.Options = append(eff.Options, acp.ConfigSelectOption{Value: l.Effort, Name: l.Effort, Description: l.Description})
		}
		eff.Value = DefaultEffort(ml, model.Value)
		if !eff.HasValue(eff.Value) {
			eff.Value = eff.Options[0].Value
		}
		out = append(out, eff)
	}
	return out
}

// DefaultEffort is a model's default reasoning effort from
// models_cache.json (or the built-in list, ml); "" when unknown.
func DefaultEffort(ml codexhome.ModelList, modelID string) string {
	for _, m := range ml.Models {
		if m.ID == modelID {
			return m.DefaultReasoningLevel
		}
	}
	return ""
}

// CurrentOf is an option's current value as JSON would carry it.
func CurrentOf(o acp.ConfigOption) any {
	switch o.Type {
	case "boolean":
		return o.Bool
	case "select":
		return o.Value
	}
	return nil
}

// RPCReason is the agent's own message in a refused-setting error.
func RPCReason(err error) string {
	var re *acp.RPCError
	if errors.As(err, &re) && re.Message != "" {
		return strings.TrimSpace(re.Message)
	}
	return err.Error()
}
