package targets

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/scopes"
	"cdxtheme/core/theme"
)

// nvimColours opens a file named name holding src in real Neovim under
// th's exported colorscheme and returns the foreground at each {line,
// column} (1-based), "none" where no colour is set.
func nvimColours(t *testing.T, th *theme.Theme, name, src string, at [][2]int) []string {
	t.Helper()
	nvim := program(t, "nvim", "neovim")
	files, err := Render(th, "neovim")
	if err != nil {
		t.Fatal(err)
	}
	slug := ""
	for f := range files {
		if strings.HasPrefix(f, "colors/") {
			slug = strings.TrimSuffix(strings.TrimPrefix(f, "colors/"), ".lua")
		}
	}
	dir := t.TempDir()
	for name, b := range files {
		p := filepath.Join(dir, "rtp", filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, name)
	os.WriteFile(file, []byte(src), 0o644)
	var pos []string
	for _, p := range at {
		pos = append(pos, fmt.Sprintf("{%d, %d}", p[0], p[1]))
	}
	script := filepath.Join(dir, "probe.lua")
	os.WriteFile(script, []byte(`vim.o.termguicolors = true
vim.cmd('colorscheme ' .. vim.env.SLUG)
vim.cmd('edit ' .. vim.env.SRC)
local out = {}
for _, p in ipairs({ `+strings.Join(pos, ", ")+` }) do
  local hl = vim.api.nvim_get_hl_by_id(vim.fn.synIDtrans(vim.fn.synID(p[1], p[2], 1)), true)
  table.insert(out, hl.foreground and string.format('#%06x', hl.foreground) or 'none')
end
vim.fn.writefile(out, vim.env.OUT)
`), 0o644)
	outFile := filepath.Join(dir, "out.txt")
	if _, stderr, err := run(t, dir, []string{"SLUG=" + slug, "SRC=" + file, "OUT=" + outFile}, nvim,
		"--headless", "--clean", "-n", "-i", "NONE", "--cmd", "set rtp^="+filepath.Join(dir, "rtp"),
		// Python's ftplugin would look for a Python provider: seconds.
		"--cmd", "let g:loaded_python3_provider = 0",
		"-c", "luafile "+script, "-c", "qa!"); err != nil {
		t.Fatalf("nvim: %v\n%s", err, stderr)
	}
	raw, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Fields(string(raw))
	if len(got) != len(at) {
		t.Fatalf("nvim read back %q for %d positions", got, len(at))
	}
	return got
}

// Issue #39: Neovim paints the ${ } of a shell parameter expansion and the
// [ ] of ${a[@]} as VS Code does (punctuation), where sh.vim gives them
// PreProc by matchgroup, a keyword colour.
func TestNeovimPaintsShellExpansionBracesAsVSCode(t *testing.T) {
	th := theme.Example()
	got := nvimColours(t, th, "x.sh", "#!/bin/bash\nx=\"${a:-b}\"\nfor i in \"${arr[@]}\"; do :; done\n",
		[][2]int{{2, 4}, {2, 5}, {2, 10}, {3, 11}, {3, 12}, {3, 16}, {3, 18}, {3, 19}})
	str := []string{"source.shell", "string.quoted.double.shell"}
	brace, _ := scopes.VSCodeScopeStyle(th, append(str, "punctuation.section.bracket.curly.variable.begin.shell", "punctuation.definition.variable.shell")...)
	bracket, _ := scopes.VSCodeScopeStyle(th, append(str, "meta.parameter-expansion", "punctuation.section.array.shell")...)
	if brace == th.Color("syntax.keyword") {
		t.Fatal("VS Code's brace colour is the keyword colour; the test cannot tell them apart")
	}
	want := []theme.Color{brace, brace, brace, brace, brace, bracket, bracket, brace}
	what := []string{"$ of ${a", "{ of ${a", "} of ${a:-b}", "$ of ${arr", "{ of ${arr", "[ of arr[@]", "] of arr[@]", "} of ${arr[@]}"}
	for i := range want {
		if got[i] != th.Seen(want[i]).Hex() {
			t.Errorf("Neovim paints the %s %s, VS Code %s", what[i], got[i], th.Seen(want[i]).Hex())
		}
	}
}

// Issue #39: python.vim's match and case are keywords after a dot too;
// VS Code's grammar calls re.match(…) a method call. The statements stay
// keywords.
func TestNeovimPaintsPythonMatchMethodAsVSCode(t *testing.T) {
	th := theme.Example()
	got := nvimColours(t, th, "x.py", "m = HEX.match(x)\nmatch m:\n    case 1:\n        pass\n",
		[][2]int{{1, 9}, {2, 1}, {3, 5}})
	call, _ := scopes.VSCodeScopeStyle(th, "source.python", "meta.member.access.python", "meta.function-call.python", "meta.function-call.generic.python")
	kw, _ := scopes.VSCodeScopeStyle(th, "source.python", "keyword.control.flow.python")
	if call == kw {
		t.Fatal("VS Code paints a call and a keyword alike; the test cannot tell them apart")
	}
	for i, c := range []struct {
		what string
		want theme.Color
	}{{"match of HEX.match(", call}, {"match statement", kw}, {"case clause", kw}} {
		if got[i] != th.Seen(c.want).Hex() {
			t.Errorf("Neovim paints the %s %s, VS Code %s", c.what, got[i], th.Seen(c.want).Hex())
		}
	}
}

// Issue #39: rust.vim paints every < and > as an operator; VS Code's Rust
// grammar calls a generic's brackets punctuation and keeps a spaced
// comparison, ->, >> and >= operators.
func TestNeovimPaintsRustGenericsAsVSCode(t *testing.T) {
	th := theme.Example()
	// The example's operators and punctuation share a colour; One Dark
	// Pro's and Nord's do not.
	th.Set("syntax.operator", mustParse(t, "#e0a050"))
	th.Set("syntax.punctuation", mustParse(t, "#50a0e0"))
	got := nvimColours(t, th, "x.rs", "fn f(a: u8) -> Option<Vec<u8>> {\n    if a < 3 && a >= 1 { }\n    let v: Vec<u8> = Vec::new();\n}\n",
		[][2]int{{1, 22}, {1, 26}, {1, 29}, {1, 13}, {2, 10}, {2, 19}, {3, 15}, {3, 18}})
	angle, _ := scopes.VSCodeScopeStyle(th, "source.rust", "punctuation.brackets.angle.rust")
	op, _ := scopes.VSCodeScopeStyle(th, "source.rust", "keyword.operator.comparison.rust")
	if angle == op {
		t.Fatal("VS Code paints brackets and operators alike; the test cannot tell them apart")
	}
	for i, c := range []struct {
		what string
		want theme.Color
	}{{"< of Option<", angle}, {"< of Vec<u8", angle}, {"> of u8>>", angle}, {"- of ->", op},
		{"< of a < 3", op}, {"> of >=", op}, {"< of let v: Vec<", angle}, {"> of Vec<u8>", angle}} {
		if got[i] != th.Seen(c.want).Hex() {
			t.Errorf("Neovim paints the %s %s, VS Code %s", c.what, got[i], th.Seen(c.want).Hex())
		}
	}
}

func mustParse(t *testing.T, s string) theme.Color {
	t.Helper()
	c, err := theme.ParseColor(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Issue #39: sh.vim paints set and unset with shSet, the group of declare,
// local and export; VS Code's grammar calls them builtins and the others
// storage modifiers.
func TestNeovimPaintsShellSetAsVSCode(t *testing.T) {
	th := theme.Example()
	th.Set("syntax.builtinFunction", mustParse(t, "#50e0a0"))
	got := nvimColours(t, th, "x.sh", "#!/bin/bash\nset -eu\nunset x\nlocal y=1\n", [][2]int{{2, 1}, {3, 1}, {4, 1}})
	builtin, _ := scopes.VSCodeScopeStyle(th, "source.shell", "meta.statement.command.shell", "entity.name.function.call.shell", "entity.name.command.shell", "support.function.builtin.shell")
	modifier, _ := scopes.VSCodeScopeStyle(th, "source.shell", "storage.modifier.shell")
	if builtin == modifier {
		t.Fatal("VS Code paints builtins and modifiers alike; the test cannot tell them apart")
	}
	for i, c := range []struct {
		what string
		want theme.Color
	}{{"set", builtin}, {"unset", builtin}, {"local", modifier}} {
		if got[i] != th.Seen(c.want).Hex() {
			t.Errorf("Neovim paints %s %s, VS Code %s", c.what, got[i], th.Seen(c.want).Hex())
		}
	}
}

// check compares Neovim's colours at the positions nvimColours read with
// what VS Code paints each position's scope stack (outermost first).
func checkAsVSCode(t *testing.T, th *theme.Theme, got []string, want []struct {
	what  string
	stack []string
}) {
	t.Helper()
	for i, w := range want {
		c, _ := scopes.VSCodeScopeStyle(th, w.stack...)
		if got[i] != th.Seen(c).Hex() {
			t.Errorf("Neovim paints the %s %s, VS Code %s", w.what, got[i], th.Seen(c).Hex())
		}
	}
}

// Issue #39: VS Code's Python grammar and Sublime's (bat) read a raw
// string as a regular expression, call a string's prefix
// storage.type.string and the in of a for loop keyword.control.flow;
// python.vim paints the raw string one colour, the prefix as the string
// and every in as an operator. A membership test's in stays an operator.
func TestNeovimPaintsPythonRegexpsAndForInAsVSCode(t *testing.T) {
	th := theme.Example()
	th.Set("syntax.regexp", mustParse(t, "#e050a0")) // the example's regexp is its string colour
	got := nvimColours(t, th, "x.py", "import re\nX = re.compile(r\"^[0-9]{2}$\")\nfor i in X:\n    if i in X: print(f\"{i}\")\n",
		[][2]int{{2, 16}, {2, 19}, {2, 20}, {2, 24}, {3, 7}, {4, 10}, {4, 22}})
	re := []string{"source.python", "string.regexp.quoted.single.python"}
	with := func(base []string, s ...string) []string { return append(append([]string{}, base...), s...) }
	if a, _ := scopes.VSCodeScopeStyle(th, with(re, "keyword.operator.quantifier.regexp")...); a == th.Color("syntax.string") {
		t.Fatal("VS Code paints a quantifier as a string; the test cannot tell them apart")
	}
	checkAsVSCode(t, th, got, []struct {
		what  string
		stack []string
	}{
		{"r of r\"…\"", with(re, "storage.type.string.python")},
		{"[ of a raw string's class", with(re, "meta.character.set.regexp", "punctuation.character.set.begin.regexp", "constant.other.set.regexp")},
		{"0 of a raw string's class", with(re, "meta.character.set.regexp", "constant.character.set.regexp")},
		{"{ of a raw string's {2}", with(re, "keyword.operator.quantifier.regexp")},
		{"in of for i in", []string{"source.python", "keyword.control.flow.python"}},
		{"in of if i in", []string{"source.python", "keyword.operator.logical.python"}},
		{"f of f\"…\"", []string{"source.python", "meta.fstring.python", "string.interpolated.python", "string.quoted.single.python", "storage.type.string.python"}},
	})
}

// Issue #39: VS Code's TypeScript grammar calls an enum's members
// constants, JSON, a name in capitals, a constant and a regular
// expression's flags keywords;
// typescriptcommon.vim files a member named like a global (Error) and
// JSON under typescriptGlobal, a constructor, and paints the flags as the
// expression. Go's %% is a placeholder
// to VS Code's Go grammar, a plain string to go.vim.
func TestNeovimPaintsEnumMembersJSONAndPercentAsVSCode(t *testing.T) {
	th := theme.Example()
	got := nvimColours(t, th, "x.ts", "enum Severity {\n  Info = 1,\n  Error,\n}\nconst doc = JSON.parse(s);\nconst R = /a/i;\n",
		[][2]int{{2, 3}, {3, 3}, {5, 13}, {6, 14}})
	member := []string{"source.ts", "meta.enum.declaration.ts", "variable.other.enummember.ts"}
	if c, _ := scopes.VSCodeScopeStyle(th, member...); c == th.Color("syntax.constructor") {
		t.Fatal("VS Code paints an enum member as a constructor; the test cannot tell them apart")
	}
	checkAsVSCode(t, th, got, []struct {
		what  string
		stack []string
	}{
		{"enum member Info", member},
		{"enum member Error", member},
		{"JSON of JSON.parse", []string{"source.ts", "meta.var.expr.ts", "meta.function-call.ts", "variable.other.constant.object.ts"}},
		{"flag i of /a/i", []string{"source.ts", "meta.var.expr.ts", "string.regexp.ts", "keyword.other.ts"}},
	})
	got = nvimColours(t, th, "x.go", "package main\nvar s = fmt.Sprintf(\"%d%%\", 1)\n", [][2]int{{2, 24}, {2, 25}})
	checkAsVSCode(t, th, got, []struct {
		what  string
		stack []string
	}{
		{"first % of %%", []string{"source.go", "string.quoted.double.go", "constant.other.placeholder.go"}},
		{"second % of %%", []string{"source.go", "string.quoted.double.go", "constant.other.placeholder.go"}},
	})
}

// Issue #39: sh.vim paints a function's header, name() {, and its closing
// brace as the function; VS Code's shell grammar calls the parentheses
// and braces punctuation.
func TestNeovimPaintsShellFunctionHeaderAsVSCode(t *testing.T) {
	th := theme.Example()
	got := nvimColours(t, th, "x.sh", "#!/bin/bash\nlog() {\n  echo hi\n}\n", [][2]int{{2, 1}, {2, 4}, {2, 7}, {4, 1}})
	fn := []string{"source.shell", "meta.function.shell"}
	brace := []string{"source.shell", "meta.function.shell", "meta.function.body.shell", "punctuation.definition.group.shell", "punctuation.section.function.definition.shell"}
	if a, _ := scopes.VSCodeScopeStyle(th, brace...); a == th.Color("syntax.function") {
		t.Fatal("VS Code paints a brace as a function; the test cannot tell them apart")
	}
	checkAsVSCode(t, th, got, []struct {
		what  string
		stack []string
	}{
		{"name of log()", append(fn, "entity.name.function.shell")},
		{"( of log()", []string{"source.shell", "meta.function.shell", "punctuation.definition.arguments.shell"}},
		{"{ of log() {", brace},
		{"closing }", brace},
	})
}
