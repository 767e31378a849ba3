package settings

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A user's files from before agents.toml version 2: the Codex command as one
// string in settings.toml (with a tab inside quotes, which the old string
// round trip turned into a literal `a\tb`), and a custom agent whose command
// field holds a whole command line.
func TestMigrateAgentsKeepsEveryWord(t *testing.T) {
	dir := t.TempDir()
	settingsPath, agentsPath := filepath.Join(dir, "settings.toml"), filepath.Join(dir, "agents.toml")
	os.WriteFile(settingsPath, []byte("agent_command = \"/opt/codex-acp -c 'sep=a\tb' --name \\\"My theme\\\"\"\npermission_policy = \"deny\"\n"), 0o600)
	os.WriteFile(agentsPath, []byte(`default = "local"

[[agent]]
id = "local"
name = "Local"
kind = "custom"
command = "npx -y @acme/acp-agent"
args = ["--stdio"]

[[agent]]
id = "spaced"
name = "Spaced"
kind = "custom"
command = '`+filepath.Join(dir, "My Agent")+`'
`), 0o600)
	os.WriteFile(filepath.Join(dir, "My Agent"), []byte("#!/bin/sh\n"), 0o755)

	if err := MigrateAgents(agentsPath, settingsPath); err != nil {
		t.Fatal(err)
	}
	l, err := LoadAgentsFile(agentsPath)
	if err != nil {
		t.Fatal(err)
	}
	codex, _ := l.Find(KindCodex)
	if got := codex.Argv("bun"); !reflect.DeepEqual(got, []string{"/opt/codex-acp", "-c", "sep=a\tb", "--name", "My theme"}) {
		t.Errorf("codex argv = %q", got)
	}
	local, _ := l.Find("local")
	if got := local.Argv("bun"); !reflect.DeepEqual(got, []string{"npx", "-y", "@acme/acp-agent", "--stdio"}) {
		t.Errorf("local argv = %q", got)
	}
	spaced, _ := l.Find("spaced")
	if got := spaced.Argv("bun"); !reflect.DeepEqual(got, []string{filepath.Join(dir, "My Agent")}) {
		t.Errorf("a program with a space in its path was split: %q", got)
	}
	if l.Version != AgentsVersion || l.Default != "local" {
		t.Errorf("version %d default %q", l.Version, l.Default)
	}
	b, _ := os.ReadFile(settingsPath)
	if strings.Contains(string(b), "agent_command") {
		t.Errorf("settings.toml still has the old key:\n%s", b)
	}
	if s, err := LoadFile(settingsPath); err != nil || s.Policy() != PolicyDeny {
		t.Errorf("the other settings were lost: %+v %v", s, err)
	}

	// Once migrated, it is left alone (and a hand edit stays).
	before, _ := os.ReadFile(agentsPath)
	if err := MigrateAgents(agentsPath, settingsPath); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(agentsPath); string(after) != string(before) {
		t.Error("a second migration changed the file")
	}
}

func TestMigrateAgentsLeavesNothingOrBrokenFilesAlone(t *testing.T) {
	dir := t.TempDir()
	settingsPath, agentsPath := filepath.Join(dir, "settings.toml"), filepath.Join(dir, "agents.toml")
	// Nothing to migrate: no file appears.
	if err := MigrateAgents(agentsPath, settingsPath); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(agentsPath); err == nil {
		t.Fatal("an agents file was created with nothing in it")
	}
	// An unparseable old command: an error, both files as they were.
	old := "agent_command = \"codex-acp 'unterminated\"\n"
	os.WriteFile(settingsPath, []byte(old), 0o600)
	if err := MigrateAgents(agentsPath, settingsPath); err == nil || !strings.Contains(err.Error(), "unterminated") {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(settingsPath); string(b) != old {
		t.Error("settings.toml changed although the migration failed")
	}
	if _, err := os.Stat(agentsPath); err == nil {
		t.Error("agents.toml written although the migration failed")
	}
}
