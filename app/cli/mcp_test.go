package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"cdxtheme/core/theme"
)

// `cdxtheme mcp WORKSPACE` answers a client's exchange on stdio; a
// missing or non-folder workspace is an error before anything is read.
func TestMCPCommandAnswersOnStdio(t *testing.T) {
	themeEnv(t)
	dir := themeDir(t, theme.ExampleJSON())
	old := mcpStdin
	t.Cleanup(func() { mcpStdin = old })
	mcpStdin = strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"theme_check","arguments":{}}}`,
	}, "\n"))
	out, errs, code := runTheme(t, "mcp", dir)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d answers, want 2: %s", len(lines), out)
	}
	var check struct {
		Result struct {
			StructuredContent struct{ Passes bool }
		}
	}
	if err := json.Unmarshal([]byte(lines[1]), &check); err != nil || !check.Result.StructuredContent.Passes {
		t.Errorf("theme_check over the CLI: %s (%v)", lines[1], err)
	}
	for _, args := range [][]string{{"mcp"}, {"mcp", "/no/such/folder"}, {"mcp", dir + "/theme.json"}} {
		if _, _, code := runTheme(t, args...); code == ExitOK {
			t.Errorf("%v: exit 0", args)
		}
	}
}
