package themeimport

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/fsread"
	"cdxtheme/internal/testrig/fifo"
)

func importFixture(t *testing.T, name string) *Imported {
	t.Helper()
	data, err := ReadImportFile(filepath.Join(model, "import", name))
	if err != nil {
		t.Fatal(err)
	}
	imp, err := Import(name, data)
	if err != nil {
		t.Fatalf("import %s: %v", name, err)
	}
	if !accountsForEveryRole(t, imp) {
		t.Errorf("%s: not every role is accounted for once", name)
	}
	return imp
}

func wantRole(t *testing.T, imp *Imported, role, colour, from string) {
	t.Helper()
	if got := imp.Theme.Color(role).String(); got != colour {
		t.Errorf("%s = %s, want %s", role, got, colour)
	}
	for _, m := range imp.Mapped {
		if m.Role == role {
			if from == "" {
				t.Errorf("%s mapped from %q, want derived", role, m.From)
			} else if m.From != from {
				t.Errorf("%s mapped from %q, want %q", role, m.From, from)
			}
			return
		}
	}
	if from != "" {
		t.Errorf("%s is not mapped (want from %q)", role, from)
	}
}

func hasWarning(imp *Imported, sub string) bool {
	for _, w := range imp.Warnings {
		if strings.Contains(w, sub) {
			return true
		}
	}
	return false
}

