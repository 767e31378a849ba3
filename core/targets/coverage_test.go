package targets

import (
	"bufio"
	"encoding/json"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"cdxtheme/core/colour"

	"cdxtheme/core/theme"
)

// Coverage of each export measured against the target's own vocabulary
// (testdata/vocab, each file naming the repository and commit it was
// counted from): every key an export writes must be one the target knows,
// and the export must set at least as many as the best anchor for that
// target (issue 20). TestCoverageTable prints the figures the README's
// coverage table reports.

// vocabVSCode is VS Code's colour registry.
func vocabVSCode(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, line := range vocabLines(t, "vscode-colors.txt") {
		prefix, rest, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("vscode-colors.txt: %q", line)
		}
		for _, s := range strings.Fields(rest) {
			if prefix == "-" {
				out[s] = true
			} else {
				out[prefix+"."+s] = true
			}
		}
	}
	return out
}

// vocabZed is Zed's theme vocabulary by section: one-dark, syntax,
// players, schema.
func vocabZed(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	section := ""
	for _, line := range vocabLines(t, "zed-style.txt") {
		if strings.HasPrefix(line, "[") {
			section = strings.Trim(line, "[]")
			continue
		}
		out[section] = append(out[section], strings.Fields(line)...)
	}
	return out
}

// vocabHelix is each Helix key with the number of bundled stand-alone
// themes setting it, and that number of themes.
func vocabHelix(t *testing.T) (map[string]int, int) {
	t.Helper()
	keys := map[string]int{}
	themes := 0
	f, err := os.Open("testdata/vocab/helix-keys.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if n, ok := strings.CutPrefix(line, "# themes: "); ok {
			themes, _ = strconv.Atoi(n)
			continue
		}
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		k, n, _ := strings.Cut(line, " ")
		keys[k], _ = strconv.Atoi(n)
	}
	if themes == 0 {
		t.Fatal("helix-keys.txt: no theme count")
	}
	return keys, themes
}

