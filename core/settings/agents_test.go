package settings

import (
	"cdxtheme/core/damaged"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestLoadAgentsFromAUserFile(t *testing.T) {
	l, err := LoadAgentsFile("testdata/agents.toml")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, a := range l.Agents {
		ids = append(ids, a.ID+":"+a.Kind)
	}
	if got := strings.Join(ids, " "); got != "codex:codex codex-rs:codex-rs claude:claude local:custom" {
		t.Fatalf("agents = %s", got)
	}
	def, ok := l.Find("")
	if !ok || def.ID != "local" {
		t.Fatalf("default = %+v", def)
	}
	if got := def.Argv("bun"); !reflect.DeepEqual(got, []string{"/opt/my agent/bin/acp", "--stdio", "--profile", "theme's"}) {
		t.Fatalf("argv = %q", got)
	}
	if def.GetsAPIKey() || len(def.Secrets) != 0 {
		t.Errorf("a custom agent must not get the OpenAI key: %v", def.Secrets)
	}
	if got := def.EnvList(); !reflect.DeepEqual(got, []string{"LOG_LEVEL=debug", "MY_TOKEN=abc"}) {
		t.Fatalf("env = %v", got)
	}
	codex, _ := l.Find("codex")
	if codex.Argv("bun") != nil || !codex.GetsAPIKey() || !reflect.DeepEqual(codex.Secrets, APIKeyVars) || codex.Defaults["model"] != "gpt-5.4" || codex.Defaults["fast-mode"] != true {
		t.Fatalf("codex = %+v", codex)
	}
	servers := l.ACPServers()
	if len(servers) != 2 {
		t.Fatalf("servers = %s", servers)
	}
	if got := string(servers[0]); got != `{"name":"palette","command":"/usr/local/bin/palette-mcp","args":["--readonly"],"env":[{"name":"PALETTE_DIR","value":"/srv/palettes"}]}` {
		t.Fatalf("stdio server = %s", got)
	}
	if got := string(servers[1]); got != `{"type":"http","name":"docs","url":"https://mcp.example.org/docs","headers":[{"name":"Authorization","value":"Bearer t"}]}` {
		t.Fatalf("http server = %s", got)
	}
}

func TestAgentsMissingOrCorruptFileGivesTheBuiltins(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "agents.toml")
	os.WriteFile(bad, []byte("[[agent]\nid = "), 0o600)
	tests := []struct {
		name, path string
		wantErr    bool
	}{
		{"missing", filepath.Join(dir, "none.toml"), false},
		{"corrupt", bad, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := LoadAgentsFile(tc.path)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v", err)
			}
			if len(l.Agents) != 3 {
				t.Fatalf("agents = %+v", l.Agents)
			}
			if a, ok := l.Find(""); !ok || a.Kind != KindCodex {
				t.Fatalf("default = %+v", a)
			}
		})
	}
	copies, _ := filepath.Glob(bad + damaged.Suffix + "*")
	if len(copies) != 1 {
		t.Fatalf("copies set aside: %v", copies)
	}
	if b, _ := os.ReadFile(copies[0]); string(b) != "[[agent]\nid = " {
		t.Fatal("the damaged file was not kept as it was")
	}
}

// A cut agents.toml (a custom agent with its token) loses nothing when the
// app then saves the list: the damaged file is set aside, the user told
// where, and the save writes beside it.
func TestDamagedAgentsAreNeverSavedOver(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agents.toml")
	l, _ := LoadAgentsFile(path)
	l.Agents = append(l.Agents, Agent{ID: "mine", Name: "Mine", Kind: KindCustom, Command: "/opt/mine/acp", Env: map[string]string{"MINE_TOKEN": "secret-123"}})
	if err := SaveAgentsFile(path, l); err != nil {
		t.Fatal(err)
	}
	whole, _ := os.ReadFile(path)
	os.WriteFile(path, whole[:strings.Index(string(whole), "secret-123")+3], 0o600) // cut inside the token
	cut, _ := os.ReadFile(path)
	got, err := LoadAgentsFile(path)
	var de *damaged.Error
	if !errors.As(err, &de) || !strings.Contains(err.Error(), de.Copy) {
		t.Fatalf("load of the cut file: %v", err)
	}
	if err := SaveAgentsFile(path, got); err != nil { // "Use as default" after it
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(de.Copy); string(b) != string(cut) {
		t.Fatal("the damaged file was not kept as it was")
	}
}

func TestSaveAgentsRoundTripAndRemembersDefaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agents.toml")
	l, _ := LoadAgentsFile(path)
	l.Agents = append(l.Agents, Agent{ID: "mine", Name: "Mine", Kind: KindCustom, Command: "my-acp", Env: map[string]string{"K": "v"}})
	l.Default = "mine"
	if !l.SetDefaults("claude", map[string]any{"mode": "plan", "thinking": false}) || l.SetDefaults("nobody", nil) {
		t.Fatal("SetDefaults found the wrong agents")
	}
	if err := SaveAgentsFile(path, l); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); !private(fi) {
		t.Fatalf("mode %v", fi.Mode())
	}
	back, err := LoadAgentsFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l.Version = AgentsVersion // every save writes the current format
	// Printed, nil and empty maps look alike; TOML does not keep the difference.
	if got, want := fmt.Sprintf("%+v", back), fmt.Sprintf("%+v", l); got != want {
		t.Fatalf("round trip:\n got %s\nwant %s", got, want)
	}
}

