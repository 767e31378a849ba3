package settings

import (
	"cdxtheme/core/damaged"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"cdxtheme/core/agent"
	"cdxtheme/core/paths"

	"github.com/pelletier/go-toml/v2"
)

// Agent kinds: how an entry's command is found.
const (
	KindCodex   = "codex"    // Command and Args if set, else the seed order: codex-acp on PATH, else the bundled Bun sidecar
	KindCodexRS = "codex-rs" // the Rust adapter @zed-industries/codex-acp, run by Bun
	KindClaude  = "claude"   // @zed-industries/claude-code-acp, run by Bun
	KindCustom  = "custom"   // any ACP agent: Command, Args, Env
)

// AgentsVersion is the agents.toml format: 2 keeps every agent command as
// a program and a list of arguments (version 1 had the Codex command as one
// string in settings.toml; see MigrateAgents).
const AgentsVersion = 2

// Packages the Bun-run kinds start with `bun x`, each at an exact version:
// an unpinned `bun x` would run whatever the registry calls latest today.
const (
	CodexRSPackage = "@zed-industries/codex-acp@0.16.0"       // the version peers/ tests
	ClaudePackage  = "@zed-industries/claude-code-acp@0.16.2" // the last one published under this name
)

// Agent is one entry of the agents list.
type Agent struct {
	ID      string            `toml:"id" json:"id"`
	Name    string            `toml:"name" json:"name"`
	Kind    string            `toml:"kind" json:"kind"`
	Command string            `toml:"command,omitempty" json:"command"` // custom, or codex instead of the search: the program
	Args    []string          `toml:"args,omitempty" json:"args"`       // its arguments, each one word as given
	Env     map[string]string `toml:"env,omitempty" json:"env"`
	// Defaults are the session settings this agent starts with: config
	// option id (or category) → value, a string for a select or a bool.
	// The last choice made in a chat with this agent is remembered here.
	Defaults map[string]any `toml:"defaults,omitempty" json:"defaults" ts_type:"{[key: string]: string | boolean}"`
	// Secrets names the stored secrets this agent is given (environment
	// variables), for the agents list to show; derived from the kind.
	Secrets []string `toml:"-" json:"secrets"`
	// Pinned is the package and exact version the app runs for this entry
	// when it runs a package itself ("" for a command of the user's own);
	// derived from the kind, for the agents list to show.
	Pinned string `toml:"-" json:"pinned"`
}

// MCP server transports.
const (
	MCPStdio = "stdio"
	MCPHTTP  = "http"
	MCPSSE   = "sse"
)

// MCPServer is one Model Context Protocol server handed to every new,
// loaded or resumed session.
type MCPServer struct {
	Name     string            `toml:"name" json:"name"`
	Type     string            `toml:"type" json:"type"` // stdio (default), http, sse
	Command  string            `toml:"command,omitempty" json:"command"`
	Args     []string          `toml:"args,omitempty" json:"args"`
	Env      map[string]string `toml:"env,omitempty" json:"env"`
	URL      string            `toml:"url,omitempty" json:"url"`
	Headers  map[string]string `toml:"headers,omitempty" json:"headers"`
	Disabled bool              `toml:"disabled,omitempty" json:"disabled"`
}

// AgentList is agents.toml: the agents to choose from, which one New Build
// uses, and the MCP servers.
type AgentList struct {
	Version    int         `toml:"version" json:"-"`
	Default    string      `toml:"default" json:"default"`
	Agents     []Agent     `toml:"agent" json:"agents"`
	MCPServers []MCPServer `toml:"mcp_server" json:"mcpServers"`
}

// Builtins are the entries every list has (the user may edit their
// defaults, not remove them).
func Builtins() []Agent {
	return []Agent{
		{ID: KindCodex, Name: "Codex", Kind: KindCodex},
		{ID: KindCodexRS, Name: "Codex (Rust adapter)", Kind: KindCodexRS},
		{ID: KindClaude, Name: "Claude Code", Kind: KindClaude},
	}
}

// AgentsPath is the agents file.
func AgentsPath() string { return filepath.Join(paths.ConfigDir(), "agents.toml") }

// LoadAgents migrates the agents file if it is older (MigrateAgents), then
// reads it; see LoadAgentsFile.
func LoadAgents() (AgentList, error) {
	merr := MigrateAgents(AgentsPath(), Path())
	l, err := LoadAgentsFile(AgentsPath())
	return l, errors.Join(merr, err)
}

