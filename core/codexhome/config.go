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
