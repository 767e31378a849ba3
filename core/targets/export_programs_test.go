package targets

import (
	"bytes"
	"cdxtheme/core/colour"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/theme"
)

// Each exporter whose program Debian ships is proven by loading its output
// into that program. `make test` installs them (APT_PACKAGES) and sets
// CDXTHEME_REQUIRE_PROGRAMS, so there a missing program fails instead of
// skipping.

// runXDG runs a program as run does, with XDG_STATE_HOME private too
// (Neovim keeps its shada and logs there).
func runXDG(t *testing.T, dir string, env []string, name string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"HOME=" + dir, "XDG_CONFIG_HOME=" + dir + "/config", "XDG_CACHE_HOME=" + dir + "/cache",
		"XDG_STATE_HOME=" + dir + "/state", "XDG_DATA_HOME=" + dir + "/data", "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}, env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

func writeFiles(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// nvimDump is the Lua that reads back what Neovim made of the colorscheme.
const nvimDump = `
local out = { colors_name = vim.g.colors_name, errmsg = vim.v.errmsg, groups = {}, terminal = {} }
for _, g in ipairs(vim.fn.json_decode(vim.env.GROUPS)) do
  local ok, v = pcall(vim.api.nvim_get_hl_by_name, g, true)
  if ok then out.groups[g] = v end
end
for i = 0, 15 do out.terminal[i + 1] = vim.g['terminal_color_' .. i] end
vim.fn.writefile({ vim.fn.json_encode(out) }, vim.env.DUMP)
`

// nvimOpenGate makes has('nvim-0.8') true in a Neovim older than 0.8
// (Debian 12 ships 0.7.2): that Neovim warns W18 for "@" names but still
// sets and resolves them, so the captures and LSP groups behind the
// export's 0.8 gate are checked by a real highlight engine too.
const nvimOpenGate = `local has = vim.fn.has
vim.fn.has = function(f) if f == 'nvim-0.8' then return 1 end return has(f) end
`

// nvimMinor is the minor version of a Neovim 0.x binary.
func nvimMinor(t *testing.T, nvim string) int {
	t.Helper()
	out, _, err := runXDG(t, t.TempDir(), nil, nvim, "--version")
	m := regexp.MustCompile(`NVIM v0\.(\d+)`).FindStringSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("nvim --version: %v %q", err, out)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

type nvimOut struct {
	ColorsName string `json:"colors_name"`
	Errmsg     string
	Groups     map[string]map[string]any
	Terminal   []string
}

// nvimLoad starts Neovim on a runtime path holding files, runs
// :colorscheme slug and returns what nvimDump read back, and stderr.
func nvimLoad(t *testing.T, nvim string, files map[string][]byte, slug string, groups []string, before string) (nvimOut, string, error) {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, filepath.Join(dir, "rtp"), files)
	os.WriteFile(filepath.Join(dir, "dump.lua"), []byte(nvimDump), 0o644)
	os.WriteFile(filepath.Join(dir, "before.lua"), []byte(before), 0o644)
	gj, _ := json.Marshal(groups)
	dump := filepath.Join(dir, "out.json")
	_, stderr, err := runXDG(t, dir, []string{"GROUPS=" + string(gj), "DUMP=" + dump}, nvim,
		"--headless", "--clean", "-n", "-i", "NONE", "--cmd", "set rtp^="+filepath.Join(dir, "rtp"),
		"--cmd", "luafile "+filepath.Join(dir, "before.lua"),
		"-c", "colorscheme "+slug, "-c", "luafile "+filepath.Join(dir, "dump.lua"), "-c", "qa!")
	var out nvimOut
	if err == nil {
		raw, rerr := os.ReadFile(dump)
		if rerr != nil {
			return out, stderr, rerr
		}
		if jerr := json.Unmarshal(raw, &out); jerr != nil {
			return out, stderr, fmt.Errorf("%v: %s", jerr, raw)
		}
	}
	return out, stderr, err
}

// nvimW18 is the warning a Neovim before 0.8 gives for each "@" name.
var nvimW18 = regexp.MustCompile(`(?m)^(W18: Invalid character in group name|Error detected while processing .*)\r?$`)

func TestNeovimLoadsColorscheme(t *testing.T) {
	nvim := program(t, "nvim", "neovim")
	minor := nvimMinor(t, nvim)
	forSamples(t, "neovim", func(t *testing.T, th *theme.Theme, files map[string][]byte) {
		u, s := th.UI, th.Syntax
		c := th.Color
		// group → attribute → expected colour, written out independently of
		// the exporter's tables.
		want := map[string]map[string]theme.Color{
			"Normal":                    {"foreground": u.Text, "background": u.Background},
			"Comment":                   {"foreground": s.Comment},
			"String":                    {"foreground": s.String},
			"Keyword":                   {"foreground": s.Keyword},
			"Function":                  {"foreground": s.Function},
			"Type":                      {"foreground": s.Type},
			"Number":                    {"foreground": s.Number},
			"Constant":                  {"foreground": s.Constant},
			"Identifier":                {"foreground": s.Variable},
			"Operator":                  {"foreground": s.Operator},
			"Visual":                    {"background": u.Selection},
			"LineNr":                    {"foreground": c("editor.lineNumber"), "background": c("editor.gutter")},
			"CursorLine":                {"background": c("editor.lineHighlight")},
			"StatusLine":                {"foreground": u.Text, "background": u.Surface},
			"WinSeparator":              {"foreground": u.Border},
			"ErrorMsg":                  {"foreground": u.Error},
			"WarningMsg":                {"foreground": u.Warning},
			"DiffAdd":                   {"background": c("diff.addedLine")},
			"DiffDelete":                {"foreground": c("diff.removed"), "background": c("diff.removedLine")},
			"DiffText":                  {"background": c("diff.changedText")},
			"Added":                     {"foreground": c("diff.added")},
			"Removed":                   {"foreground": c("diff.removed")},
			"Search":                    {"background": c("editor.findMatchHighlight")},
			"CurSearch":                 {"background": c("editor.findMatch")},
			"IncSearch":                 {"background": c("editor.findMatch")},
			"Cursor":                    {"foreground": c("terminal.cursorText"), "background": c("terminal.cursor")},
			"MatchParen":                {"background": c("editor.bracketMatch")},
			"DiagnosticHint":            {"foreground": c("diagnostic.hint")},
			"DiagnosticUnderlineError":  {"special": c("diagnostic.error")},
			"DiagnosticVirtualTextWarn": {"foreground": c("diagnostic.warning")},
			"LspInlayHint":              {"foreground": c("editor.inlayHint")},
			"GitSignsAdd":               {"foreground": c("diff.added")},
			"GitSignsChangeLn":          {"background": c("diff.changedLine")},
			"TelescopeBorder":           {"foreground": u.Border, "background": u.Surface},
			"CmpItemKindFunction":       {"foreground": s.Function},
			"BlinkCmpKindMethod":        {"foreground": c("syntax.method")},
			"IblIndent":                 {"foreground": c("editor.indentGuide")},
			"RainbowDelimiterBlue":      {"foreground": c("editor.bracket3")},
		}
		// The "@" groups: 0.10 captures, the old names linked to them, LSP.
		wantAt := map[string]map[string]theme.Color{
			"@keyword.conditional": {"foreground": s.Keyword},
			"@conditional":         {"foreground": s.Keyword},
			"@variable.member":     {"foreground": c("syntax.property")},
			"@field":               {"foreground": c("syntax.property")},
			"@markup.heading":      {"foreground": c("syntax.heading")},
			"@text.title":          {"foreground": c("syntax.heading")},
			"@diff.plus":           {"foreground": c("syntax.inserted")},
			"@lsp.type.parameter":  {"foreground": c("syntax.parameter")},
			"@lsp.type.namespace":  {"foreground": c("syntax.namespace")},
		}
		check := func(t *testing.T, out nvimOut, want map[string]map[string]theme.Color) {
			for g, attrs := range want {
				for attr, col := range attrs {
					v, ok := out.Groups[g][attr].(float64)
					if !ok {
						t.Errorf("%s has no %s: %v", g, attr, out.Groups[g])
						continue
					}
					if got := fmt.Sprintf("#%06x", int(v)); got != th.Seen(col).Hex() {
						t.Errorf("nvim reports %s %s = %s, theme says %s", g, attr, got, th.Seen(col).Hex())
					}
				}
			}
		}
		names := func(m map[string]map[string]theme.Color) []string {
			var out []string
			for g := range m {
				out = append(out, g)
			}
			return out
		}
		slug := theme.Slug(th.Name)
		all := append(names(want), names(wantAt)...)
		all = append(all, "@markup.strong", "@comment", "@lsp.mod.deprecated")
		out, stderr, err := nvimLoad(t, nvim, files, slug, all, "")
		if err != nil || strings.TrimSpace(stderr) != "" {
			t.Fatalf("nvim: %v\n%s", err, stderr)
		}
		if out.ColorsName != slug || out.Errmsg != "" {
			t.Errorf("colors_name %q, errmsg %q", out.ColorsName, out.Errmsg)
		}
		check(t, out, want)
		if out.Groups["Comment"]["italic"] != true {
			t.Errorf("Comment is not italic: %v", out.Groups["Comment"])
		}
		if out.Groups["DiagnosticUnderlineError"]["undercurl"] != true {
			t.Errorf("DiagnosticUnderlineError has no undercurl: %v", out.Groups["DiagnosticUnderlineError"])
		}
		if len(out.Terminal) != 16 {
			t.Fatalf("terminal colours %v", out.Terminal)
		}
		for i, col := range th.ANSI {
			if out.Terminal[i] != th.Seen(col).Hex() {
				t.Errorf("terminal_color_%d = %s, want %s", i, out.Terminal[i], th.Seen(col).Hex())
			}
		}
		if minor < 8 {
			// The same file with the 0.8 gate open: only W18 warnings.
			out, stderr, err = nvimLoad(t, nvim, files, slug, all, nvimOpenGate)
			if rest := strings.TrimSpace(nvimW18.ReplaceAllString(stderr, "")); err != nil || rest != "" {
				t.Fatalf("nvim with the 0.8 gate open: %v\n%s", err, rest)
			}
		}
		check(t, out, wantAt)
		for g, attr := range map[string]string{"@markup.strong": "bold", "@comment": "italic", "@lsp.mod.deprecated": "strikethrough"} {
			if out.Groups[g][attr] != true {
				t.Errorf("%s is not %s: %v", g, attr, out.Groups[g])
			}
		}
		// A control: Neovim refuses a colour it cannot read, so the clean
		// load above really was checked.
		lua := files["colors/"+slug+".lua"]
		bad := map[string][]byte{"colors/" + slug + ".lua": bytes.Replace(lua, []byte("hl('Normal', { fg = '#"), []byte("hl('Normal', { fg = '#zz"), 1)}
		if bytes.Equal(bad["colors/"+slug+".lua"], lua) {
			t.Fatal("the control found no Normal group to break")
		}
		if _, stderr, _ := nvimLoad(t, nvim, bad, slug, nil, ""); !strings.Contains(stderr, "not a valid color") {
			t.Errorf("nvim accepted a colorscheme with an invalid colour; stderr %q", stderr)
		}
	})
}

// batSample is Go source with one token of each checked kind.
const batSample = `package main

// greet says hello
func greet(n int) string {
	if n > 42 {
		return "many"
	}
	return "few"
}
`

var sgrTrue = regexp.MustCompile("\x1b\\[(?:\\d+;)*38;2;(\\d+);(\\d+);(\\d+)m([^\x1b]*)")

func TestBatRendersTmTheme(t *testing.T) {
	bat := program(t, "batcat", "bat")
	dir := t.TempDir()
	themes := sampleThemes(t)
	for _, th := range themes {
		files, err := Render(th, "tmtheme")
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, filepath.Join(dir, "src", "themes"), files)
	}
	os.WriteFile(filepath.Join(dir, "sample.go"), []byte(batSample), 0o644)
	env := []string{"BAT_CONFIG_DIR=" + dir + "/batconfig", "BAT_CACHE_PATH=" + dir + "/batcache", "COLORTERM=truecolor", "TERM=xterm-256color"}
	if _, stderr, err := runXDG(t, dir, env, bat, "cache", "--build", "--source", dir+"/src", "--target", dir+"/batcache"); err != nil {
		t.Fatalf("bat cache --build: %v\n%s", err, stderr)
	}
	for name, th := range themes {
		t.Run(name, func(t *testing.T) {
			out, stderr, err := runXDG(t, dir, env, bat, "--theme="+theme.Slug(th.Name), "--color=always", "--style=plain", "--paging=never", "sample.go")
			if err != nil || strings.Contains(stderr, "Unknown theme") {
				t.Fatalf("bat: %v\n%s", err, stderr)
			}
			// Text of each truecolour span → the colour bat painted it in.
			painted := map[string]string{}
			for _, m := range sgrTrue.FindAllStringSubmatch(out, -1) {
				r, _ := strconv.Atoi(m[1])
				g, _ := strconv.Atoi(m[2])
				b, _ := strconv.Atoi(m[3])
				if txt := strings.TrimSpace(m[4]); txt != "" {
					if _, seen := painted[txt]; !seen {
						painted[txt] = fmt.Sprintf("#%02x%02x%02x", r, g, b)
					}
				}
			}
			s := th.Syntax
			for text, c := range map[string]theme.Color{
				"greet says hello": s.Comment, "func": s.Keyword, "return": s.Keyword, "greet": s.Function,
				"many": s.String, "42": s.Number, ">": s.Operator, "package": s.Keyword,
			} {
				if got := painted[text]; got != th.Seen(c).Hex() {
					t.Errorf("bat painted %q %s, the theme says %s", text, got, th.Seen(c).Hex())
				}
			}
		})
	}
}

func TestTmuxSourcesTheme(t *testing.T) {
	tmux := program(t, "tmux", "tmux")
	forSamples(t, "tmux", func(t *testing.T, th *theme.Theme, files map[string][]byte) {
		dir, err := os.MkdirTemp("", "cdxtmux") // a short path: sockets have a length limit
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		conf := filepath.Join(dir, "theme.conf")
		os.WriteFile(conf, files[theme.Slug(th.Name)+".conf"], 0o644)
		sock := filepath.Join(dir, "s")
		env := []string{"TERM=xterm-256color"}
		tm := func(args ...string) (string, error) {
			out, stderr, err := runXDG(t, dir, env, tmux, append([]string{"-S", sock, "-f", "/dev/null"}, args...)...)
			if err != nil {
				return "", fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, stderr)
			}
			return strings.TrimSpace(out), nil
		}
		if _, err := tm("new-session", "-d", "-s", "cdx", "-x", "80", "-y", "24"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { tm("kill-server") })
		if _, err := tm("source-file", conf); err != nil {
			t.Fatal(err)
		}
		u := th.UI
		hex := func(c theme.Color) string { return th.Seen(c).Hex() }
		for option, want := range map[string]string{
			"pane-border-style":        "fg=" + hex(u.Border),
			"pane-active-border-style": "fg=" + hex(u.Accent),
			"clock-mode-colour":        hex(u.Accent),
		} {
			if got, err := tm("show-options", "-gv", option); err != nil || got != want {
				t.Errorf("tmux %s = %q (%v), want %q", option, got, err, want)
			}
		}
		// Each text style as tmux holds it: on the background it is meant
		// for, and readable there (AA).
		pair := regexp.MustCompile(`^fg=(#[0-9a-f]{6}),bg=(#[0-9a-f]{6})`)
		for option, bg := range map[string]theme.Color{
			"status-style": u.Surface, "status-left-style": u.Accent, "status-right-style": u.Surface,
			"window-status-style": u.Surface, "window-status-current-style": u.Background,
			"message-style": u.Surface, "message-command-style": u.Surface, "mode-style": u.Selection,
			"copy-mode-match-style": th.Color("editor.findMatchHighlight"), "copy-mode-current-match-style": th.Color("editor.findMatch"),
			"popup-style": u.Surface,
		} {
			got, err := tm("show-options", "-gv", option)
			if err != nil {
				t.Fatal(err)
			}
			m := pair.FindStringSubmatch(got)
			if m == nil || m[2] != hex(bg) {
				t.Errorf("tmux %s = %q, want bg=%s", option, got, hex(bg))
				continue
			}
			fg, _ := theme.ParseColor(m[1])
			if r := colour.Ratio(fg, th.Seen(bg)); r < 4.5 {
				t.Errorf("tmux %s = %q: %.2f:1", option, got, r)
			}
		}
		// A control: tmux refuses a style it cannot parse, so the accepted
		// file above was really checked.
		bad := filepath.Join(dir, "bad.conf")
		os.WriteFile(bad, []byte("set -g status-style \"fg=#12345g\"\n"), 0o644)
		if _, err := tm("source-file", bad); err == nil {
			t.Error("tmux accepted an invalid colour; the check above proves nothing")
		}
	})
}