// LoadAgentsFile reads the list at path. A missing file gives the
// built-in entries; a damaged one gives them too, set aside first
// (core/damaged) so a later save cannot replace the user's agents.
func LoadAgentsFile(path string) (AgentList, error) {
	var l AgentList
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		err = nil
	case err != nil:
		err = fmt.Errorf("read agents %s: %w", path, err)
	default:
		if perr := toml.Unmarshal(b, &l); perr != nil {
			l, err = AgentList{}, damaged.Handle(path, fmt.Errorf("parse agents: %w", perr))
		}
	}
	return l.withBuiltins(), err
}

// SaveAgents writes the list after Validate.
func SaveAgents(l AgentList) error { return SaveAgentsFile(AgentsPath(), l) }

// SaveAgentsFile writes the list to path atomically (0600: env values may
// hold tokens).
func SaveAgentsFile(path string, l AgentList) error {
	l = l.withBuiltins()
	l.Version = AgentsVersion
	if err := l.Validate(); err != nil {
		return err
	}
	b, err := toml.Marshal(l)
	if err != nil {
		return fmt.Errorf("encode agents: %w", err)
	}
	if err := setAsideIfDamaged(path, func(b []byte) error { var l AgentList; return toml.Unmarshal(b, &l) }); err != nil {
		return err
	}
	return paths.WriteFileAtomic(path, b, 0o600)
}

// withBuiltins adds the built-in entries that are missing and keeps their
// kind fixed, so an edited file cannot turn "codex" into something else.
func (l AgentList) withBuiltins() AgentList {
	out := l
	out.Agents = nil
	have := map[string]bool{}
	for _, a := range l.Agents {
		have[a.ID] = true
	}
	for _, b := range Builtins() {
		if !have[b.ID] {
			b.Secrets, b.Pinned = b.secrets(), b.pinned()
			out.Agents = append(out.Agents, b)
		}
	}
	for _, a := range l.Agents {
		for _, b := range Builtins() {
			if a.ID == b.ID {
				a.Kind = b.Kind
				if a.Name == "" {
					a.Name = b.Name
				}
			}
		}
		a.Secrets, a.Pinned = a.secrets(), a.pinned()
		out.Agents = append(out.Agents, a)
	}
	sort.SliceStable(out.Agents, func(i, j int) bool { return builtinRank(out.Agents[i].ID) < builtinRank(out.Agents[j].ID) })
	return out
}

func builtinRank(id string) int {
	for i, b := range Builtins() {
		if b.ID == id {
			return i
		}
	}
	return len(Builtins())
}