// Real-world shaped files of every source format: what each role is read
// from, what is derived, and what the user is warned about.
func TestImportFixtures(t *testing.T) {
	t.Run("vscode", func(t *testing.T) {
		imp := importFixture(t, "nightfall-color-theme.json")
		if imp.Format != "vscode" || imp.Theme.Name != "Nightfall" || imp.Theme.Appearance != "dark" {
			t.Errorf("format %s, name %q, appearance %s", imp.Format, imp.Theme.Name, imp.Theme.Appearance)
		}
		wantRole(t, imp, "ui.background", "#1a1b26", `colors."editor.background"`)
		wantRole(t, imp, "ui.surface", "#16161e", `colors."sideBar.background"`)
		wantRole(t, imp, "ui.mutedText", "#3b4261", `colors."editorLineNumber.foreground"`)
		wantRole(t, imp, "ui.accent", "#3d59a1", `colors."button.background"`)
		wantRole(t, imp, "ui.selection", "#515c7e4d", `colors."editor.selectionBackground"`)
		wantRole(t, imp, "ansi.brightBlack", "#414868", `colors."terminal.ansiBrightBlack"`)
		// keyword.control is more specific than keyword; the descendant
		// selector "meta.function-call entity.name.function" is a context,
		// not the function colour. constant.language (true, null) is the
		// built-in constant role's scope, so syntax.constant is "constant"
		// and the built-in constants keep their own colour (issue #39).
		wantRole(t, imp, "syntax.keyword", "#bb9af7", `tokenColors[2] "keyword.control"`)
		wantRole(t, imp, "syntax.function", "#7aa2f7", `tokenColors[6] "entity.name.function"`)
		wantRole(t, imp, "syntax.constant", "#ff00ff", `tokenColors[9] "constant"`)
		wantRole(t, imp, "syntax.builtinConstant", "#ff9e64", `tokenColors[10] "constant.language"`)
		wantRole(t, imp, "syntax.comment", "#565f89", `tokenColors[0] "comment"`)
		wantRole(t, imp, "syntax.variable", "#c0caf5", "")
		wantRole(t, imp, "ui.success", "#9ece6a", "")
	})
	t.Run("base16 classic", func(t *testing.T) {
		imp := importFixture(t, "gruvbox-dark-hard.yaml")
		if imp.Format != "base16" || imp.Theme.Name != "Gruvbox dark, hard" || imp.Theme.Appearance != "dark" {
			t.Errorf("format %s, name %q, appearance %s", imp.Format, imp.Theme.Name, imp.Theme.Appearance)
		}
		wantRole(t, imp, "ui.background", "#1d2021", "base00")
		wantRole(t, imp, "ui.error", "#fb4934", "base08")
		wantRole(t, imp, "syntax.variable", "#fb4934", "base08")
		wantRole(t, imp, "syntax.keyword", "#d3869b", "base0E")
		// base16 styling.md: ANSI 0 = base00, 7 = base05, 8 = base03.
		wantRole(t, imp, "ansi.black", "#1d2021", "base00")
		wantRole(t, imp, "ansi.white", "#d5c4a1", "base05")
		wantRole(t, imp, "ansi.brightBlack", "#665c54", "base03")
		wantRole(t, imp, "ui.border", imp.Theme.UI.Border.String(), "")
		if s := imp.Theme.Scheme; s == nil || s.System != "base16" || len(s.Slots) != 16 || s.Slots["base0F"].Hex() != "#d65d0e" {
			t.Errorf("scheme = %+v, want the 16 slots verbatim", s)
		}
	})
	t.Run("base24 0.11 layout", func(t *testing.T) {
		imp := importFixture(t, "one-light.yaml")
		if imp.Format != "base24" || imp.Theme.Appearance != "light" {
			t.Errorf("format %s, appearance %s", imp.Format, imp.Theme.Appearance)
		}
		// base24 styling.md 0.1.3: normal colours from base08–base0E,
		// bright ones from base12–base17.
		wantRole(t, imp, "ansi.black", "#fafafa", "palette.base00")
		wantRole(t, imp, "ansi.red", "#ca1243", "palette.base08")
		wantRole(t, imp, "ansi.brightRed", "#e45649", "palette.base12")
		wantRole(t, imp, "ansi.cyan", "#0184bc", "palette.base0C")
		wantRole(t, imp, "ansi.white", imp.Theme.UI.Text.String(), "palette.base05")
		wantRole(t, imp, "ansi.brightBlack", imp.Theme.Syntax.Comment.String(), "palette.base03")
	})
	t.Run("alacritty", func(t *testing.T) {
		imp := importFixture(t, "alacritty.toml")
		wantRole(t, imp, "ui.text", "#ebdbb2", "colors.primary.foreground")
		wantRole(t, imp, "ansi.magenta", "#b16286", "colors.normal.magenta")
		wantRole(t, imp, "ui.accent", "#458588", "")
		if !hasWarning(imp, `colors.cursor.cursor is "CellForeground"`) {
			t.Errorf("warnings %q do not explain the cursor", imp.Warnings)
		}
	})
	t.Run("windows terminal settings", func(t *testing.T) {
		imp := importFixture(t, "settings.json")
		if imp.Format != "windows-terminal" || imp.Theme.Name != "Campbell Dusk" {
			t.Errorf("format %s, name %q", imp.Format, imp.Theme.Name)
		}
		wantRole(t, imp, "ansi.magenta", "#881798", "schemes[0].purple")
		wantRole(t, imp, "terminal.cursor", "#ffffff", "schemes[0].cursorColor")
		if !hasWarning(imp, `"One Half Light"`) {
			t.Errorf("warnings %q do not name the scheme left out", imp.Warnings)
		}
	})
	t.Run("kitty", func(t *testing.T) {
		imp := importFixture(t, "kitty-theme.conf")
		if imp.Theme.Name != "Tokyo Dusk" {
			t.Errorf("name %q", imp.Theme.Name)
		}
		wantRole(t, imp, "ui.selection", "#283457", "selection_background")
		wantRole(t, imp, "ansi.brightWhite", "#c0caf5", "color15")
		if !hasWarning(imp, "include ../base.conf is not followed") {
			t.Errorf("warnings %q", imp.Warnings)
		}
	})
	t.Run("ghostty", func(t *testing.T) {
		imp := importFixture(t, "ghostty-theme")
		if imp.Format != "ghostty" || imp.Theme.Name != "ghostty-theme" {
			t.Errorf("format %s, name %q", imp.Format, imp.Theme.Name)
		}
		wantRole(t, imp, "ui.background", "#1e1e2e", "background")
		wantRole(t, imp, "ansi.yellow", "#f9e2af", "palette 3")
	})
	t.Run("iterm2", func(t *testing.T) {
		imp := importFixture(t, "solarized.itermcolors")
		wantRole(t, imp, "ansi.black", "#073642", "Ansi 0 Color")
		wantRole(t, imp, "ansi.red", "#dc322f", "Ansi 1 Color")
		wantRole(t, imp, "ui.background", "#002b36", "Background Color")
		wantRole(t, imp, "ui.surface", "#a6e6ff40", "Cursor Guide Color")
	})
}

