package themeimport

import (
	"math/rand"
	"reflect"
	"sort"
	"strings"
	"testing"
	"testing/quick"

	"cdxtheme/core/scopes"
	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
)

// randomTheme is a generated theme for property tests: random colours in
// every role, sometimes a translucent selection (which terminal formats
// must flatten), and a name with characters that need escaping.
type randomTheme struct{ *theme.Theme }

func (randomTheme) Generate(r *rand.Rand, _ int) reflect.Value {
	col := func() theme.Color {
		return theme.Color{R: uint8(r.Intn(256)), G: uint8(r.Intn(256)), B: uint8(r.Intn(256)), A: 255}
	}
	t := &theme.Theme{Appearance: theme.Appearances[r.Intn(2)]}
	names := []string{"Night \"Owl\"", "Ünïcode & <tags>", "plain", "tab\there", "back\\slash 'quote'", "日本 theme"}
	t.Name = names[r.Intn(len(names))]
	if r.Intn(2) == 0 {
		t.Author = "Ann O'Nym"
	}
	for _, p := range theme.CorePaths() {
		*t.Ref(p) = col()
	}
	if r.Intn(3) == 0 {
		t.UI.Selection.A = uint8(40 + r.Intn(180))
	}
	return reflect.ValueOf(randomTheme{t})
}

// carried is what each export format holds of a theme, so what importing
// the export must give back. Written out independently of the tables the
// exporters and importers use.
var carried = map[string][]string{
	"vscode": theme.CorePaths(),
	"base16": {"ui.background", "ui.surface", "ui.selection", "syntax.comment", "ui.mutedText", "ui.text",
		"ansi.brightWhite", "ui.error", "syntax.number", "syntax.type", "syntax.string",
		"ansi.cyan", "syntax.function", "syntax.keyword"},
	"base24": {"ui.background", "ui.surface", "ui.selection", "syntax.comment", "ui.mutedText", "ui.text",
		"ansi.brightWhite", "ui.error", "syntax.number", "syntax.type", "syntax.string",
		"ansi.cyan", "syntax.function", "syntax.keyword",
		"ansi.brightRed", "ansi.brightYellow", "ansi.brightGreen", "ansi.brightCyan", "ansi.brightBlue", "ansi.brightMagenta"},
	"iterm2":           withANSI("ui.background", "ui.text", "ui.selection", "ui.surface", "terminal.cursor", "terminal.cursorText", "terminal.selectionText", "terminal.bold", "terminal.link"),
	"tmtheme":          append([]string{"ui.background", "ui.text", "ui.accent", "ui.selection", "ui.surface", "ui.mutedText", "ui.border", "ui.error", "ui.success", "ui.warning"}, syntaxPaths()...),
	"alacritty":        withANSI(append([]string{"ui.background", "ui.text", "ui.selection", "terminal.cursor", "terminal.cursorText", "terminal.selectionText", "terminal.bold", "terminal.dimForeground"}, dimPaths()...)...),
	"wezterm":          withANSI("ui.background", "ui.text", "ui.selection", "ui.border", "ui.surface", "ui.mutedText", "ui.warning", "terminal.cursor", "terminal.cursorText", "terminal.selectionText"),
	"windows-terminal": withANSI("ui.background", "ui.text", "terminal.cursor", "ui.selection"),
	"kitty":            withANSI("ui.background", "ui.text", "ui.selection", "ui.accent", "ui.border", "ui.surface", "ui.mutedText", "ui.warning", "terminal.cursor", "terminal.cursorText", "terminal.selectionText", "terminal.link"),
	"ghostty":          withANSI("ui.background", "ui.text", "ui.selection", "terminal.cursor", "terminal.cursorText", "terminal.selectionText", "terminal.bold"),
	"foot":             withANSI("ui.background", "ui.text", "ui.selection", "terminal.cursor", "terminal.cursorText", "terminal.selectionText", "terminal.link"),
}

// carriedVia: a core role a format carries only through the optional role
// that derives from it (a TextMate lineHighlight is editor.lineHighlight,
// which is ui.surface unless the theme sets it).
var carriedVia = map[string]map[string]string{
	"tmtheme": {"ui.surface": "editor.lineHighlight", "ui.mutedText": "editor.lineNumber", "ui.border": "editor.whitespace"},
}

