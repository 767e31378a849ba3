package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"

	"cdxtheme/core/handedit"
	"cdxtheme/core/theme"
	"cdxtheme/core/workspace"
)

// Offer is this server as an ACP McpServer (stdio) entry for
// session/new|load|resume: the running binary exe started as
// `exe mcp [--edits FILE] DIR`. ACP agents take stdio MCP servers always
// (agentCapabilities.mcpCapabilities speaks only of http and sse). It is
// nil when exe is not an absolute path (the agent would look it up on
// its own PATH, which may hold another program).
func Offer(exe, dir, editsFile string) json.RawMessage {
	if !filepath.IsAbs(exe) || dir == "" {
		return nil
	}
	args := []string{"mcp"}
	if editsFile != "" {
		args = append(args, "--edits", editsFile)
	}
	args = append(args, dir)
	b, _ := json.Marshal(struct {
		Name    string   `json:"name"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
		Env     []any    `json:"env"`
	}{ServerName, exe, args, []any{}})
	return b
}

// Executable is the running binary's absolute path, links resolved, or ""
// when the OS cannot tell.
func Executable() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return exe
}

// ForBuild is Offer for the chat whose agent works in dir, when dir is a
// build: one of the app's workspaces (then with the app's hand-edit
// record of it, so theme_check reports the locked colours), or a folder
// holding a theme.json. Elsewhere it is nil: the tools have nothing to
// look at.
func ForBuild(exe, dir string) json.RawMessage {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	edits := ""
	if id := filepath.Base(abs); filepath.Dir(abs) == workspace.Root() && workspace.ValidID(id) {
		edits = handedit.RecordPath(id)
	} else if fi, err := os.Stat(filepath.Join(abs, theme.FileName)); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	return Offer(exe, abs, edits)
}

// With is servers (the user's own, from Settings) plus this server's
// entry, unless offer is nil or the user has a server of the same name
// (agents refuse two servers of one name; the user's wins).
func With(servers []json.RawMessage, offer json.RawMessage) []json.RawMessage {
	if offer == nil {
		return servers
	}
	for _, s := range servers {
		var h struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(s, &h) == nil && h.Name == ServerName {
			return servers
		}
	}
	return append(append([]json.RawMessage(nil), servers...), offer)
}