func TestAgentListValidate(t *testing.T) {
	ok := AgentList{Agents: Builtins()}
	tests := []struct {
		name    string
		edit    func(*AgentList)
		wantErr string
	}{
		{"builtins", func(*AgentList) {}, ""},
		{"custom without command", func(l *AgentList) { l.Agents = append(l.Agents, Agent{ID: "x", Kind: KindCustom}) }, "needs a command"},
		{"bad id", func(l *AgentList) { l.Agents = append(l.Agents, Agent{ID: "My Agent", Kind: KindCustom, Command: "a"}) }, "the id must be"},
		{"duplicate id", func(l *AgentList) { l.Agents = append(l.Agents, Agent{ID: "codex", Kind: KindCodex}) }, "used twice"},
		{"unknown kind", func(l *AgentList) { l.Agents = append(l.Agents, Agent{ID: "x", Kind: "gemini"}) }, `unknown kind "gemini"`},
		{"bad env name", func(l *AgentList) {
			l.Agents = append(l.Agents, Agent{ID: "x", Kind: KindCustom, Command: "a", Env: map[string]string{"A-B": "1"}})
		}, "not an environment variable name"},
		{"default missing", func(l *AgentList) { l.Default = "ghost" }, `default agent "ghost"`},
		{"default of another type", func(l *AgentList) { l.Agents[0].Defaults = map[string]any{"n": int64(3)} }, "text or true/false"},
		{"mcp relative command", func(l *AgentList) { l.MCPServers = []MCPServer{{Name: "p", Command: "palette-mcp"}} }, "absolute path"},
		{"mcp bad url", func(l *AgentList) { l.MCPServers = []MCPServer{{Name: "p", Type: MCPHTTP, URL: "ftp://x"}} }, "http(s) URL"},
		{"mcp unknown transport", func(l *AgentList) { l.MCPServers = []MCPServer{{Name: "p", Type: "ws"}} }, `unknown transport "ws"`},
		{"mcp duplicate name", func(l *AgentList) {
			l.MCPServers = []MCPServer{{Name: "p", Command: absPath("a")}, {Name: "p", Command: absPath("b")}}
		}, "used twice"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := ok
			l.Agents = append([]Agent(nil), ok.Agents...)
			tc.edit(&l)
			err := l.Validate()
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want %q", err, tc.wantErr)
			}
		})
	}
}

// The Bun-run kinds name their package for the install from its shipped
// lockfile (agent.ResolveOptions.Package), not `bun x`, whose dependencies
// float.
func TestBunKindsRunTheirPackage(t *testing.T) {
	tests := []struct {
		kind string
		pkg  string
		key  bool
	}{
		{KindCodexRS, "@zed-industries/codex-acp@0.16.0", true},
		{KindClaude, "@zed-industries/claude-code-acp@0.16.2", false},
		{KindCodex, "", true},
	}
	for _, tc := range tests {
		a := Agent{Kind: tc.kind}
		if got := a.Argv("/opt/cdx theme/bun"); got != nil {
			t.Errorf("%s runs the command %q, want its package installed first", tc.kind, got)
		}
		if got := a.Package(); got != tc.pkg {
			t.Errorf("%s: package %q, want %q", tc.kind, got, tc.pkg)
		}
		if a.GetsAPIKey() != tc.key {
			t.Errorf("%s gets the API key: %v, want %v", tc.kind, a.GetsAPIKey(), tc.key)
		}
	}
}

// Every agent the app runs a package for runs an exact version, never
// whatever the registry calls latest today, and the agents list says which.
func TestEveryKindRunsAPinnedVersionTheListShows(t *testing.T) {
	exact := regexp.MustCompile(`^(@[a-z0-9-]+/)?[a-z0-9-]+@[0-9]+\.[0-9]+\.[0-9]+$`)
	l, err := LoadAgentsFile(filepath.Join(t.TempDir(), "agents.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range l.Agents {
		if !exact.MatchString(a.Pinned) {
			t.Errorf("%s shows %q, want package@x.y.z", a.ID, a.Pinned)
		}
		if pkg := a.Package(); pkg != "" && pkg != a.Pinned {
			t.Errorf("%s runs %q but the list shows %q", a.ID, pkg, a.Pinned)
		}
	}
	if own := (Agent{Kind: KindCodex, Command: "/opt/acp"}); own.pinned() != "" {
		t.Errorf("a command of the user's own shows the pinned %q", own.pinned())
	}
}

// Settings' Command field takes a whole command line, split like --agent's;
// a program whose path has a space stays whole.
func TestSavedCommandIsSplitLikeAShellLine(t *testing.T) {
	dir := t.TempDir()
	spaced := filepath.Join(dir, "my agent")
	if err := os.WriteFile(spaced, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "agents.toml")
	in := AgentList{Agents: []Agent{
		{ID: "x", Name: "X", Kind: KindCustom, Command: `/opt/x/codex-acp --verbose "two words"`, Args: []string{"--last"}},
		{ID: "y", Name: "Y", Kind: KindCustom, Command: spaced},
	}}
	typed := in
	typed.SplitCommands()
	if err := SaveAgentsFile(path, typed); err != nil {
		t.Fatal(err)
	}
	if in.Agents[0].Command != `/opt/x/codex-acp --verbose "two words"` {
		t.Fatal("saving changed the caller's list")
	}
	l, err := LoadAgentsFile(path)
	if err != nil {
		t.Fatal(err)
	}
	x, _ := l.Find("x")
	if got := strings.Join(x.Argv(""), "|"); got != "/opt/x/codex-acp|--verbose|two words|--last" {
		t.Fatalf("argv %q", got)
	}
	y, _ := l.Find("y")
	if y.Command != spaced || len(y.Args) != 0 {
		t.Fatalf("the spaced program became %q %q", y.Command, y.Args)
	}
}