var (
	idRe  = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,62}$`)
	envRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// Validate rejects entries the app could not run, naming the entry.
func (l AgentList) Validate() error {
	seen := map[string]bool{}
	for i, a := range l.Agents {
		where := fmt.Sprintf("agent %d (%q)", i+1, a.ID)
		if !idRe.MatchString(a.ID) {
			return fmt.Errorf("%s: the id must be lower-case letters, digits, '.', '_' or '-'", where)
		}
		if seen[a.ID] {
			return fmt.Errorf("%s: the id is used twice", where)
		}
		seen[a.ID] = true
		switch a.Kind {
		case KindCodex, KindCodexRS, KindClaude:
		case KindCustom:
			if strings.TrimSpace(a.Command) == "" {
				return fmt.Errorf("%s: a custom agent needs a command", where)
			}
		default:
			return fmt.Errorf("%s: unknown kind %q (want codex, codex-rs, claude or custom)", where, a.Kind)
		}
		for k := range a.Env {
			if !envRe.MatchString(k) {
				return fmt.Errorf("%s: %q is not an environment variable name", where, k)
			}
		}
		for k, v := range a.Defaults {
			switch v.(type) {
			case string, bool:
			default:
				return fmt.Errorf("%s: default %q must be text or true/false, not %v", where, k, v)
			}
		}
	}
	if l.Default != "" && !seen[l.Default] {
		return fmt.Errorf("the default agent %q is not in the list", l.Default)
	}
	names := map[string]bool{}
	for i, m := range l.MCPServers {
		if err := m.Validate(); err != nil {
			return fmt.Errorf("MCP server %d: %w", i+1, err)
		}
		if names[m.Name] {
			return fmt.Errorf("MCP server %d: the name %q is used twice", i+1, m.Name)
		}
		names[m.Name] = true
	}
	return nil
}

// Find returns the agent with id; "" means the default agent (else the
// first entry, Codex).
func (l AgentList) Find(id string) (Agent, bool) {
	if id == "" {
		id = l.Default
	}
	for _, a := range l.Agents {
		if a.ID == id || (id == "" && a.Kind == KindCodex) {
			return a, true
		}
	}
	return Agent{}, false
}

// SetDefaults records values as the agent's defaults (the last choice).
func (l *AgentList) SetDefaults(id string, values map[string]any) bool {
	for i := range l.Agents {
		if l.Agents[i].ID == id {
			if l.Agents[i].Defaults == nil {
				l.Agents[i].Defaults = map[string]any{}
			}
			for k, v := range values {
				l.Agents[i].Defaults[k] = v
			}
			return true
		}
	}
	return false
}

// PinnedPackages are the packages the Bun-run kinds install, each from the
// lockfile the app ships for it (core/agent/locks).
func PinnedPackages() []string { return []string{CodexRSPackage, ClaudePackage} }

// Package is, for the Bun-run kinds, the package@version for
// agent.ResolveOptions.Package: installed from its shipped lockfile, then
// run by Bun. `bun x` of it pinned the top package alone; its dependencies
// floated (a run took cross-spawn 7.1.2 where 7.0.6 was tested).
func (a Agent) Package() string {
	switch a.Kind {
	case KindCodexRS:
		return CodexRSPackage
	case KindClaude:
		return ClaudePackage
	}
	return ""
}

// Argv is the command that runs the agent, as words for
// agent.ResolveOptions.Argv: the entry's own program and arguments. nil for
// the Bun-run kinds (Package) and for the Codex kind without a command of
// its own, which follows the seed resolution order. bun is unused since
// the Bun-run kinds install their package first.
func (a Agent) Argv(bun string) []string {
	switch a.Kind {
	case KindCodexRS, KindClaude:
		return nil
	case KindCustom, KindCodex, "":
		if strings.TrimSpace(a.Command) == "" {
			return nil
		}
		return append([]string{a.Command}, a.Args...)
	}
	return nil
}

// GetsAPIKey reports whether the stored OpenAI API key goes to this agent:
// only to Codex (either adapter), never to third-party agents.
func (a Agent) GetsAPIKey() bool { return a.Kind == KindCodex || a.Kind == KindCodexRS || a.Kind == "" }

func (a Agent) pinned() string {
	switch a.Kind {
	case KindCodexRS:
		return CodexRSPackage
	case KindClaude:
		return ClaudePackage
	case KindCodex, "":
		if strings.TrimSpace(a.Command) == "" {
			return agent.SidecarPackage + "@" + DefaultCodexACPVersion
		}
	}
	return ""
}

func (a Agent) secrets() []string {
	if a.GetsAPIKey() {
		return append([]string(nil), APIKeyVars...)
	}
	return []string{}
}

// EnvList is the agent's environment as sorted KEY=VALUE pairs.
func (a Agent) EnvList() []string {
	var out []string
	for k, v := range a.Env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// Validate checks the fields the transport needs.
func (m MCPServer) Validate() error {
	if strings.TrimSpace(m.Name) == "" {
		return errors.New("a name is needed")
	}
	switch m.Type {
	case "", MCPStdio:
		if !filepath.IsAbs(m.Command) {
			return fmt.Errorf("%s: the command must be an absolute path (agents start it without a shell or PATH)", m.Name)
		}
	case MCPHTTP, MCPSSE:
		u, err := url.Parse(m.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%s: %q is not an http(s) URL", m.Name, m.URL)
		}
	default:
		return fmt.Errorf("%s: unknown transport %q (want stdio, http or sse)", m.Name, m.Type)
	}
	for k := range m.Env {
		if !envRe.MatchString(k) {
			return fmt.Errorf("%s: %q is not an environment variable name", m.Name, k)
		}
	}
	return nil
}

type nameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

func pairs(m map[string]string) []nameValue {
	out := []nameValue{}
	for k, v := range m {
		out = append(out, nameValue{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ACP renders the server as the ACP McpServer object of session/new.
func (m MCPServer) ACP() json.RawMessage {
	var v any
	switch m.Type {
	case MCPHTTP, MCPSSE:
		v = struct {
			Type    string      `json:"type"`
			Name    string      `json:"name"`
			URL     string      `json:"url"`
			Headers []nameValue `json:"headers"`
		}{m.Type, m.Name, m.URL, pairs(m.Headers)}
	default:
		args := m.Args
		if args == nil {
			args = []string{}
		}
		v = struct {
			Name    string      `json:"name"`
			Command string      `json:"command"`
			Args    []string    `json:"args"`
			Env     []nameValue `json:"env"`
		}{m.Name, m.Command, args, pairs(m.Env)}
	}
	b, _ := json.Marshal(v) // plain strings: cannot fail
	return b
}

// ACPServers renders the enabled servers for session/new.
func (l AgentList) ACPServers() []json.RawMessage {
	var out []json.RawMessage
	for _, m := range l.MCPServers {
		if !m.Disabled {
			out = append(out, m.ACP())
		}
	}
	return out
}
