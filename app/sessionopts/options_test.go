package sessionopts

import (
	"testing"

	"cdxtheme/core/acp"
	"cdxtheme/core/codexhome"
)

// Before Codex answers, New build's bar offers the models of
// models_cache.json with the current one chosen, and the effort follows
// the chosen model's default unless the agent's defaults name one.
func TestNewBuildsBarFollowsTheModel(t *testing.T) {
	levels := []codexhome.ReasoningLevel{{Effort: "low"}, {Effort: "medium"}, {Effort: "high"}}
	ml := codexhome.ModelList{Current: "b", Models: []codexhome.Model{
		{ID: "a", DefaultReasoningLevel: "high", ReasoningLevels: levels},
		{ID: "b", Name: "Model B", DefaultReasoningLevel: "low", ReasoningLevels: levels},
	}}
	opts := ModelOptions(ml)
	if len(opts) != 2 || opts[0].Value != "b" || opts[0].Options[1].Name != "Model B" || opts[0].Options[0].Name != "a" || opts[1].Value != "low" {
		t.Fatalf("model options: %+v", opts)
	}
	eff := func(m string) string { return DefaultEffort(ml, m) }
	got, _ := NewBuild(opts, nil, map[string]any{acp.CategoryModel: "a"}, nil, eff)
	if got[0].Value != "a" || got[1].Value != "high" {
		t.Errorf("model a chosen: %s with effort %s, want a's default high", got[0].Value, got[1].Value)
	}
	defaults := map[string]any{"reasoning_effort": "medium"}
	got, _ = NewBuild(opts, nil, map[string]any{acp.CategoryModel: "a", "reasoning_effort": "medium"}, defaults, eff)
	if got[1].Value != "medium" {
		t.Errorf("the agent's default effort was replaced by the model's: %s", got[1].Value)
	}
	// A value the option does not offer is left out.
	if got := WithValues(opts, map[string]any{acp.CategoryModel: "gone"}); got[0].Value != "b" {
		t.Errorf("an unknown model was set: %s", got[0].Value)
	}
	if ModelOptions(codexhome.ModelList{}) != nil {
		t.Error("options offered with no models known")
	}
}
