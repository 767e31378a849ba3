package theme

import (
	"math/rand"
	"reflect"
	"sort"
	"strings"
	"testing"
	"testing/quick"
)

// randomTheme is a generated theme for property tests: random colours in
// every role, sometimes a translucent selection (which terminal formats
// must flatten), and a name with characters that need escaping.
type randomTheme struct{ *Theme }

func (randomTheme) Generate(r *rand.Rand, _ int) reflect.Value {
	col := func() Color {
		return Color{R: uint8(r.Intn(256)), G: uint8(r.Intn(256)), B: uint8(r.Intn(256)), A: 255}
	}
	t := &Theme{Appearance: Appearances[r.Intn(2)]}
	names := []string{"Night \"Owl\"", "Ünïcode & <tags>", "plain", "tab\there", "back\\slash 'quote'", "日本 theme"}
	t.Name = names[r.Intn(len(names))]
	if r.Intn(2) == 0 {
		t.Author = "Ann O'Nym"
	}
	for _, p := range CorePaths() {
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
	"vscode": CorePaths(),
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
	for _, n := range ANSINames {
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
	for _, r := range SyntaxRoles {
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
				files, err := Render(th, format)
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
						want = th.seen(want)
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
					if imp.Theme.Name != oneLine(th.Name) {
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
	for _, p := range RolePaths() {
		if seen[p] != 1 {
			t.Logf("%s accounted for %d times (want once)", p, seen[p])
			return false
		}
	}
	if len(seen) != len(RolePaths()) {
		var extra []string
		for k := range seen {
			if _, ok := RoleByPath(k); !ok {
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
	forSamples(t, format, func(t *testing.T, th *Theme, files map[string][]byte) {
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
				want = th.seen(want)
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
