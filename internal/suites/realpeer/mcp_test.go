package realpeer

import (
	"bytes"
	"cdxtheme/core/contrast"
	"cdxtheme/core/permission"
	"cdxtheme/core/prompt"
	"cdxtheme/internal/testrig/testbin"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/chat"
	"cdxtheme/core/mcp"
	"cdxtheme/core/render"
	"cdxtheme/core/theme"
	"cdxtheme/internal/testrig/peers"
	"cdxtheme/internal/testrig/respmock"
)

// lowComment is a comment colour far below AA on the example's background,
// used nowhere else in the file, so a sed of it changes that role alone.
const lowComment = "#41465a"

// themeModel is the scripted model of the end-to-end test, driven only by
// what the agent sends it: it finds the theme tools (through Codex's
// tool_search when they are deferred), calls theme_check, applies the
// check's own fixes with a shell command, checks again, renders, and ends
// the turn. Nothing in it knows the fix colours: they come from the
// server's answer in the request.
func themeModel(r respmock.Request) respmock.Reply {
	calls := map[string]string{} // call_id → tool name (namespace dropped)
	namespace := ""
	var last struct{ name, output string }
	for _, it := range r.Input {
		switch it.Type {
		case "function_call":
			calls[it.CallID] = it.Name
		case "tool_search_output":
			var out struct {
				Tools []struct {
					Type, Name string
				} `json:"tools"`
			}
			if json.Unmarshal(it.Raw, &out) == nil {
				for _, tl := range out.Tools {
					if tl.Type == "namespace" && strings.Contains(tl.Name, mcp.ServerName) {
						namespace = tl.Name
					}
				}
			}
		case "function_call_output":
			last.name, last.output = calls[it.CallID], it.Text()
		}
	}
	tool := func(name string) respmock.Reply {
		for _, offered := range r.Tools { // offered up front (no deferral)
			switch {
			case strings.HasSuffix(offered, name):
				return respmock.Call(offered, "{}")
			case strings.HasSuffix(offered, "__"+mcp.ServerName): // a namespace of tools (Codex 0.137)
				namespace = offered
			}
		}
		if namespace == "" {
			return respmock.Search("theme check render")
		}
		return respmock.Reply{Call: name, Namespace: namespace, Args: "{}"}
	}
	switch {
	case last.name == "": // the prompt: check first
		return tool(mcp.ToolCheck)
	case strings.HasSuffix(last.name, mcp.ToolCheck):
		res, ok := checkResult(last.output)
		if !ok {
			return respmock.Message("theme_check answered something unreadable: " + last.output)
		}
		if res.Passes {
			return tool(mcp.ToolRender)
		}
		var sed []string
		for _, f := range res.Failing {
			if f.Fix == nil {
				return respmock.Message("no fix offered for " + f.Foreground.Role)
			}
			old := f.Foreground.Color
			if f.Fix.Role == f.Background.Role {
				old = f.Background.Color
			}
			sed = append(sed, "-e s/"+old+"/"+f.Fix.Color+"/g")
		}
		return respmock.Shell("sed -i " + strings.Join(sed, " ") + " theme.json")
	case last.name == "exec_command":
		if !strings.Contains(last.output, "exited with code 0") {
			return respmock.Message("the edit failed: " + last.output)
		}
		return tool(mcp.ToolCheck)
	case strings.HasSuffix(last.name, mcp.ToolRender):
		return respmock.Message("Checked and rendered: the theme passes.")
	}
	return respmock.Message("unexpected tool output from " + last.name)
}

// checkResult reads theme_check's JSON out of a tool output (Codex puts
// "Wall time: … Output:" before it).
func checkResult(out string) (mcp.CheckResult, bool) {
	var res mcp.CheckResult
	i := strings.IndexByte(out, '{')
	if i < 0 || json.Unmarshal([]byte(out[i:]), &res) != nil || res.File == "" {
		return res, false
	}
	return res, true
}

