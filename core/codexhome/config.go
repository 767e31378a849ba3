package codexhome

import (
	"errors"
	"fmt"
	"io/fs"

	"cdxtheme/core/fsread"

	"github.com/pelletier/go-toml/v2"
)

// Config is the part of config.toml the app cares about. Codex has many
// more keys; they are ignored, as is the legacy top-level `profile`.
type Config struct {
	Model           string `toml:"model" json:"model"`
	ModelProvider   string `toml:"model_provider" json:"modelProvider"`
	ReasoningEffort string `toml:"model_reasoning_effort" json:"reasoningEffort"`
	// Providers are the [model_providers.ID] tables (name, base_url).
	Providers map[string]Provider `toml:"model_providers" json:"-"`
}

// Provider is one model server Codex can talk to.
type Provider struct {
	Name    string `toml:"name"`
	BaseURL string `toml:"base_url"`
}

// ModelServer describes the model server the config uses, for messages:
// "Mock Responses (http://127.0.0.1:8080/v1)", or OpenAI's when no
// provider is configured.
func (c Config) ModelServer() string {
	id := c.ModelProvider
	if id == "" || id == "openai" {
		return "OpenAI"
	}
	p, ok := c.Providers[id]
	if !ok {
		return id
	}
	name := p.Name
	if name == "" {
		name = id
	}
	if p.BaseURL != "" {
		return name + " (" + p.BaseURL + ")"
	}
	return name
}

// maxConfig bounds config.toml (MCP servers and profiles included, a real
// one is a few KiB).
const maxConfig = 4 << 20

// Config reads config.toml. A missing file gives the zero Config and no
// error; an unreadable or corrupt one gives the zero Config and an error
// the caller shows as a warning.
func (h Home) Config() (Config, error) {
	var c Config
	if h.Dir == "" {
		return c, nil
	}
	p := h.path("config.toml")
	b, err := fsread.ReadFile(p, maxConfig, fsread.Follow)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, err // names the file and why
	}
	if err := toml.Unmarshal(b, &c); err != nil {
		return Config{}, fmt.Errorf("parse %s: %w", p, err)
	}
	return c, nil
}