func withANSI(roles ...string) []string {
	for _, n := range theme.ANSINames {
		roles = append(roles, "ansi."+n)
	}
	return roles
}

// dimPaths are the eight dim ANSI roles, written out by name.
func dimPaths() []string {
	return []string{"terminal.dimBlack", "terminal.dimRed", "terminal.dimGreen", "terminal.dimYellow",
		"terminal.dimBlue", "terminal.dimMagenta", "terminal.dimCyan", "terminal.dimWhite"}
}

func syntaxPaths() []string {
	var out []string
	for _, r := range theme.SyntaxRoles {
		out = append(out, "syntax."+r)
	}
	return out
}

// keepsAlpha: formats whose colours carry alpha; the others flatten onto
// the background, as the terminal draws them.
var keepsAlpha = map[string]bool{"vscode": true}

// TestImportRoundTrip: for every format with both an exporter and an
// importer, import(export(t)) gives back every role the format carries,
// records each of them as mapped from a source key, and accounts for every
// other role exactly once as derived.
func TestImportRoundTrip(t *testing.T) {
	for format, roles := range carried {
		t.Run(format, func(t *testing.T) {
			prop := func(rt randomTheme) bool {
				th := rt.Theme
				files, err := targets.Render(th, format)
				if err != nil {
					t.Logf("render: %v", err)
					return false
				}
				name, data := mainFile(format, files)
				imp, err := Import(name, data)
				if err != nil {
					t.Logf("import %s: %v\n%s", name, err, data)
					return false
				}
				if imp.Format != format {
					t.Logf("%s detected as %s", name, imp.Format)
					return false
				}
				mapped := map[string]string{}
				for _, m := range imp.Mapped {
					mapped[m.Role] = m.From
				}
				ok := true
				for _, role := range roles {
					want := th.Color(role)
					if !keepsAlpha[format] {
						want = th.Seen(want)
					}
					if got := imp.Theme.Color(role); got != want {
						t.Logf("%s: %s = %s, exported %s", format, role, got, want)
						ok = false
					}
					if mapped[role] == "" {
						t.Logf("%s: %s came back but is not recorded as mapped", format, role)
						ok = false
					}
				}
				if !accountsForEveryRole(t, imp) {
					ok = false
				}
				if format == "vscode" || format == "base16" || format == "base24" || format == "tmtheme" || format == "wezterm" {
					if imp.Theme.Name != theme.OneLine(th.Name) {
						t.Logf("name %q, exported %q", imp.Theme.Name, th.Name)
						ok = false
					}
				}
				return ok
			}
			if err := quick.Check(prop, &quick.Config{MaxCount: 150}); err != nil {
				t.Error(err)
			}
		})
	}
}

// accountsForEveryRole: every role is either mapped or derived, once.
func accountsForEveryRole(t *testing.T, imp *Imported) bool {
	seen := map[string]int{}
	for _, m := range imp.Mapped {
		seen[m.Role]++
		if m.From == "" {
			t.Logf("%s mapped from nothing", m.Role)
			return false
		}
	}
	for _, d := range imp.Derived {
		seen[d.Role]++
		if d.Rule == "" {
			t.Logf("%s derived without a rule", d.Role)
			return false
		}
	}
	for _, p := range theme.RolePaths() {
		if seen[p] != 1 {
			t.Logf("%s accounted for %d times (want once)", p, seen[p])
			return false
		}
	}
	if len(seen) != len(theme.RolePaths()) {
		var extra []string
		for k := range seen {
			if _, ok := theme.RoleByPath(k); !ok {
				extra = append(extra, k)
			}
		}
		sort.Strings(extra)
		t.Logf("unknown roles recorded: %v", extra)
		return false
	}
	return true
}

// mainFile is the file of an export a user would import (the VS Code
// theme, not its package.json).
func mainFile(format string, files map[string][]byte) (string, []byte) {
	for name, b := range files {
		if format == "vscode" && !strings.HasPrefix(name, "themes/") {
			continue
		}
		return name, b
	}
	return "", nil
}

// TestImportSamples: the two sample themes survive every round trip too,
// including the light theme's translucent selection.
func TestImportSamples(t *testing.T) {
	for format, roles := range carried {
		t.Run(format, func(t *testing.T) { testImportSamples(t, format, roles) })
	}
}

