//go:build unix

package thirdparty

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"cdxtheme/core/mcp"
	"cdxtheme/core/theme"
	"cdxtheme/internal/testrig/apimock"
)

// callTool is the reply that calls one of the cdxtheme tools as the agent
// offers it: by the name it gives the tool (each agent qualifies MCP
// names its own way), directly when the tool is in the request's tool
// list, else through the agent's tool_call of deferred tools (qwen-code
// defers MCP tools; tool_search shows them first). ok is false when the
// request names no such tool at all.
func callTool(body []byte, tool string) (apimock.Reply, bool) {
	m := regexp.MustCompile(`[A-Za-z0-9_.-]*` + tool).Find(body)
	if m == nil {
		return apimock.Reply{}, false
	}
	name := string(m)
	if strings.Contains(string(body), `"name":"`+name+`"`) {
		return apimock.Reply{Tool: name}, true
	}
	return apimock.Reply{Tool: "tool_call", Args: map[string]any{"name": name, "arguments": map[string]any{}}}, true
}

// The theme tools reach a third-party agent too: `cdxtheme chat` in a
// build offers the app's MCP server in session/new, qwen-code starts it
// over stdio, and the scripted model's calls of theme_check and
// theme_render come back with the server's answers.
func TestThemeToolsThirdParty(t *testing.T) {
	var qwen agent
	for _, a := range agents {
		if a.name == "qwen" {
			qwen = a
		}
	}
	r := need(t, t, qwen)
	if err := os.WriteFile(filepath.Join(r.ws, theme.FileName), theme.ExampleJSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(filepath.Join(r.ws, theme.FileName))
	const rendered = "rendered from theme.json"
	r.mock.SetResponder(func(q apimock.Request) apimock.Reply {
		switch {
		case q.Carries(rendered):
			return apimock.Reply{Text: "Checked and rendered."}
		case q.Carries(`"passes":true`) || q.Carries("passes: all"):
			if call, ok := callTool(q.Body, mcp.ToolRender); ok {
				return call
			}
		default:
			if call, ok := callTool(q.Body, mcp.ToolCheck); ok {
				return call
			}
		}
		// Deferred tools: search for them once.
		if strings.Contains(string(q.Body), `"name":"tool_search"`) && !q.ToolResult {
			return apimock.Reply{Tool: "tool_search", Args: map[string]any{"query": "cdxtheme theme"}}
		}
		return apimock.Reply{Text: "The cdxtheme tools were not offered."}
	})
	res := r.chat("--permission", "allow", "check the theme")
	if res.code != 0 {
		t.Fatalf("chat: %s", res)
	}
	if got := res.text(); got != "Checked and rendered." {
		t.Fatalf("the turn ended with %q; %s; mock: %s", got, res, r.mockLog())
	}
	checked := false
	for _, q := range r.mock.Turns() {
		checked = checked || q.Carries(`"checked":44`) || q.Carries("all 44 contrast pairs")
	}
	if !checked {
		t.Errorf("theme_check's answer never reached the model: %s", r.mockLog())
	}
}