// The acceptance check: the real adapter gets the app's MCP server
// in session/new, the model calls theme_check and theme_render, the
// server's answers (the check's JSON, the PNG as an image) reach the
// model's next requests, and the turn ends with a theme that passes.
func TestThemeToolsEndToEnd(t *testing.T) {
	forEachPeer(t, func(t *testing.T, a peers.Adapter) {
		bin := testbin.CLI(t)
		// The workspace-write sandbox: the sed below edits the workspace.
		r := newRig(t, a, rigOptions{mode: peers.ModeWorkspace})
		doc := strings.Replace(string(theme.ExampleJSON()), `"comment": "#8b96aa"`, `"comment": "`+lowComment+`"`, 1)
		if !strings.Contains(doc, lowComment) {
			t.Fatal("the example theme's comment colour moved; update the test's replacement")
		}
		if err := os.WriteFile(filepath.Join(r.cwd, theme.FileName), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		before, _ := theme.Parse([]byte(doc))
		if len(contrast.Failures(contrast.Checks(before))) == 0 {
			t.Fatal("the starting theme already passes; the test would prove nothing")
		}
		r.mock.SetResponder(themeModel)

		res, evs, err := r.turn(chat.Turn{
			Prompt:     prompt.Text("Make the comments readable."),
			MCPServers: []json.RawMessage{mcp.ForBuild(bin, r.cwd)},
			Decider:    permission.Policy("allow"),
		})
		if err != nil {
			for _, q := range r.mock.Turns() {
				t.Logf("request offered %v", q.Tools)
				for _, it := range q.Input {
					if it.Type != "message" {
						t.Logf("  %s %s %.300s", it.Type, it.Name, it.Text())
					}
				}
			}
			t.Fatalf("turn: %v", err)
		}
		if res.StopReason != "end_turn" || !strings.Contains(evs.text(), "the theme passes") {
			t.Fatalf("turn ended %q with %q", res.StopReason, evs.text())
		}

		// The server answered both tools; the answers reached the model.
		var checks []mcp.CheckResult
		var image []byte
		for _, req := range r.mock.Turns() {
			for _, it := range req.Input {
				if it.Type != "function_call_output" {
					continue
				}
				if c, ok := checkResult(it.Text()); ok {
					checks = append(checks, c)
				}
				var parts []struct {
					Type     string `json:"type"`
					ImageURL string `json:"image_url"`
				}
				if json.Unmarshal(it.Output, &parts) == nil {
					for _, p := range parts {
						if b64, ok := strings.CutPrefix(p.ImageURL, "data:image/png;base64,"); ok && p.Type == "input_image" {
							image, _ = base64.StdEncoding.DecodeString(b64)
						}
					}
				}
			}
		}
		if len(checks) < 2 || checks[0].Passes || !checks[len(checks)-1].Passes {
			t.Fatalf("theme_check results the model saw: %+v; want a failing one, then a passing one", checks)
		}
		if f := checks[0].Failing; len(f) == 0 || f[0].Foreground.Role != "syntax.comment" || f[0].Fix == nil {
			t.Errorf("the first check did not name the comment and its fix: %+v", f)
		}
		img, err := png.Decode(bytes.NewReader(image))
		if err != nil {
			t.Fatalf("the model got no PNG from theme_render (%d bytes): %v", len(image), err)
		}
		after := readTheme(t, r.cwd)
		bg := after.UI.Background
		if got := img.At(render.BackgroundAt.X, render.BackgroundAt.Y); !sameRGB(got, bg) {
			t.Errorf("the rendered picture's background is %v, want %s", got, bg)
		}
		if fails := contrast.Failures(contrast.Checks(after)); len(fails) > 0 {
			t.Errorf("the turn ended with a theme that fails: %+v", fails)
		}

		// The chat saw the calls as tool calls of the cdxtheme server.
		seen := map[string]bool{}
		for _, ev := range evs.ofType(chat.EventToolCall) {
			tc := ev.Payload.(chat.ToolCallStarted).ToolCall
			var in struct{ Server, Tool string }
			if tc != nil && json.Unmarshal(tc.RawInput, &in) == nil && in.Server == mcp.ServerName {
				seen[in.Tool] = true
			}
		}
		if !seen[mcp.ToolCheck] || !seen[mcp.ToolRender] {
			t.Errorf("tool_call events of the cdxtheme server: %v", seen)
		}
	})
}

func readTheme(t *testing.T, dir string) *theme.Theme {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, theme.FileName))
	if err != nil {
		t.Fatal(err)
	}
	th, err := theme.Parse(b)
	if err != nil {
		t.Fatalf("theme.json after the turn: %v", err)
	}
	return th
}

func sameRGB(c interface{ RGBA() (r, g, b, a uint32) }, want theme.Color) bool {
	r, g, b, _ := c.RGBA()
	return uint8(r>>8) == want.R && uint8(g>>8) == want.G && uint8(b>>8) == want.B
}