func vocabLines(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile("testdata/vocab/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// vscodeExport is the example's VS Code theme, decoded.
func vscodeExport(t *testing.T) (colors map[string]string, rules int, semantic map[string]json.RawMessage) {
	t.Helper()
	files, err := Render(theme.Example(), "vscode")
	if err != nil {
		t.Fatal(err)
	}
	var th struct {
		Colors              map[string]string          `json:"colors"`
		TokenColors         []json.RawMessage          `json:"tokenColors"`
		SemanticTokenColors map[string]json.RawMessage `json:"semanticTokenColors"`
	}
	if err := json.Unmarshal(files["themes/harbour-night-color-theme.json"], &th); err != nil {
		t.Fatal(err)
	}
	return th.Colors, len(th.TokenColors), th.SemanticTokenColors
}

func TestVSCodeCoverage(t *testing.T) {
	vocab := vocabVSCode(t)
	colors, rules, semantic := vscodeExport(t)
	var unknown []string
	for k := range colors {
		if !vocab[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	if len(unknown) > 0 {
		t.Errorf("%d colour ids VS Code's registry does not know: %v", len(unknown), unknown)
	}
	// themer 6.9.1 writes 473 keys, the published themes 195–529.
	if len(colors) < 450 {
		t.Errorf("%d colour keys, want at least 450", len(colors))
	}
	for _, group := range []string{"diffEditor.", "merge.", "mergeEditor.", "minimap", "editorBracketHighlight.", "editorBracketPairGuide.",
		"editorInlayHint.", "peekView", "notification", "editorOverviewRuler.", "scrollbar", "debug", "testing.", "breadcrumb.",
		"editorGutter.", "terminal.ansi", "editorIndentGuide.", "symbolIcon.", "statusBarItem.", "list.", "tab."} {
		n := 0
		for k := range colors {
			if strings.HasPrefix(k, group) {
				n++
			}
		}
		if n == 0 {
			t.Errorf("no colour key of the %s group", group)
		}
	}
	if rules < 40 {
		t.Errorf("%d token rules, want at least 40", rules)
	}
	if len(semantic) < 20 {
		t.Errorf("%d semanticTokenColors, want one per LSP token type and modifier the roles map", len(semantic))
	}
	t.Logf("vscode: %d colour keys (all in the registry of %d), %d token rules, %d semantic token colours", len(colors), len(vocab), rules, len(semantic))
}

// nvimSet is every group the example's Neovim colorscheme sets, each with
// its definition (the Lua table) and whether it sits behind the 0.8 gate.
var nvimHL = regexp.MustCompile(`^\s*hl\('([^']+)', \{ (.*) \}\)$`)

type nvimDef struct {
	def   string
	gated bool
}

func nvimExport(t *testing.T, th *theme.Theme) map[string]nvimDef {
	t.Helper()
	files, err := Render(th, "neovim")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]nvimDef{}
	gated := false
	for _, line := range strings.Split(string(files["colors/"+theme.Slug(th.Name)+".lua"]), "\n") {
		if strings.HasPrefix(line, "if vim.fn.has('nvim-0.8')") {
			gated = true
		}
		if line == "end" {
			gated = false
		}
		m := nvimHL.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		// Vim group names are case-insensitive: one name, one definition.
		key := strings.ToLower(m[1])
		if _, dup := out[key]; dup {
			t.Errorf("group %s is set twice", m[1])
		}
		out[key] = nvimDef{m[2], gated}
	}
	return out
}

func TestNeovimCoverage(t *testing.T) {
	th := theme.Example()
	set := nvimExport(t, th)
	// Every "@" group behind the gate, every other one outside (Neovim
	// before 0.8 refuses "@" names).
	for name, d := range set {
		if strings.HasPrefix(name, "@") != d.gated {
			t.Errorf("%s: gated %v", name, d.gated)
		}
	}
	// Every link reaches a group the file sets.
	for name, d := range set {
		if to, ok := strings.CutPrefix(d.def, "link = '"); ok {
			to = strings.ToLower(strings.TrimSuffix(to, "'"))
			if _, ok := set[to]; !ok {
				t.Errorf("%s links to %s, which the colorscheme does not set", name, to)
			}
			if !d.gated && strings.HasPrefix(to, "@") {
				t.Errorf("%s links to %s, which a Neovim before 0.8 does not have", name, to)
			}
		}
	}
	// tinted-vim's 493 groups are the anchor: the export sets every one
	// but three, left out on purpose: tinted-vim makes @lsp.mod.attribute
	// and @lsp.mod.defaultLibrary italic, a style no role carries (the
	// built-ins get their roles' colours through @lsp.typemod.*), and
	// links @lsp.type.class.markdown to "@lsp", a group nothing defines.
	leftOut := map[string]bool{"@lsp.mod.attribute": true, "@lsp.mod.defaultLibrary": true, "@lsp.type.class.markdown": true}
	anchor := vocabLines(t, "tinted-vim-groups.txt")
	var missing []string
	for _, g := range anchor {
		if _, ok := set[strings.ToLower(g)]; !ok && !leftOut[g] {
			missing = append(missing, g)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%d of tinted-vim's %d groups not set: %v", len(missing), len(anchor), missing)
	}
	if len(set) < 450 {
		t.Errorf("%d groups, want at least 450", len(set))
	}
	// Every standard capture of Neovim 0.10 is set.
	captures := vocabLines(t, "nvim-captures.txt")
	for _, c := range captures {
		if _, ok := set[strings.ToLower(c)]; !ok {
			t.Errorf("Neovim 0.10 capture %s not set", c)
		}
	}
	// The syntax roles' captures: core/targets' TestNeovimSetsEachSyntaxRolesCaptures.
	// LSP semantic tokens, by Neovim's names (:h lsp-semantic-highlight).
	for group, role := range map[string]string{"@lsp.type.enumMember": "constant", "@lsp.type.decorator": "attribute",
		"@lsp.type.typeParameter": "type", "@lsp.typemod.variable.readonly": "constant",
		"@lsp.typemod.function.defaultLibrary": "builtinFunction", "@lsp.typemod.variable.defaultLibrary": "builtinVariable",
		"@lsp.mod.deprecated": "deprecated", "@lsp.type.selfKeyword": "builtinVariable"} {
		want := "fg = '" + th.Seen(th.Color("syntax."+role)).Hex() + "'"
		if d := set[strings.ToLower(group)]; !strings.HasPrefix(d.def, want) {
			t.Errorf("%s = %q, want %s", group, d.def, want)
		}
	}
	// Font styles follow the roles.
	for group, attr := range map[string]string{"@comment": "italic", "Comment": "italic", "@markup.strong": "bold",
		"@markup.italic": "italic", "@markup.heading": "bold", "@markup.strikethrough": "strikethrough",
		"@markup.link.url": "underline", "@lsp.mod.deprecated": "strikethrough", "CmpItemAbbrDeprecated": "strikethrough"} {
		if !strings.Contains(set[strings.ToLower(group)].def, attr+" = true") {
			t.Errorf("%s = %q, want %s", group, set[strings.ToLower(group)].def, attr)
		}
	}
	// Each surface the issue names has its groups.
	count := func(prefix string) int {
		n := 0
		for name := range set {
			if strings.HasPrefix(name, strings.ToLower(prefix)) {
				n++
			}
		}
		return n
	}
	for prefix, least := range map[string]int{
		"@lsp.type.": 25, "@lsp.mod.": 2, "@lsp.typemod.": 5, "@markup.": 15, "@diff.": 3,
		"DiagnosticUnderline": 5, "DiagnosticVirtualText": 5, "DiagnosticSign": 5, "DiagnosticFloating": 5,
		"GitSigns": 20, "Telescope": 15, "CmpItemKind": 25, "BlinkCmp": 40, "WhichKey": 8, "NvimTree": 15,
		"NeoTree": 20, "Ibl": 3, "Mini": 60, "Lazy": 25, "Noice": 20, "Notify": 20, "Trouble": 15, "Flash": 6,
		"Dashboard": 10, "Added": 1, "Changed": 1, "Removed": 1,
	} {
		if n := count(prefix); n < least {
			t.Errorf("%d %s* groups, want at least %d", n, prefix, least)
		}
	}
	// Diff lines get their backgrounds.
	for group, role := range map[string]string{"diffadd": "diff.addedLine", "diffchange": "diff.changedLine",
		"diffdelete": "diff.removedLine", "difftext": "diff.changedText"} {
		if want := "bg = '" + th.Seen(th.Color(role)).Hex() + "'"; !strings.Contains(set[group].def, want) {
			t.Errorf("%s = %q, want %s", group, set[group].def, want)
		}
	}
	t.Logf("neovim: %d groups, %d of tinted-vim's %d, all %d standard 0.10 captures", len(set), len(anchor)-len(missing)-len(leftOut), len(anchor), len(captures))
}

// helixExport is the scopes the example's Helix theme sets, decoded.
func helixExport(t *testing.T, th *theme.Theme) (keys map[string]map[string]any, palette map[string]any) {
	t.Helper()
	files, err := Render(th, "helix")
	if err != nil {
		t.Fatal(err)
	}
	text := string(files[theme.Slug(th.Name)+".toml"])
	var doc map[string]any
	if err := toml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	keys = map[string]map[string]any{}
	for k, v := range doc {
		if m, ok := v.(map[string]any); ok && k != "palette" {
			keys[k] = m
		}
	}
	// A scope written twice would be refused by the TOML decoder above.
	palette, _ = doc["palette"].(map[string]any)
	return keys, palette
}

func TestHelixCoverage(t *testing.T) {
	th := theme.Example()
	vocab, themes := vocabHelix(t)
	keys, _ := helixExport(t, th)
	// Every key at least half of Helix's bundled themes set.
	var missing, common []string
	for k, n := range vocab {
		if 2*n >= themes {
			common = append(common, k)
			if keys[k] == nil {
				missing = append(missing, k)
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%d of the %d keys most Helix themes set are missing: %v", len(missing), len(common), missing)
	}
	for _, k := range []string{"diagnostic.info", "diagnostic.hint", "ui.statusline.normal", "ui.statusline.insert",
		"ui.statusline.select", "markup.list", "markup.heading", "markup.raw", "markup.quote", "ui.virtual.inlay-hint",
		"ui.virtual.jump-label", "ui.virtual.ruler", "ui.virtual.whitespace", "ui.virtual.indent-guide", "ui.virtual.wrap"} {
		if keys[k] == nil {
			t.Errorf("no %s", k)
		}
	}
	// Syntax scopes take their role's font style.
	for scope, mod := range map[string]string{"comment": "italic", "markup.bold": "bold", "markup.italic": "italic",
		"markup.strikethrough": "crossed_out", "markup.link.url": "underlined", "markup.heading": "bold"} {
		mods, _ := keys[scope]["modifiers"].([]any)
		found := false
		for _, m := range mods {
			found = found || m == mod
		}
		if !found {
			t.Errorf("%s modifiers %v, want %s", scope, mods, mod)
		}
	}
	// The statusline mode labels read on their backgrounds (AA), in
	// every sample theme.
	for name, th := range sampleThemes(t) {
		keys, palette := helixExport(t, th)
		for _, mode := range []string{"normal", "insert", "select"} {
			k := keys["ui.statusline."+mode]
			fg, _ := palette[k["fg"].(string)].(string)
			bg, _ := palette[k["bg"].(string)].(string)
			f, err1 := theme.ParseColor(fg)
			b, err2 := theme.ParseColor(bg)
			if err1 != nil || err2 != nil {
				t.Fatalf("ui.statusline.%s: fg %q bg %q", mode, fg, bg)
			}
			if r := colour.Ratio(f, b); r < 4.5 {
				t.Errorf("%s: ui.statusline.%s: %s on %s is %.2f:1", name, mode, fg, bg, r)
			}
		}
	}
	var unknown []string
	for k := range keys {
		if _, ok := vocab[k]; !ok {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	// Each key is one a bundled theme sets too: a misspelt scope, which
	// Helix ignores without a word, fails here.
	if len(unknown) > 0 {
		t.Errorf("keys no bundled Helix theme sets: %v", unknown)
	}
	t.Logf("helix: %d keys, %d of the %d most themes set, %d of the %d any bundled theme sets; not in any bundled theme: %v",
		len(keys), len(common)-len(missing), len(common), len(keys)-len(unknown), len(vocab), unknown)
}

// zedExport is the example's Zed theme style, decoded.
func zedExport(t *testing.T) (style map[string]json.RawMessage, syntax map[string]json.RawMessage, players []json.RawMessage) {
	t.Helper()
	files, err := Render(theme.Example(), "zed")
	if err != nil {
		t.Fatal(err)
	}
	var fam struct {
		Themes []struct {
			Style map[string]json.RawMessage `json:"style"`
		} `json:"themes"`
	}
	if err := json.Unmarshal(files["harbour-night.json"], &fam); err != nil || len(fam.Themes) != 1 {
		t.Fatalf("zed export: %v", err)
	}
	style = fam.Themes[0].Style
	json.Unmarshal(style["syntax"], &syntax)
	json.Unmarshal(style["players"], &players)
	return style, syntax, players
}

func TestZedCoverage(t *testing.T) {
	vocab := vocabZed(t)
	known := map[string]bool{"syntax": true, "players": true, "accents": true}
	for _, k := range append(append([]string{}, vocab["one-dark"]...), vocab["schema"]...) {
		known[k] = true
	}
	style, syntax, players := zedExport(t)
	keys := 0
	for k := range style {
		if !known[k] {
			t.Errorf("style key %q is neither in One Dark nor in Zed's theme schema", k)
		}
		if k != "syntax" && k != "players" && k != "accents" {
			keys++
		}
	}
	if keys < 130 {
		t.Errorf("%d style keys, want at least 130 (One Dark sets %d)", keys, len(vocab["one-dark"]))
	}
	for _, k := range vocab["one-dark"] {
		if _, ok := style[k]; !ok {
			t.Errorf("One Dark sets %q, the export does not", k)
		}
	}
	for _, name := range vocab["syntax"] {
		if _, ok := syntax[name]; !ok {
			t.Errorf("syntax name %q missing", name)
		}
	}
	if len(syntax) != len(vocab["syntax"]) || len(vocab["syntax"]) != 43 {
		t.Errorf("%d syntax names, One Dark's %d (want all 43)", len(syntax), len(vocab["syntax"]))
	}
	if want, _ := strconv.Atoi(vocab["players"][0]); len(players) != want {
		t.Errorf("%d players, want %d", len(players), want)
	}
}