// Bad input is reported with the file, the line and the key.
func TestImportErrors(t *testing.T) {
	tests := []struct {
		name, file, data, want string
	}{
		{"vscode bad colour", "t.json", "{\n  \"colors\": {\n    \"editor.background\": \"nope\"\n  }\n}", `t.json:3: colors."editor.background": "nope" is not a hex colour`},
		{"vscode short hex", "t.json", "{\"colors\": {\"editor.background\": \"#12345\"}}", `t.json:1: colors."editor.background": "#12345" is not a hex colour`},
		{"vscode number", "t.json", "{\n\"colors\": {\n\"focusBorder\": 12}}", `t.json:3: colors.focusBorder: want a colour string`},
		{"vscode syntax", "t.json", "{\n  \"colors\": {\n    \"a\": \"#fff\"\n    \"b\": \"#000\"\n  }\n}", "t.json:4: invalid JSON"},
		{"vscode token", "t.json", "{\"tokenColors\": [\n {\"scope\": \"string\",\n  \"settings\": {\"foreground\": \"green\"}}]}", `t.json:3: tokenColors[0].settings.foreground: "green" is not a hex colour`},
		{"base16 missing slot", "s.yaml", "scheme: x\nbase00: \"000000\"\n", "s.yaml:1: base01: missing"},
		{"base16 bad slot", "s.yaml", "palette:\n  base00: \"000000\"\n  base01: zz\n", "s.yaml:3: palette.base01: \"zz\" is not a hex colour"},
		{"yaml syntax", "s.yaml", "scheme: x\nbase00: [\n", "s.yaml:2: invalid YAML"},
		{"scheme system", "s.yaml", "system: base17\nname: x\n", `s.yaml:1: system: "base17" is not a scheme system`},
		{"iterm component", "a.itermcolors", "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>Ansi 1 Color</key>\n<dict>\n<key>Red Component</key>\n<real>x</real>\n</dict>\n</dict>\n</plist>\n", `a.itermcolors:7: Ansi 1 Color.Red Component: "x" is not a number`},
		{"plist syntax", "a.itermcolors", "<?xml version=\"1.0\"?>\n<plist>\n<dict>\n</plist>\n", "a.itermcolors:4: invalid XML"},
		{"alacritty colour", "a.toml", "[colors.primary]\nbackground = \"#000000\"\n\n[colors.normal]\nred = \"#12345\"\n", `a.toml:5: colors.normal.red: "#12345" is not a hex colour`},
		{"toml syntax", "a.toml", "[colors.primary]\nbackground = \n", "a.toml:2: invalid TOML"},
		{"kitty colour", "k.conf", "background #000000\ncolor3 #12\n", `k.conf:2: color3: "#12" is not a hex colour`},
		{"ghostty palette", "g", "background = 000000\npalette = x\n", "g:2: palette: want N=#rrggbb"},
		{"foot colour", "f.ini", "[colors]\nforeground=zzz\n", `f.ini:2: [colors] foreground: "zzz" is not a hex colour`},
		{"windows terminal empty", "wt.json", "{\n\"schemes\": []\n}", "wt.json:2: schemes: the settings hold no colour scheme"},
		{"unknown", "notes.txt", "hello world", "notes.txt: not a theme format CDXTheme imports"},
		{"json not theme", "x.json", "{\"a\": 1}", "x.json:1: a JSON file without"},
		{"cdxtheme invalid", "theme.json", "{\n\"name\": \"x\",\n\"appearance\": \"dark\",\n\"ui\": {},\n\"syntax\": {},\n\"ansi\": []\n}", "theme.json:4: ui.background: required"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Import(tc.file, []byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

func TestReadImportFile(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.conf")
	os.WriteFile(ok, []byte("background #000000\n"), 0o644)
	link := filepath.Join(dir, "link.conf")
	// Where a symlink can be made (Windows without Developer Mode cannot;
	// Wine's CreateSymbolicLinkW makes nothing), the one the user names is read.
	if os.Symlink(ok, link) == nil {
		if fi, err := os.Lstat(link); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			if b, err := ReadImportFile(link); err != nil || len(b) == 0 {
				t.Errorf("a symlink the user names is read (%v)", err)
			}
		}
	} else if runtime.GOOS != "windows" {
		t.Fatal("symlink: cannot make one")
	}
	if _, err := ReadImportFile(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("folder: %v", err)
	}
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, make([]byte, MaxImportSize+1), 0o644)
	if _, err := ReadImportFile(big); !errors.Is(err, fsread.ErrTooLarge) || !strings.Contains(err.Error(), "import: ") {
		t.Errorf("huge file: %v", err)
	}
	if _, err := Import("big.json", make([]byte, MaxImportSize+1)); err == nil {
		t.Error("Import takes more than MaxImportSize")
	}
	pipe := filepath.Join(dir, "fifo.json")
	if err := fifo.Make(pipe); errors.Is(err, errors.ErrUnsupported) {
		return // no FIFOs on this system
	} else if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadImportFile(pipe); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("FIFO: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO hung")
	}
}

// A theme.json without a required top-level key is refused naming the key,
// for the whole file (there is no line to point at), not with a crash.
func TestThemeJSONMissingATopLevelKeyNamesIt(t *testing.T) {
	_, err := Import("theme.json", []byte("{\n\"ui\":{},\n\"syntax\":{},\n\"ansi\":{}\n}\n"))
	var ie *ImportError
	if !errors.As(err, &ie) || ie.Key != "name" || ie.Line != 0 || ie.Msg != "required" {
		t.Fatalf("err = %#v, want name required for the whole file", err)
	}
}

// A terminal palette colour no role takes (kitty's color20) is named once
// among what is not carried, not once per pass that looked at it.
func TestExtendedPaletteColourIsNamedOnce(t *testing.T) {
	imp, err := Import("dusk.conf", []byte("background #101010\nforeground #eeeeee\ncolor0 #000000\ncolor1 #aa0000\ncolor20 #123456\n"))
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(imp.Warnings, "\n"); strings.Count(w, "color20") != 1 {
		t.Fatalf("warnings %q, want color20 named once", imp.Warnings)
	}
}

// A TextMate theme under another plist name (here .itermcolors) is read as
// the TextMate theme it is, and the import says so.
func TestTmThemeUnderAnotherPlistNameIsReportedAsOne(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "targets", "testdata", "golden", "example", "tmtheme", "harbour-night.tmTheme"))
	if err != nil {
		t.Fatal(err)
	}
	imp, err := Import("harbour-night.itermcolors", src)
	if err != nil {
		t.Fatal(err)
	}
	if imp.Format != "tmtheme" {
		t.Fatalf("format %q, want tmtheme", imp.Format)
	}
}