func TestFootChecksConfig(t *testing.T) {
	foot := program(t, "foot", "foot")
	forSamples(t, "foot", func(t *testing.T, th *theme.Theme, files map[string][]byte) {
		dir := t.TempDir()
		ini := files[theme.Slug(th.Name)+".ini"]
		p := filepath.Join(dir, "foot.ini")
		os.WriteFile(p, ini, 0o644)
		if _, stderr, err := runXDG(t, dir, nil, foot, "--check-config", "-c", p); err != nil || strings.Contains(stderr, "err:") {
			t.Fatalf("foot --check-config: %v\n%s", err, stderr)
		}
		bad := filepath.Join(dir, "bad.ini")
		os.WriteFile(bad, bytes.Replace(ini, []byte("foreground="), []byte("foreground=zz"), 1), 0o644)
		if _, _, err := runXDG(t, dir, nil, foot, "--check-config", "-c", bad); err == nil {
			t.Error("foot accepted an invalid colour; the check above proves nothing")
		}
		kv := footINI(ini)
		got := colourMap{}
		for k, v := range kv {
			got[k] = "#" + v
		}
		got["cursor.color"] = "#" + strings.Fields(kv["cursor.color"])[1]
		got["cursor.color text"] = "#" + strings.Fields(kv["cursor.color"])[0]
		u := th.UI
		want := ansiWant(th, func(i int) string {
			if i < 8 {
				return fmt.Sprintf("colors.regular%d", i)
			}
			return fmt.Sprintf("colors.bright%d", i-8)
		})
		for k, c := range map[string]theme.Color{"colors.foreground": u.Text, "colors.background": u.Background,
			"colors.selection-background": u.Selection, "cursor.color": th.Color("terminal.cursor"),
			"cursor.color text": th.Color("terminal.cursorText"), "colors.urls": th.Color("terminal.link"),
			"colors.selection-foreground": th.Color("terminal.selectionText")} {
			want[k] = th.Seen(c)
		}
		compare(t, got, want, false)
	})
}
