// Package settings holds the user's preferences, stored as TOML in the
// app's config dir (core/paths). Every front end (CLI, desktop app) reads
// the same file.
package settings

import (
	"cdxtheme/core/damaged"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"cdxtheme/core/agent"
	"cdxtheme/core/paths"

	"github.com/pelletier/go-toml/v2"
)

// Permission policies for agent permission requests.
const (
	PolicyAsk   = "ask"
	PolicyAllow = "allow"
	PolicyDeny  = "deny"
)

// Appearances of the app's own UI; "" follows the OS like AppearanceSystem.
const (
	AppearanceSystem = "system"
	AppearanceLight  = "light"
	AppearanceDark   = "dark"
)

// Settings is everything the user can change. Zero values mean "default".
type Settings struct {
	// CodexACPVersion is the npm version the Bun sidecar runs.
	CodexACPVersion string `toml:"codex_acp_version" json:"codexAcpVersion"`
	// PermissionPolicy is ask, allow or deny.
	PermissionPolicy string `toml:"permission_policy" json:"permissionPolicy"`
	// TurnTimeoutSeconds bounds a whole turn.
	TurnTimeoutSeconds int `toml:"turn_timeout_seconds" json:"turnTimeoutSeconds"`
	// EnterSends makes plain Enter send (Ctrl/Cmd+Enter always sends).
	EnterSends bool `toml:"enter_sends" json:"enterSends"`
	// CodexHome overrides $CODEX_HOME / ~/.codex.
	CodexHome string `toml:"codex_home" json:"codexHome"`
	// Language is a locale code ("" follows the OS).
	Language string `toml:"language" json:"language"`
	// WarmConnection keeps the open chat's agent connection between turns.
	WarmConnection *bool `toml:"warm_connection" json:"warmConnection"`
	// Model and ReasoningEffort remember the last choice.
	Model           string `toml:"model" json:"model"`
	ReasoningEffort string `toml:"reasoning_effort" json:"reasoningEffort"`
	// Appearance is light, dark or system ("" = system).
	Appearance string `toml:"appearance" json:"appearance"`
	// ThemeTools offers the app's own MCP server (theme_check,
	// theme_render, …; `cdxtheme mcp`) to every session of a build.
	ThemeTools *bool `toml:"theme_tools" json:"themeTools"`
	// TemplateFolders are tinted-theming template folders (absolute
	// paths) whose templates Export offers beside the built-in formats.
	TemplateFolders []string `toml:"template_folders" json:"templateFolders,omitempty"`
}

// MaxTemplateFolders bounds Settings.TemplateFolders.
const MaxTemplateFolders = 32

// DefaultCodexACPVersion is the pinned adapter the sidecar runs by default.
const DefaultCodexACPVersion = agent.SidecarVersion

// DefaultTimeout bounds a turn when the user set nothing.
const DefaultTimeout = 3 * time.Minute

// Timeout returns the turn timeout.
func (s Settings) Timeout() time.Duration {
	if s.TurnTimeoutSeconds <= 0 {
		return DefaultTimeout
	}
	return time.Duration(s.TurnTimeoutSeconds) * time.Second
}

// Policy returns the permission policy, ask when unset or unknown.
func (s Settings) Policy() string {
	switch s.PermissionPolicy {
	case PolicyAllow, PolicyDeny:
		return s.PermissionPolicy
	}
	return PolicyAsk
}

// Scheme is the colour scheme the UI must use: "light", "dark", or "" to
// follow the OS (also for a value this version does not know).
func (s Settings) Scheme() string {
	switch s.Appearance {
	case AppearanceLight, AppearanceDark:
		return s.Appearance
	}
	return ""
}

// Tools reports whether the agent is offered the theme tools (default on).
func (s Settings) Tools() bool { return s.ThemeTools == nil || *s.ThemeTools }

// Warm reports whether warm connections are on (default on).
func (s Settings) Warm() bool { return s.WarmConnection == nil || *s.WarmConnection }

// ACPVersion returns the sidecar's adapter version.
func (s Settings) ACPVersion() string {
	if s.CodexACPVersion == "" {
		return DefaultCodexACPVersion
	}
	return s.CodexACPVersion
}

// Validate rejects values the app cannot honour.
func (s Settings) Validate() error {
	switch s.PermissionPolicy {
	case "", PolicyAsk, PolicyAllow, PolicyDeny:
	default:
		return fmt.Errorf("permission policy %q: want ask, allow or deny", s.PermissionPolicy)
	}
	switch s.Appearance {
	case "", AppearanceSystem, AppearanceLight, AppearanceDark:
	default:
		return fmt.Errorf("appearance %q: want light, dark or system", s.Appearance)
	}
	if s.TurnTimeoutSeconds < 0 || s.TurnTimeoutSeconds > 24*3600 {
		return fmt.Errorf("turn timeout %ds: want 0 (default) to 86400", s.TurnTimeoutSeconds)
	}
	if s.CodexHome != "" && !filepath.IsAbs(s.CodexHome) {
		return fmt.Errorf("codex home %q: want an absolute path", s.CodexHome)
	}
	if len(s.TemplateFolders) > MaxTemplateFolders {
		return fmt.Errorf("%d template folders: at most %d", len(s.TemplateFolders), MaxTemplateFolders)
	}
	for _, d := range s.TemplateFolders {
		if !filepath.IsAbs(d) {
			return fmt.Errorf("template folder %q: want an absolute path", d)
		}
	}
	return nil
}

// AgentsCacheDir is where agents the app installs itself live (the Bun
// sidecar's adapter, one folder per package and version).
func AgentsCacheDir() string { return filepath.Join(paths.CacheDir(), "agents") }

// Path is the settings file.
func Path() string { return filepath.Join(paths.ConfigDir(), "settings.toml") }

// Load reads the settings file; a missing file gives defaults. A damaged
// file is set aside (core/damaged) and gives defaults with a
// *damaged.Error saying where the copy is, so nothing is saved over it.
func Load() (Settings, error) { return LoadFile(Path()) }

// LoadFile reads settings from path.
func LoadFile(path string) (Settings, error) {
	var s Settings
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("read settings %s: %w", path, err)
	}
	if err := toml.Unmarshal(b, &s); err != nil {
		return Settings{}, damaged.Handle(path, fmt.Errorf("parse settings: %w", err))
	}
	return s, nil
}

// Save writes the settings atomically and durably (core/paths).
func Save(s Settings) error { return SaveFile(Path(), s) }

// SaveFile writes settings to path atomically.
func SaveFile(path string, s Settings) error {
	if err := s.Validate(); err != nil {
		return err
	}
	b, err := toml.Marshal(s)
	if err != nil {
		return fmt.Errorf("encode settings: %w", err)
	}
	if err := setAsideIfDamaged(path, func(b []byte) error { var s Settings; return toml.Unmarshal(b, &s) }); err != nil {
		return err
	}
	return paths.WriteFileAtomic(path, b, 0o600)
}

// setAsideIfDamaged moves the file at path aside when parse rejects it, so
// a save never replaces a damaged file the user may still want (one that
// broke after it was loaded, or whose setting aside failed then).
func setAsideIfDamaged(path string, parse func([]byte) error) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil // missing (or unreadable: the write reports it)
	}
	perr := parse(b)
	if perr == nil {
		return nil
	}
	if err := damaged.Handle(path, perr); !errors.As(err, new(*damaged.Error)) {
		return fmt.Errorf("not saved: %w", err)
	}
	return nil
}