// The import names the token rules Neovim cannot carry: a rule no role
// was read from still reaches Neovim when it names the scope of one of
// its language groups (storage.type.numeric.go: goFloats; the Python
// support.type: the built-in types), and only the others are named as
// what Neovim leaves out.
func TestImportNamesTheTokenRulesNeovimLeavesOut(t *testing.T) {
	src := `{"name": "t", "type": "dark", "colors": {"editor.background": "#101010", "editor.foreground": "#e0e0e0"},
	"tokenColors": [
		{"scope": "storage.type", "settings": {"foreground": "#d08080"}},
		{"scope": "storage.type.numeric.go", "settings": {"foreground": "#d08081"}},
		{"scope": "support.type", "settings": {"foreground": "#d08082"}},
		{"scope": "support.type.python", "settings": {"foreground": "#d08083"}},
		{"scope": "markup.other.cdx", "settings": {"foreground": "#d08084"}}
	]}`
	imp, err := Import("t.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var byRole, neovim string
	for _, w := range imp.Warnings {
		switch {
		case strings.Contains(w, "Neovim leaves them out"):
			neovim = w
		case strings.Contains(w, "colour by role"):
			byRole = w
		}
	}
	for _, r := range []string{"tokenColors[1] (storage.type.numeric.go)", "tokenColors[3] (support.type.python)", "tokenColors[4] (markup.other.cdx)"} {
		if !strings.Contains(byRole, r) {
			t.Errorf("the by-role warning does not name %s: %q", r, byRole)
		}
	}
	if !strings.Contains(neovim, "tokenColors[4] (markup.other.cdx)") || strings.Contains(neovim, "storage.type") || strings.Contains(neovim, "support.type") {
		t.Errorf("the Neovim warning names the wrong rules: %q", neovim)
	}
}

// A rule with parent selectors is named as the user wrote it, every
// selector of it, and reaches Neovim when one of them paints a scope of
// Neovim's language groups as VS Code matches it (pythonExceptions:
// source.python support.type.exception.python).
func TestImportNamesDescendantRulesAsWritten(t *testing.T) {
	src := `{"name": "t", "type": "dark", "colors": {"editor.background": "#101010", "editor.foreground": "#e0e0e0"},
	"tokenColors": [
		{"scope": "source.python support.type", "settings": {"foreground": "#d08080"}},
		{"scope": "source.python > support.type", "settings": {"foreground": "#d08081"}},
		{"scope": "meta.cdx markup.other.cdx", "settings": {"foreground": "#d08082"}},
		{"scope": ["meta.cdx markup.other.cdx", "markup.other.cdx2"], "settings": {"foreground": "#d08083"}},
		{"scope": "source.rust > support.type", "settings": {"foreground": "#d08084"}}
	]}`
	imp, err := Import("t.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var byRole, neovim string
	for _, w := range imp.Warnings {
		switch {
		case strings.Contains(w, "Neovim leaves them out"):
			neovim = w
		case strings.Contains(w, "colour by role"):
			byRole = w
		}
	}
	for _, r := range []string{"tokenColors[0] (source.python support.type)", "tokenColors[1] (source.python > support.type)",
		"tokenColors[2] (meta.cdx markup.other.cdx)", "tokenColors[3] (meta.cdx markup.other.cdx, markup.other.cdx2)",
		"tokenColors[4] (source.rust > support.type)"} {
		if !strings.Contains(byRole, r) {
			t.Errorf("the by-role warning does not name %s: %q", r, byRole)
		}
	}
	for _, r := range []string{"tokenColors[2] (meta.cdx markup.other.cdx)", "tokenColors[3] (meta.cdx markup.other.cdx, markup.other.cdx2)",
		"tokenColors[4] (source.rust > support.type)"} {
		if !strings.Contains(neovim, r) {
			t.Errorf("the Neovim warning does not name %s: %q", r, neovim)
		}
	}
	if strings.Contains(neovim, "source.python") {
		t.Errorf("the Neovim warning names a rule that reaches Neovim's Python groups: %q", neovim)
	}
}
