package codexhome

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"

	"cdxtheme/core/fsread"
)

// Where a model list came from.
const (
	ModelsFromCache    = "cache"
	ModelsFromFallback = "fallback"
)

// ReasoningLevel is one reasoning effort a model supports. Efforts are open
// strings: Codex adds new ones ("max", "ultra") without notice.
type ReasoningLevel struct {
	Effort      string `json:"effort"`
	Description string `json:"description"`
}

// Model is one entry of the model picker.
type Model struct {
	ID                    string           `json:"id"`
	Name                  string           `json:"name"`
	Description           string           `json:"description"`
	DefaultReasoningLevel string           `json:"defaultReasoningLevel"`
	ReasoningLevels       []ReasoningLevel `json:"reasoningLevels"`
}

// ModelList is what the picker shows.
type ModelList struct {
	Current string `json:"current"` // config.toml's model, else the first listed
	Source  string `json:"source"`  // ModelsFromCache or ModelsFromFallback
	Hint    string `json:"hint"`    // a sentence for the user when something is missing, else ""
	// HintCode (one of the Hint* codes) and HintDir say the same for a UI.
	HintCode string  `json:"hintCode,omitempty"`
	HintDir  string  `json:"hintDir,omitempty"`
	Models   []Model `json:"models"`
	// Warnings are problems worth logging (corrupt files); never fatal.
	Warnings []string `json:"-"`
}

// cacheFile mirrors models_cache.json; only the fields used are declared so
// new ones are ignored.
type cacheFile struct {
	Models []struct {
		Slug                     string           `json:"slug"`
		DisplayName              string           `json:"display_name"`
		Description              *string          `json:"description"`
		Priority                 *float64         `json:"priority"`
		Visibility               *string          `json:"visibility"`
		DefaultReasoningLevel    *string          `json:"default_reasoning_level"`
		SupportedReasoningLevels []ReasoningLevel `json:"supported_reasoning_levels"`
	} `json:"models"`
}

// standardLevels are the efforts every current Codex model accepts; used
// for the built-in list and for a config.toml model the cache lacks.
var standardLevels = []ReasoningLevel{
	{Effort: "low", Description: "Fast responses with lighter reasoning"},
	{Effort: "medium", Description: "Balances speed and reasoning depth for everyday tasks"},
	{Effort: "high", Description: "Greater reasoning depth for complex problems"},
	{Effort: "xhigh", Description: "Extra high reasoning depth for complex problems"},
}

// FallbackModels is the small built-in list used when models_cache.json is
// missing (it is only written after a ChatGPT login) or unreadable.
func FallbackModels() []Model {
	return []Model{
		{ID: "gpt-5.5", Name: "GPT-5.5", Description: "Frontier model for coding and everyday work.", DefaultReasoningLevel: "medium", ReasoningLevels: standardLevels},
		{ID: "gpt-5.3-codex", Name: "GPT-5.3-Codex", Description: "Codex-tuned model for agentic coding.", DefaultReasoningLevel: "medium", ReasoningLevels: standardLevels},
		{ID: "gpt-5.2", Name: "GPT-5.2", Description: "Previous general model.", DefaultReasoningLevel: "medium", ReasoningLevels: standardLevels},
	}
}

// Models lists the models to offer: models_cache.json's listed entries by
// priority, plus config.toml's model when the cache lacks it; the built-in
// list when there is no usable cache. It never fails: problems become
// Warnings and a Hint.
func (h Home) Models() ModelList {
	out := ModelList{Hint: h.Hint()}
	if out.Hint != "" {
		out.HintCode, out.HintDir = HintNoHome, h.hintDir()
	}
	cfg, err := h.Config()
	if err != nil {
		out.Warnings = append(out.Warnings, err.Error()+" (using defaults)")
	}
	models, err := h.cachedModels()
	switch {
	case err == nil:
		out.Source = ModelsFromCache
	case errors.Is(err, fs.ErrNotExist):
		out.Source = ModelsFromFallback
		if out.Hint == "" {
			out.Hint = "No model list from Codex yet (models_cache.json is written after signing in); showing built-in models"
			out.HintCode, out.HintDir = HintNoModelCache, h.hintDir()
		}
	default:
		out.Source = ModelsFromFallback
		out.Warnings = append(out.Warnings, err.Error())
		if out.Hint == "" {
			out.Hint = "Codex's model list (models_cache.json) is unreadable; showing built-in models"
			out.HintCode, out.HintDir = HintModelCacheUnreadable, h.hintDir()
		}
	}
	if out.Source == ModelsFromFallback {
		models = FallbackModels()
	}
	if cfg.Model != "" && !hasModel(models, cfg.Model) {
		models = append(models, Model{
			ID:                    cfg.Model,
			Name:                  cfg.Model,
			Description:           "Set in config.toml",
			DefaultReasoningLevel: cfg.ReasoningEffort,
			ReasoningLevels:       standardLevels,
		})
	}
	out.Models = models
	out.Current = cfg.Model
	if out.Current == "" && len(models) > 0 {
		out.Current = models[0].ID
	}
	return out
}

func hasModel(ms []Model, id string) bool {
	for _, m := range ms {
		if m.ID == id {
			return true
		}
	}
	return false
}

// maxModelsCache bounds models_cache.json (today ~100 KiB with every
// model's base instructions).
const maxModelsCache = 16 << 20

// cachedModels reads models_cache.json. fs.ErrNotExist (wrapped) means no
// cache; any other error means a corrupt or unreadable one.
func (h Home) cachedModels() ([]Model, error) {
	if h.Dir == "" {
		return nil, fs.ErrNotExist
	}
	p := h.path("models_cache.json")
	b, err := fsread.ReadFile(p, maxModelsCache, fsread.Follow)
	if err != nil {
		return nil, err // names the file; fs.ErrNotExist stays testable
	}
	var cf cacheFile
	if err := json.Unmarshal(b, &cf); err != nil {
		return nil, fmt.Errorf("parse %s: %w", p, err)
	}
	type ranked struct {
		m        Model
		priority float64
		has      bool
	}
	var rs []ranked
	for _, e := range cf.Models {
		if e.Slug == "" {
			continue
		}
		if e.Visibility != nil && *e.Visibility != "list" {
			continue // "hide" and "none" are internal models (e.g. auto-review)
		}
		m := Model{ID: e.Slug, Name: e.DisplayName, ReasoningLevels: e.SupportedReasoningLevels}
		if m.Name == "" {
			m.Name = e.Slug
		}
		if e.Description != nil {
			m.Description = *e.Description
		}
		if e.DefaultReasoningLevel != nil {
			m.DefaultReasoningLevel = *e.DefaultReasoningLevel
		}
		if m.ReasoningLevels == nil {
			m.ReasoningLevels = []ReasoningLevel{}
		}
		r := ranked{m: m}
		if e.Priority != nil {
			r.priority, r.has = *e.Priority, true
		}
		rs = append(rs, r)
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("parse %s: no listed models", p)
	}
	// Lower priority numbers come first; entries without one go last, in
	// file order.
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].has != rs[j].has {
			return rs[i].has
		}
		return rs[i].priority < rs[j].priority
	})
	out := make([]Model, len(rs))
	for i, r := range rs {
		out[i] = r.m
	}
	return out, nil
}
