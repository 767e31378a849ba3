package theme

import (
	"bufio"
	"encoding/json"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
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
	files, err := Render(Example(), "vscode")
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
}

// zedExport is the example's Zed theme style, decoded.
func zedExport(t *testing.T) (style map[string]json.RawMessage, syntax map[string]json.RawMessage, players []json.RawMessage) {
	t.Helper()
	files, err := Render(Example(), "zed")
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
