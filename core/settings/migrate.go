package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"cdxtheme/core/agent"

	"github.com/pelletier/go-toml/v2"
)

// legacySettings holds what settings.toml kept before AgentsVersion 2.
type legacySettings struct {
	// AgentCommand was the Codex agent's command as one shell-style string.
	AgentCommand string `toml:"agent_command"`
}

// MigrateAgents brings the agents file at agentsPath to AgentsVersion:
//
//   - settings.toml's agent_command (one string, split here once into
//     words) becomes the Codex entry's command and arguments, and leaves
//     settings.toml;
//   - a custom entry whose command holds a whole command line (which could
//     never run: it was passed on as one word) is split into the program
//     and its arguments, unless a file of that exact name exists.
//
// The agents file is written before settings.toml loses the old key, so a
// crash in between loses nothing. A file already at the version, or
// nothing to migrate, is left alone. An error means nothing was changed.
func MigrateAgents(agentsPath, settingsPath string) error {
	var l AgentList
	b, err := os.ReadFile(agentsPath)
	exists := err == nil
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("migrate agents %s: %w", agentsPath, err)
	default:
		if err := toml.Unmarshal(b, &l); err != nil {
			return fmt.Errorf("migrate agents %s: %w", agentsPath, err) // LoadAgents reports it too
		}
	}
	if l.Version >= AgentsVersion {
		return nil
	}

	var legacy legacySettings
	if sb, err := os.ReadFile(settingsPath); err == nil {
		if toml.Unmarshal(sb, &legacy) != nil {
			legacy = legacySettings{} // a corrupt settings file stays for the user to fix
		}
	}
	legacyCmd := strings.TrimSpace(legacy.AgentCommand)
	if legacyCmd != "" {
		words, err := agent.SplitCommand(legacyCmd)
		if err != nil || len(words) == 0 {
			return fmt.Errorf("migrate the agent command %q from %s: %v", legacyCmd, settingsPath, err)
		}
		i := indexOf(l.Agents, KindCodex)
		if i < 0 {
			l.Agents = append(l.Agents, Agent{ID: KindCodex, Name: "Codex", Kind: KindCodex})
			i = len(l.Agents) - 1
		}
		if strings.TrimSpace(l.Agents[i].Command) == "" {
			l.Agents[i].Command, l.Agents[i].Args = words[0], append(words[1:], l.Agents[i].Args...)
		}
	}
	l.SplitCommands()
	if !exists && legacyCmd == "" {
		return nil // nothing to keep: the file is written at the current version when first saved
	}
	if err := SaveAgentsFile(agentsPath, l); err != nil {
		return fmt.Errorf("migrate agents %s: %w", agentsPath, err)
	}
	if legacyCmd != "" {
		s, err := LoadFile(settingsPath)
		if err != nil {
			return fmt.Errorf("migrate settings %s: %w", settingsPath, err)
		}
		if err := SaveFile(settingsPath, s); err != nil { // without agent_command, which Settings no longer has
			return fmt.Errorf("migrate settings %s: %w", settingsPath, err)
		}
	}
	return nil
}

// SplitCommands splits a Command typed as a whole command line
// ("/opt/x/codex-acp --verbose") like a shell line, as --agent is, into
// the program and its arguments; a Command that names an existing file
// (a path with a space) is kept whole.
func (l *AgentList) SplitCommands() {
	l.Agents = append([]Agent(nil), l.Agents...) // not the caller's array
	for i, a := range l.Agents {
		if (a.Kind != KindCustom && a.Kind != KindCodex) || !strings.ContainsAny(strings.TrimSpace(a.Command), " \t\"'") {
			continue
		}
		if _, err := os.Stat(a.Command); err == nil {
			continue
		}
		if words, err := agent.SplitCommand(a.Command); err == nil && len(words) > 0 {
			l.Agents[i].Command, l.Agents[i].Args = words[0], append(words[1:], a.Args...)
		}
	}
}

func indexOf(agents []Agent, id string) int {
	for i, a := range agents {
		if a.ID == id {
			return i
		}
	}
	return -1
}