func testImportSamples(t *testing.T, format string, roles []string) {
	forSamples(t, format, func(t *testing.T, th *theme.Theme, files map[string][]byte) {
		name, data := mainFile(format, files)
		imp, err := Import(name, data)
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		for _, role := range roles {
			if via := carriedVia[format][role]; via != "" && th.Has(via) {
				continue // the sample sets the optional role the format writes in its place
			}
			want := th.Color(role)
			if !keepsAlpha[format] {
				want = th.Seen(want)
			}
			if got := imp.Theme.Color(role); got != want {
				t.Errorf("%s: %s = %s, want %s", format, role, got, want)
			}
		}
		if imp.Theme.Appearance != th.Appearance {
			t.Errorf("%s: appearance %s, want %s", format, imp.Theme.Appearance, th.Appearance)
		}
	})
}

// allSet is the example with every role of the catalogue set to a colour
// of its own (none equal to another, none equal to what its rule would
// derive), so a role an import derives instead of reading shows.
func allSet() *theme.Theme {
	t := theme.Example()
	t.Name = allSetName
	used := map[theme.Color]bool{}
	for _, p := range theme.RolePaths() {
		used[t.Color(p)] = true
	}
	i := 0
	for _, info := range theme.Catalogue() {
		if info.Required {
			continue
		}
		var c theme.Color
		for {
			i++
			c = theme.Color{R: uint8(40 + i*67%200), G: uint8(30 + i*131%210), B: uint8(50 + i*29%190), A: 255}
			if !used[c] {
				break
			}
		}
		used[c] = true
		t.Set(info.Path, c)
	}
	return t
}

const allSetName = "Every Role Set"

// onlyVia: core roles a format holds only through an optional role that
// derives from them (VS Code's errorForeground is diagnostic.error's key);
// where the optional role is set apart, the core role is not carried.
var onlyVia = map[string]map[string]bool{
	"vscode":  {"ui.error": true, "ui.warning": true, "ui.success": true},
	"tmtheme": {"ui.error": true, "ui.warning": true, "ui.success": true, "ui.surface": true, "ui.mutedText": true, "ui.border": true},
}

// carriedSet are the optional roles each format carries beyond carried's.
func carriedSet(format string) []string {
	switch format {
	case "vscode":
		// Every role the export writes to a key of its own, unscaled, and
		// every syntax role (through the token rules).
		var out []string
		seen := map[string]bool{}
		for _, k := range scopes.VSCodeColorKeys() {
			if k.Alpha == 0 && !k.Clear && !seen[k.Role] {
				seen[k.Role] = true
				out = append(out, k.Role)
			}
		}
		for _, m := range scopes.SyntaxTextMate() {
			if !seen["syntax."+m.Role] {
				out = append(out, "syntax."+m.Role)
			}
		}
		return out
	case "tmtheme":
		out := []string{"terminal.cursor", "terminal.selectionText", "editor.lineHighlight", "editor.lineNumber", "editor.whitespace", "editor.indentGuide"}
		for _, m := range scopes.SyntaxTextMate() {
			out = append(out, "syntax."+m.Role)
		}
		return out
	}
	return nil
}

// TestSetRolesSurviveRoundTrip (issue #39): a role a theme sets comes back
// unchanged from export → import → export → import, for every format that
// carries it — the example as it is (its cursor is not its accent) and a
// theme that sets every role.
func TestSetRolesSurviveRoundTrip(t *testing.T) {
	for format, roles := range carried {
		t.Run(format, func(t *testing.T) {
			roles = append(append([]string{}, roles...), carriedSet(format)...)
			for _, src := range []*theme.Theme{theme.Example(), allSet()} {
				th := src
				for round := 1; round <= 2; round++ {
					files, err := targets.Render(th, format)
					if err != nil {
						t.Fatal(err)
					}
					name, data := mainFile(format, files)
					imp, err := Import(name, data)
					if err != nil {
						t.Fatalf("round %d: import %s: %v", round, name, err)
					}
					for _, role := range roles {
						want := src.Color(role)
						if !keepsAlpha[format] {
							want = src.Seen(want)
						}
						if !src.Has(role) {
							continue // a derived role need not come back set
						}
						if onlyVia[format][role] {
							continue
						}
						if got := imp.Theme.Color(role); got != want {
							t.Errorf("%s %s (round %d): %s = %s, the theme sets %s", format, src.Name, round, role, got, want)
						}
					}
					th = imp.Theme
				}
			}
		})
	}
}
