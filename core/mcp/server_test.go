package mcp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/handedit"
	"cdxtheme/core/render"
	"cdxtheme/core/theme"
)

// answer is one JSON-RPC message from the server.
type answer struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// toolResult is a tools/call result as a client reads it.
type toolResult struct {
	Content []struct {
		Type, Text, Data, MimeType string
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

func (r toolResult) text() string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// newWorkspace makes a workspace holding doc as theme.json ("" for none).
func newWorkspace(t *testing.T, doc string) (*Server, string) {
	t.Helper()
	dir := t.TempDir()
	if doc != "" {
		if err := os.WriteFile(filepath.Join(dir, theme.FileName), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := New(Config{Dir: dir, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return s, dir
}

// serve drives s as a client does: lines in, lines out.
func serve(t *testing.T, s *Server, lines ...string) []answer {
	t.Helper()
	var out bytes.Buffer
	if err := s.Serve(context.Background(), strings.NewReader(strings.Join(lines, "\n")+"\n"), &out); err != nil {
		t.Fatalf("serve: %v", err)
	}
	var got []answer
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if l == "" {
			continue
		}
		var a answer
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatalf("the server wrote a line that is not JSON: %.200q", l)
		}
		got = append(got, a)
	}
	return got
}

func call(t *testing.T, s *Server, tool string, args any) toolResult {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
	got := serve(t, s, string(b))
	if len(got) != 1 || got[0].Error != nil {
		t.Fatalf("tools/call %s: %+v", tool, got)
	}
	var r toolResult
	if err := json.Unmarshal(got[0].Result, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func checkOf(t *testing.T, r toolResult) CheckResult {
	t.Helper()
	var c CheckResult
	if err := json.Unmarshal(r.StructuredContent, &c); err != nil {
		t.Fatalf("theme_check's structured content: %v (%s)", err, r.StructuredContent)
	}
	return c
}

func example() string { return string(theme.ExampleJSON()) }

// mustReplace replaces old once, failing when doc has no old (a test whose
// edit silently did nothing would test the unedited example).
func mustReplace(t *testing.T, doc, old, repl string) string {
	t.Helper()
	if !strings.Contains(doc, old) {
		t.Fatalf("the document has no %s", old)
	}
	return strings.Replace(doc, old, repl, 1)
}

// A client's first exchange: initialize (the version negotiated), then
// tools/list with a schema and a description for every tool.
func TestInitializeAndToolsList(t *testing.T) {
	s, _ := newWorkspace(t, example())
	got := serve(t, s,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"two","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"1999-01-01"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"ping"}`,
	)
	if len(got) != 4 {
		t.Fatalf("%d answers to 4 requests and a notification: %+v", len(got), got)
	}
	var init struct {
		ProtocolVersion string
		Capabilities    struct{ Tools map[string]any }
		ServerInfo      struct{ Name string }
	}
	json.Unmarshal(got[0].Result, &init)
	if init.ProtocolVersion != "2025-06-18" || init.Capabilities.Tools == nil || init.ServerInfo.Name != ServerName {
		t.Errorf("initialize = %s", got[0].Result)
	}
	json.Unmarshal(got[2].Result, &init)
	if init.ProtocolVersion != ProtocolVersion {
		t.Errorf("an unknown version got %q, want ours (%s)", init.ProtocolVersion, ProtocolVersion)
	}
	if string(got[1].ID) != `"two"` {
		t.Errorf("a string id came back as %s", got[1].ID)
	}
	var list struct{ Tools []tool }
	json.Unmarshal(got[1].Result, &list)
	names := map[string]bool{}
	for _, tl := range list.Tools {
		names[tl.Name] = true
		if len(tl.Description) < 80 || tl.InputSchema["type"] != "object" {
			t.Errorf("%s: a model needs a description and an object schema: %+v", tl.Name, tl)
		}
	}
	for _, n := range []string{ToolCheck, ToolRender, ToolRoles, ToolExport} {
		if !names[n] {
			t.Errorf("tools/list lacks %s", n)
		}
	}
}

// Whatever arrives, the server answers with a JSON-RPC error and goes on
// with the next line; nothing crashes it.
func TestMalformedRequestsGetErrors(t *testing.T) {
	s, _ := newWorkspace(t, example())
	deep := strings.Repeat(`{"a":`, 100000) + "1" + strings.Repeat("}", 100000)
	huge := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("x", MaxMessage+10) + `"}}`
	cases := []struct {
		line string
		code int
	}{
		{"garbage", codeParse},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":1,"method":"no/such"}`, codeMethodNotFound},
		{`{"jsonrpc":"1.0","id":1,"method":"ping"}`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":1}`, -1}, // a response to nothing: ignored
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"rm_rf","arguments":{}}}`, codeInvalidParams},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"x"}`, codeInvalidParams},
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":[1]}`, codeInvalidParams},
		{deep, codeParse},
		{huge, codeParse},
		{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"no\xff\xfe\"}", codeMethodNotFound},
	}
	for _, c := range cases {
		got := serve(t, s, c.line, `{"jsonrpc":"2.0","id":99,"method":"ping"}`)
		want := 2
		if c.code == -1 {
			want = 1
		}
		if len(got) != want || string(got[len(got)-1].ID) != "99" {
			t.Errorf("%.60q: answers %+v; the next request must still be answered", c.line, got)
			continue
		}
		if c.code != -1 && (got[0].Error == nil || got[0].Error.Code != c.code) {
			t.Errorf("%.60q: got %+v, want error %d", c.line, got[0].Error, c.code)
		}
	}
}

// Bad arguments are the tool's error, which the model reads and corrects.
func TestBadArgumentsAreToolErrors(t *testing.T) {
	s, _ := newWorkspace(t, example())
	for _, c := range []struct {
		tool string
		args any
		want string
	}{
		{ToolCheck, map[string]any{"target": 99}, "between 3 and 21"},
		{ToolCheck, map[string]any{"colour": "red"}, "colour"},
		{ToolCheck, map[string]any{"path": 5}, "bad arguments"},
		{ToolRender, map[string]any{"language": "cobol"}, "language must be one of"},
		{ToolRender, map[string]any{"variant": "companion"}, "no companion"},
		{ToolRender, map[string]any{"format": "zed"}, "takes no argument"},
		{ToolExport, map[string]any{}, "needs a format"},
		{ToolExport, map[string]any{"format": "vsix"}, "format must be one of"},
		{ToolRoles, map[string]any{"group": "nope"}, "group must be one of"},
	} {
		r := call(t, s, c.tool, c.args)
		if !r.IsError || !strings.Contains(r.text(), c.want) {
			t.Errorf("%s %v: isError=%v %q, want an error saying %q", c.tool, c.args, r.IsError, r.text(), c.want)
		}
	}
}

// A good theme passes; the text says so.
func TestCheckAGoodTheme(t *testing.T) {
	s, _ := newWorkspace(t, example())
	r := call(t, s, ToolCheck, nil)
	c := checkOf(t, r)
	if r.IsError || !c.Valid || !c.Passes || c.Checked == 0 || len(c.Failing) != 0 {
		t.Fatalf("the example theme: %+v", c)
	}
	if !strings.Contains(r.text(), "passes") {
		t.Errorf("summary %q", r.text())
	}
	// AAA is stricter: the same theme has pairs below 7:1.
	if c := checkOf(t, call(t, s, ToolCheck, map[string]any{"target": 7})); c.Passes || len(c.Failing) == 0 || c.Failing[0].Target != 7 {
		t.Errorf("at 7:1: %+v", c)
	}
}

// A failing pair names its roles, its ratio and APCA Lc, and a fix that
// keeps the hue and reaches the target.
func TestCheckAFailingPairProposesTheNearestPassingColour(t *testing.T) {
	doc := mustReplace(t, example(), `"comment": "#8b96aa"`, `"comment": "#41465a"`)
	s, _ := newWorkspace(t, doc)
	r := call(t, s, ToolCheck, nil)
	c := checkOf(t, r)
	if c.Passes || len(c.Failing) != 1 {
		t.Fatalf("want the one comment pair failing: %+v", c)
	}
	f := c.Failing[0]
	if f.Foreground.Role != "syntax.comment" || f.Background.Role != "ui.background" || f.Ratio >= 4.5 || f.APCA == 0 || f.Fix == nil {
		t.Fatalf("failing pair %+v", f)
	}
	if f.Fix.Role != "syntax.comment" || f.Fix.Ratio < 4.5 {
		t.Errorf("fix %+v does not reach 4.5:1", f.Fix)
	}
	was, _ := theme.ParseColor("#41465a")
	fix, _ := theme.ParseColor(f.Fix.Color)
	if dh := theme.ToOKLCH(was).H - theme.ToOKLCH(fix).H; dh > 3 || dh < -3 {
		t.Errorf("the fix %s moved the hue of %s by %.1f°", fix, was, dh)
	}
	// Applying the fix makes the theme pass.
	fixed := strings.Replace(doc, "#41465a", f.Fix.Color, 1)
	s2, _ := newWorkspace(t, fixed)
	if c := checkOf(t, call(t, s2, ToolCheck, nil)); !c.Passes {
		t.Errorf("with the proposed fix the theme still fails: %+v", c.Failing)
	}
	if !strings.Contains(r.text(), "syntax.comment") || !strings.Contains(r.text(), f.Fix.Color) {
		t.Errorf("summary lacks the role or the fix: %q", r.text())
	}
}

// A broken theme's problems come with where and why.
func TestCheckABrokenTheme(t *testing.T) {
	// "navy" names no entry of the example's palette.
	doc := mustReplace(t, example(), `"background": "ink"`, `"background": "navy"`)
	s, _ := newWorkspace(t, doc)
	r := call(t, s, ToolCheck, nil)
	c := checkOf(t, r)
	if c.Valid || c.Passes || len(c.Problems) == 0 || c.Problems[0].Role != "ui.background" || c.Problems[0].Reason == "" {
		t.Fatalf("broken theme: %+v", c)
	}
	if r := call(t, s, ToolRender, nil); !r.IsError || !strings.Contains(r.text(), "ui.background") {
		t.Errorf("render of a broken theme: %q", r.text())
	}
	// Thousands of problems are bounded.
	var b strings.Builder
	b.WriteString(`{"name":"x","appearance":"dark",`)
	for i := 0; i < 5000; i++ {
		b.WriteString(`"k` + strings.Repeat("z", i%7) + string(rune('a'+i%26)) + `":1,`)
	}
	b.WriteString(`"ui":{}}`)
	s3, _ := newWorkspace(t, b.String())
	if c := checkOf(t, call(t, s3, ToolCheck, nil)); len(c.Problems) > maxProblems {
		t.Errorf("%d problems reported, want at most %d", len(c.Problems), maxProblems)
	}
}

// Hostile files and paths: outside the workspace, a link out, a huge file,
// bytes that are not UTF-8, a folder, a missing file: each an error the
// model can read, nothing read outside.
func TestHostileFilesAndPaths(t *testing.T) {
	// The workspace and, beside it, a valid theme it must not read.
	parent := t.TempDir()
	dir := filepath.Join(parent, "ws")
	os.Mkdir(dir, 0o755)
	os.WriteFile(filepath.Join(dir, theme.FileName), []byte(example()), 0o644)
	s, err := New(Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(parent, "secret.json")
	os.WriteFile(outside, []byte(example()), 0o644)
	os.Symlink(outside, filepath.Join(dir, "link.json"))
	os.Symlink(parent, filepath.Join(dir, "up")) // a folder link out
	os.WriteFile(filepath.Join(dir, "huge.json"), bytes.Repeat([]byte(" "), theme.MaxFileSize+1), 0o644)
	os.WriteFile(filepath.Join(dir, "latin1.json"), []byte("{\"name\":\"caf\xe9\xff\",\"ui\":1}"), 0o644)
	os.Mkdir(filepath.Join(dir, "folder"), 0o755)
	for _, p := range []string{"../secret.json", outside, "link.json", "up/secret.json", "up/ws/../secret.json", "/etc/passwd", "huge.json", "folder", "missing.json", "file:///etc/passwd", strings.Repeat("a/", 600)} {
		for _, tool := range []string{ToolCheck, ToolRender, ToolRoles} {
			r := call(t, s, tool, map[string]any{"path": p})
			if !r.IsError {
				t.Errorf("%s path %.40q: no error", tool, p)
			}
			if strings.Contains(r.text(), "root:") {
				t.Errorf("%s path %q: read outside the workspace", tool, p)
			}
		}
	}
	os.WriteFile(filepath.Join(dir, "nested.json"), []byte(strings.Repeat("[", 500000)), 0o644)
	for _, p := range []string{"latin1.json", "nested.json"} {
		r := call(t, s, ToolCheck, map[string]any{"path": p})
		if c := checkOf(t, r); c.Valid || len(c.Problems) == 0 {
			t.Errorf("%s: %+v", p, c)
		}
		if r := call(t, s, ToolRender, map[string]any{"path": p}); !r.IsError {
			t.Errorf("%s rendered", p)
		}
	}
	// A draft inside the workspace is read.
	os.WriteFile(filepath.Join(dir, "draft.json"), []byte(example()), 0o644)
	if c := checkOf(t, call(t, s, ToolCheck, map[string]any{"path": "draft.json"})); !c.Passes || c.File != "draft.json" {
		t.Errorf("a draft inside the workspace: %+v", c)
	}
}

// Locked colours and hand edits come from the app's record: a lock the
// file keeps is reported kept; one it changed fails the check.
func TestCheckReportsLockedColoursAndHandEdits(t *testing.T) {
	s, _ := newWorkspace(t, example())
	record := filepath.Join(t.TempDir(), "edits.json")
	th := theme.Example()
	// ui.accent locked at the file's colour; syntax.string at another one.
	l := handedit.Log{
		Locked:  map[string]string{"ui.accent": th.UI.Accent.String(), "syntax.string": "#123456"},
		Changed: map[string]string{"ui.text": "#e6e9ef"},
	}
	b, _ := json.Marshal(l)
	os.WriteFile(record, b, 0o600)
	s.cfg.EditsFile = record
	r := call(t, s, ToolCheck, nil)
	c := checkOf(t, r)
	kept := map[string]bool{}
	for _, lk := range c.Locked {
		kept[lk.Role] = lk.Kept
	}
	if len(c.Locked) != 2 || !kept["ui.accent"] || kept["syntax.string"] {
		t.Fatalf("locked = %+v", c.Locked)
	}
	if c.Passes || !strings.Contains(r.text(), "LOCKED syntax.string must stay #123456") {
		t.Errorf("a changed locked colour: passes=%v, %q", c.Passes, r.text())
	}
	if len(c.HandEdits) != 1 || c.HandEdits[0].Role != "ui.text" {
		t.Errorf("hand edits = %+v", c.HandEdits)
	}
	// A damaged record is a warning, and is left where it is.
	os.WriteFile(record, []byte("{"), 0o600)
	c = checkOf(t, call(t, s, ToolCheck, nil))
	if len(c.Warnings) == 0 || !strings.Contains(strings.Join(c.Warnings, " "), "locked") {
		t.Errorf("damaged record: warnings %v", c.Warnings)
	}
	if b, _ := os.ReadFile(record); string(b) != "{" {
		t.Error("the server changed the app's record")
	}
}

// theme_render returns a PNG as image content with the theme's
// background where the picture promises it.
func TestRenderReturnsTheThemeAsAnImage(t *testing.T) {
	s, _ := newWorkspace(t, example())
	r := call(t, s, ToolRender, map[string]any{"language": "python"})
	if r.IsError || len(r.Content) != 2 || r.Content[0].Type != "image" || r.Content[0].MimeType != "image/png" {
		t.Fatalf("render result: %+v", r.text())
	}
	raw, err := base64.StdEncoding.DecodeString(r.Content[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("the image does not decode: %v", err)
	}
	cr, cg, cb, _ := img.At(render.BackgroundAt.X, render.BackgroundAt.Y).RGBA()
	bg := theme.Example().UI.Background
	if uint8(cr>>8) != bg.R || uint8(cg>>8) != bg.G || uint8(cb>>8) != bg.B {
		t.Errorf("background pixel %v, want %s", img.At(render.BackgroundAt.X, render.BackgroundAt.Y), bg)
	}
}

// theme_roles lists every role with its colour and rule; theme_export
// shows what a target gets, bounded.
func TestRolesAndExport(t *testing.T) {
	s, _ := newWorkspace(t, example())
	r := call(t, s, ToolRoles, nil)
	var roles RolesResult
	json.Unmarshal(r.StructuredContent, &roles)
	if len(roles.Roles) != len(theme.Catalogue()) {
		t.Errorf("%d roles, want the catalogue's %d", len(roles.Roles), len(theme.Catalogue()))
	}
	derived := 0
	for _, ro := range roles.Roles {
		if !ro.Set && ro.Derives != "" {
			derived++
		}
	}
	if derived == 0 || !strings.Contains(r.text(), "ui.background #161a24") {
		t.Errorf("roles: %d derived; text %.200q", derived, r.text())
	}
	if r := call(t, s, ToolRoles, map[string]any{"group": "ansi"}); !strings.HasPrefix(r.text(), "16 roles") {
		t.Errorf("ansi group: %.80q", r.text())
	}
	for _, f := range exportFormats() {
		r := call(t, s, ToolExport, map[string]any{"format": f})
		if r.IsError || len(r.text()) > maxExport+200 || !strings.Contains(r.text(), "===") {
			t.Errorf("export %s: isError=%v, %d bytes", f, r.IsError, len(r.text()))
		}
	}
	if r := call(t, s, ToolExport, map[string]any{"format": "neovim"}); !strings.Contains(r.text(), "#161a24") {
		t.Errorf("the neovim export does not carry the background: %.300q", r.text())
	}
}

// A failing role that follows a palette entry names it, so the agent fixes
// the entry (moving every role that follows it) rather than one role.
func TestCheckNamesThePaletteEntryAFailingRoleFollows(t *testing.T) {
	doc := mustReplace(t, example(), `"mist": "#9ca7ba"`, `"mist": "#9ca7ba",
    "dusk": "#41465a"`)
	doc = mustReplace(t, doc, `"comment": "#8b96aa"`, `"comment": "dusk"`)
	s, _ := newWorkspace(t, doc)
	c := checkOf(t, call(t, s, ToolCheck, nil))
	if c.Passes || len(c.Failing) != 1 {
		t.Fatalf("want the one comment pair failing: %+v", c)
	}
	if f := c.Failing[0]; f.Foreground.Follows != "dusk" || f.Background.Follows != "ink" {
		t.Errorf("failing pair follows %q on %q; want dusk on ink", f.Foreground.Follows, f.Background.Follows)
	}
	roles := call(t, s, ToolRoles, nil)
	if !strings.Contains(string(roles.StructuredContent), `"follows":"dusk"`) {
		t.Errorf("theme_roles does not say syntax.comment follows dusk")
	}
}
