package targets

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
	"gopkg.in/yaml.v3"

	"cdxtheme/core/theme"
)

// Targets whose program Debian does not ship (or that needs a desktop
// session to load a theme) are checked against the program's documented
// format: the file parses in its syntax, carries the keys the program's
// documentation lists (manifest "docs"), and each carries the role it
// should. Every check runs on both appearances, the companion with the
// hostile name.

// loaded are the targets a real program loads in programs_test.go.
var loaded = map[string]string{
	"vim": "Vim 9 and Neovim 0.7 (:colorscheme, then synIDattr)", "emacs": "Emacs 28 (load-theme, face-attribute)",
	"fish": "fish 3.6 (fish_config theme choose)", "fzf": "fzf 0.38 (--color parsed, exit status)",
	"delta": "git config (reads the [delta] feature)", "ls-colors": "GNU ls (LS_COLORS applied to a folder)",
	"gnome-terminal": "dconf compile + dconf read", "xresources": "xrdb -n (cpp and xrdb's parser)",
	// Moved from Go: the same bytes as the Go exporter (moved_test.go),
	// and core/theme's tests load or parse them back as before.
	"kitty": "parse-back (core/theme)", "ghostty": "parse-back (core/theme)",
	"tmux": "tmux sources it (core/theme TestTmuxSourcesTheme)", "foot": "foot --check-config (core/theme)",
	"wezterm": "parse-back (core/theme)", "alacritty": "parse-back (core/theme)", "windows-terminal": "parse-back (core/theme)",
	"css": "parse-back (core/theme)", "vscode": "parse-back; VS Code themes round trip (core/theme, core/themeimport)", "zed": "parse-back; the Zed schema's vocabulary (core/theme)", "tmtheme": "bat renders with it (core/theme)", "iterm2": "parse-back; iTerm2-Color-Schemes oracle (core/theme)", "helix": "parse-back and Helix's scope vocabulary (core/theme)",
	"neovim": "Neovim 0.7 loads it, each group read back (core/theme TestNeovimLoadsColorscheme)", "base16": "parse-back through the importer (core/theme)", "base24": "parse-back through the importer (core/theme)",
	"chrome": "Chromium packs the extension (--pack-extension checks the manifest)",
	"gtk":    "GTK's CSS parser (GtkCssProvider) loads the named colours",
}

type check func(t *testing.T, m *theme.Theme, b []byte)

func jsonObj(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	return v
}

func yamlObj(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := yaml.Unmarshal(b, &v); err != nil {
		t.Fatalf("not YAML: %v\n%s", err, b)
	}
	return v
}

func tomlObj(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := toml.Unmarshal(b, &v); err != nil {
		t.Fatalf("not TOML: %v\n%s", err, b)
	}
	return v
}

// at walks nested maps by keys.
func at(t *testing.T, v any, keys ...string) any {
	t.Helper()
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("no object at %q", k)
		}
		if v, ok = m[k]; !ok {
			t.Fatalf("no key %q (have %v)", k, mapKeys(m))
		}
	}
	return v
}

func mapKeys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func eq(t *testing.T, what string, got any, want any) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// ini reads INI-like files: sections, key=value lines, # comments.
func ini(t *testing.T, b []byte, sep string) map[string]map[string]string {
	t.Helper()
	out := map[string]map[string]string{"": {}}
	sec := ""
	for i, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			sec = line[1 : len(line)-1]
			out[sec] = map[string]string{}
		default:
			k, v, ok := strings.Cut(line, sep)
			if !ok || strings.TrimSpace(k) != k || k == "" {
				t.Fatalf("line %d is not key%svalue: %q", i+1, sep, line)
			}
			out[sec][k] = v
		}
	}
	return out
}

func rgb(c theme.Color) string { return fmt.Sprintf("%d,%d,%d", c.R, c.G, c.B) }

var hexRE = regexp.MustCompile(`^#[0-9a-f]{6}$`)

var schemas = map[string]check{
	"jetbrains": func(t *testing.T, m *theme.Theme, b []byte) {
		var s struct {
			XMLName xml.Name `xml:"scheme"`
			Name    string   `xml:"name,attr"`
			Version string   `xml:"version,attr"`
			Parent  string   `xml:"parent_scheme,attr"`
			Colors  []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"colors>option"`
			Attrs []struct {
				Name   string `xml:"name,attr"`
				Values []struct {
					Name  string `xml:"name,attr"`
					Value string `xml:"value,attr"`
				} `xml:"value>option"`
			} `xml:"attributes>option"`
		}
		if err := xml.Unmarshal(b, &s); err != nil {
			t.Fatalf("not XML: %v", err)
		}
		eq(t, "scheme name", s.Name, m.Name)
		eq(t, "version", s.Version, "142")
		eq(t, "parent", s.Parent, map[string]string{"dark": "Darcula", "light": "Default"}[m.Appearance])
		colors := map[string]string{}
		for _, c := range s.Colors {
			colors[c.Name] = c.Value
		}
		eq(t, "CARET_COLOR", colors["CARET_COLOR"], hex(t, m, "terminal.cursor")[1:])
		attrs := map[string]map[string]string{}
		for _, a := range s.Attrs {
			attrs[a.Name] = map[string]string{}
			for _, v := range a.Values {
				attrs[a.Name][v.Name] = v.Value
			}
		}
		eq(t, "TEXT background", attrs["TEXT"]["BACKGROUND"], hex(t, m, "ui.background")[1:])
		eq(t, "DEFAULT_KEYWORD", attrs["DEFAULT_KEYWORD"]["FOREGROUND"], hex(t, m, "syntax.keyword")[1:])
		eq(t, "CONSOLE_RED_OUTPUT", attrs["CONSOLE_RED_OUTPUT"]["FOREGROUND"], hex(t, m, "ansi.red")[1:])
		eq(t, "CONSOLE_WHITE_OUTPUT", attrs["CONSOLE_WHITE_OUTPUT"]["FOREGROUND"], hex(t, m, "ansi.brightWhite")[1:])
	},
	"sublime": func(t *testing.T, m *theme.Theme, b []byte) {
		v := jsonObj(t, b)
		eq(t, "name", v["name"], m.Name)
		eq(t, "globals.caret", at(t, v, "globals", "caret"), hex(t, m, "terminal.cursor"))
		eq(t, "variables.background", at(t, v, "variables", "background"), hex(t, m, "ui.background"))
		// The rules are the .tmTheme's (bat's), reversed: the syntax map's
		// string rule among them. Each sets a colour or a font style
		// Sublime knows.
		rules := at(t, v, "rules").([]any)
		found := false
		for _, r := range rules {
			r := r.(map[string]any)
			scope, _ := r["scope"].(string)
			for _, sel := range strings.Split(scope, ",") {
				if strings.TrimSpace(sel) == "string" {
					found = true
					eq(t, "string rule", r["foreground"], hex(t, m, "syntax.string"))
				}
			}
			_, fg := r["foreground"]
			fs, hasFS := r["font_style"]
			if !fg && !hasFS {
				t.Errorf("rule %v sets nothing", r)
			}
			if hasFS {
				for _, w := range strings.Fields(fs.(string)) {
					if w != "bold" && w != "italic" && w != "underline" {
						t.Errorf("rule %v: font_style %q is not Sublime's", r, w)
					}
				}
			}
		}
		if !found || len(rules) < 25 {
			t.Errorf("%d rules, no string rule", len(rules))
		}
	},
	"konsole": func(t *testing.T, m *theme.Theme, b []byte) {
		f := ini(t, b, "=")
		eq(t, "Background", f["Background"]["Color"], rgb(m.Seen(m.UI.Background)))
		eq(t, "Color1", f["Color1"]["Color"], rgb(m.Seen(m.ANSI[1])))
		eq(t, "Color1Intense", f["Color1Intense"]["Color"], rgb(m.Seen(m.ANSI[9])))
		eq(t, "Description", f["General"]["Description"], oneLine(m.Name))
		for _, s := range []string{"Foreground", "ForegroundIntense", "ForegroundFaint", "BackgroundIntense", "BackgroundFaint", "Color7Faint"} {
			if f[s]["Color"] == "" {
				t.Errorf("no [%s] Color", s)
			}
		}
	},
	"xfce4-terminal": func(t *testing.T, m *theme.Theme, b []byte) {
		f := ini(t, b, "=")["Scheme"]
		eq(t, "Name", f["Name"], m.Name)
		eq(t, "ColorBackground", f["ColorBackground"], hex(t, m, "ui.background"))
		pal := strings.Split(f["ColorPalette"], ";")
		if len(pal) != 16 || pal[4] != hex(t, m, "ansi.blue") {
			t.Errorf("ColorPalette %q", f["ColorPalette"])
		}
	},
	"tilix": func(t *testing.T, m *theme.Theme, b []byte) {
		v := jsonObj(t, b)
		eq(t, "name", v["name"], m.Name)
		eq(t, "background-color", v["background-color"], hex(t, m, "ui.background"))
		eq(t, "use-theme-colors", v["use-theme-colors"], false)
		if p := v["palette"].([]any); len(p) != 16 || p[2] != hex(t, m, "ansi.green") {
			t.Errorf("palette %v", p)
		}
	},
	"mintty": func(t *testing.T, m *theme.Theme, b []byte) {
		f := ini(t, b, "=")[""]
		eq(t, "BackgroundColour", f["BackgroundColour"], rgb(m.Seen(m.UI.Background)))
		eq(t, "BoldMagenta", f["BoldMagenta"], rgb(m.Seen(m.ANSI[13])))
		if len(f) != 21 {
			t.Errorf("%d keys, want 21", len(f))
		}
	},
	"warp": func(t *testing.T, m *theme.Theme, b []byte) {
		v := yamlObj(t, b)
		eq(t, "name", v["name"], m.Name)
		eq(t, "background", v["background"], hex(t, m, "ui.background"))
		eq(t, "details", v["details"], map[string]string{"dark": "darker", "light": "lighter"}[m.Appearance])
		eq(t, "bright.cyan", at(t, v, "terminal_colors", "bright", "cyan"), hex(t, m, "ansi.brightCyan"))
	},
	"lazygit": func(t *testing.T, m *theme.Theme, b []byte) {
		v := yamlObj(t, b)
		eq(t, "activeBorderColor", at(t, v, "gui", "theme", "activeBorderColor"), []any{hex(t, m, "ui.accent"), "bold"})
		eq(t, "selectedLineBgColor", at(t, v, "gui", "theme", "selectedLineBgColor"), []any{hex(t, m, "ui.selection")})
	},
	"btop": func(t *testing.T, m *theme.Theme, b []byte) {
		line := regexp.MustCompile(`^theme\[([a-z_]+)\]="(#[0-9a-f]{6})"$`)
		keys := map[string]string{}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if strings.HasPrefix(l, "#") {
				continue
			}
			mm := line.FindStringSubmatch(l)
			if mm == nil {
				t.Fatalf("not a btop theme line: %q", l)
			}
			keys[mm[1]] = mm[2]
		}
		// btop's src/btop_theme.cpp Default_theme lists these keys.
		for _, k := range []string{"main_bg", "main_fg", "title", "hi_fg", "selected_bg", "selected_fg", "inactive_fg",
			"graph_text", "meter_bg", "proc_misc", "cpu_box", "mem_box", "net_box", "proc_box", "div_line",
			"temp_start", "temp_mid", "temp_end", "cpu_start", "cpu_end", "free_start", "cached_start", "available_start",
			"used_start", "download_start", "upload_start", "process_start", "process_end"} {
			if keys[k] == "" {
				t.Errorf("no theme[%s]", k)
			}
		}
		eq(t, "main_bg", keys["main_bg"], hex(t, m, "ui.background"))
	},
	"k9s": func(t *testing.T, m *theme.Theme, b []byte) {
		v := yamlObj(t, b)
		eq(t, "body.bgColor", at(t, v, "k9s", "body", "bgColor"), hex(t, m, "ui.background"))
		eq(t, "table.cursorBgColor", at(t, v, "k9s", "views", "table", "cursorBgColor"), hex(t, m, "ui.selection"))
		at(t, v, "k9s", "frame", "status", "errorColor")
		at(t, v, "k9s", "dialog", "buttonFocusBgColor")
	},
	"yazi": func(t *testing.T, m *theme.Theme, b []byte) {
		v := tomlObj(t, b)
		eq(t, "mgr.hovered.bg", at(t, v, "mgr", "hovered", "bg"), hex(t, m, "ui.selection"))
		for _, s := range []string{"tabs", "mode", "status", "input", "pick", "tasks", "help", "filetype"} {
			at(t, v, s)
		}
		if r := at(t, v, "filetype", "rules").([]any); len(r) < 5 {
			t.Errorf("%d filetype rules", len(r))
		}
	},
	"zellij": func(t *testing.T, m *theme.Theme, b []byte) {
		// KDL: themes { "slug" { key "#hex" … } }
		re := regexp.MustCompile(`(?s)^// [^\n]*\nthemes \{\n    ("[^"\\]*") \{\n((?:        [a-z]+ "#[0-9a-f]{6}"\n)+)    \}\n\}\n$`)
		mm := re.FindSubmatch(b)
		if mm == nil {
			t.Fatalf("not the KDL theme layout:\n%s", b)
		}
		eq(t, "theme name", string(mm[1]), `"`+theme.Slug(m.Name)+`"`)
		for _, k := range []string{"fg", "bg", "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white", "orange"} {
			if !strings.Contains(string(mm[2]), "        "+k+" \"#") {
				t.Errorf("no %s", k)
			}
		}
	},
	"starship": func(t *testing.T, m *theme.Theme, b []byte) {
		v := tomlObj(t, b)
		slug := theme.Slug(m.Name)
		eq(t, "palette", v["palette"], slug)
		eq(t, "accent", at(t, v, "palettes", slug, "accent"), hex(t, m, "ui.accent"))
		eq(t, "bright-white", at(t, v, "palettes", slug, "bright-white"), hex(t, m, "ansi.brightWhite"))
	},
	"gtk": func(t *testing.T, m *theme.Theme, b []byte) {
		re := regexp.MustCompile(`^@define-color ([a-z_]+) (#[0-9a-f]{6});$`)
		names := map[string]string{}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
			mm := re.FindStringSubmatch(l)
			if mm == nil {
				t.Fatalf("not a named colour: %q", l)
			}
			names[mm[1]] = mm[2]
		}
		// libadwaita's documented named colours (Styles & Appearance).
		for _, n := range []string{"accent_bg_color", "accent_fg_color", "accent_color", "destructive_bg_color", "window_bg_color",
			"window_fg_color", "view_bg_color", "view_fg_color", "headerbar_bg_color", "headerbar_fg_color", "card_bg_color",
			"dialog_bg_color", "popover_bg_color", "sidebar_bg_color", "success_color", "warning_color", "error_color"} {
			if names[n] == "" {
				t.Errorf("no @%s", n)
			}
		}
		eq(t, "window_bg_color", names["window_bg_color"], hex(t, m, "ui.background"))
	},
	"obsidian": func(t *testing.T, m *theme.Theme, b []byte) {
		s := string(b)
		if strings.Count(s, "/*") != strings.Count(s, "*/") || strings.Count(s, "/*") != 1 {
			t.Fatalf("a comment is not closed once:\n%s", s)
		}
		body := s[strings.Index(s, "*/")+2:]
		re := regexp.MustCompile(`^\n\.theme-(dark|light) \{\n((?:  --[a-z0-9-]+: #[0-9a-f]{6,8};\n)+)\}\n$`)
		mm := re.FindStringSubmatch(body)
		if mm == nil {
			t.Fatalf("not one rule of custom properties:\n%s", body)
		}
		eq(t, "selector", mm[1], m.Appearance)
		for _, p := range []string{"--background-primary: " + m.Color("ui.background").String(), "--text-normal:", "--interactive-accent:", "--code-keyword:"} {
			if !strings.Contains(mm[2], p) {
				t.Errorf("no %s", p)
			}
		}
	},
	"firefox": func(t *testing.T, m *theme.Theme, b []byte) {
		v := jsonObj(t, b)
		eq(t, "manifest_version", v["manifest_version"], 2)
		eq(t, "name", v["name"], truncate(45, m.Name))
		id := at(t, v, "browser_specific_settings", "gecko", "id").(string)
		if !regexp.MustCompile(`^[a-z0-9-]+@cdxtheme$`).MatchString(id) {
			t.Errorf("gecko id %q", id)
		}
		colors := at(t, v, "theme", "colors").(map[string]any)
		eq(t, "frame", colors["frame"], hex(t, m, "ui.surface"))
		eq(t, "toolbar_text", colors["toolbar_text"], hex(t, m, "ui.text"))
		for k, c := range colors {
			if !hexRE.MatchString(c.(string)) {
				t.Errorf("%s = %v", k, c)
			}
		}
		eq(t, "color_scheme", at(t, v, "theme", "properties", "color_scheme"), m.Appearance)
	},
	"chrome": func(t *testing.T, m *theme.Theme, b []byte) {
		v := jsonObj(t, b)
		eq(t, "manifest_version", v["manifest_version"], 3)
		eq(t, "name", v["name"], truncate(45, m.Name))
		bg := m.Seen(m.UI.Background)
		eq(t, "ntp_background", at(t, v, "theme", "colors", "ntp_background"), []any{float64(bg.R), float64(bg.G), float64(bg.B)})
		for k, c := range at(t, v, "theme", "colors").(map[string]any) {
			if a, ok := c.([]any); !ok || len(a) != 3 {
				t.Errorf("%s = %v, want [r, g, b]", k, c)
			}
		}
	},
	"terminal-app": func(t *testing.T, m *theme.Theme, b []byte) {
		d := xml.NewDecoder(bytes.NewReader(b))
		for {
			if _, err := d.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("not XML: %v", err)
			}
		}
		var pl struct {
			Dict struct {
				Items []struct {
					XMLName xml.Name
					Text    string `xml:",chardata"`
				} `xml:",any"`
			} `xml:"dict"`
		}
		if err := xml.Unmarshal(b, &pl); err != nil {
			t.Fatal(err)
		}
		vals := map[string]string{}
		items := pl.Dict.Items
		for i := 0; i+1 < len(items); i += 2 {
			if items[i].XMLName.Local != "key" {
				t.Fatalf("item %d is a %s, want a key", i, items[i].XMLName.Local)
			}
			vals[items[i].Text] = items[i+1].Text
		}
		eq(t, "name", vals["name"], m.Name)
		eq(t, "type", vals["type"], "Window Settings")
		// Each colour is an NSKeyedArchiver archive of an NSColor whose
		// NSRGB is "r g b" in 0–1.
		check := func(key string, c theme.Color) {
			arch, err := base64.StdEncoding.DecodeString(vals[key])
			if err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			for _, want := range []string{"<string>NSKeyedArchiver</string>", "<key>NSColorSpace</key>\n\t\t\t<integer>1</integer>", "<string>NSColor</string>", "<key>$top</key>"} {
				if !strings.Contains(string(arch), want) {
					t.Fatalf("%s: the archive lacks %s", key, want)
				}
			}
			mm := regexp.MustCompile(`<key>NSRGB</key>\s*<data>([^<]+)</data>`).FindSubmatch(arch)
			if mm == nil {
				t.Fatalf("%s: no NSRGB", key)
			}
			rgbText, _ := base64.StdEncoding.DecodeString(string(mm[1]))
			var r, g, bl float64
			if n, _ := fmt.Sscanf(strings.TrimSuffix(string(rgbText), "\x00"), "%g %g %g", &r, &g, &bl); n != 3 || !strings.HasSuffix(string(rgbText), "\x00") {
				t.Fatalf("%s: NSRGB %q", key, rgbText)
			}
			got := theme.Color{R: uint8(r*255 + 0.5), G: uint8(g*255 + 0.5), B: uint8(bl*255 + 0.5), A: 255}
			eq(t, key, got.Hex(), c.Hex())
		}
		check("BackgroundColor", m.Seen(m.UI.Background))
		check("TextColor", m.Seen(m.UI.Text))
		check("ANSIRedColor", m.Seen(m.ANSI[1]))
		check("ANSIBrightWhiteColor", m.Seen(m.ANSI[15]))
	},
	"slack": func(t *testing.T, m *theme.Theme, b []byte) {
		parts := strings.Split(strings.TrimSuffix(string(b), "\n"), ",")
		if len(parts) != 10 {
			t.Fatalf("%d colours, want Slack's 10: %q", len(parts), b)
		}
		for _, p := range parts {
			if !hexRE.MatchString(p) {
				t.Errorf("%q is not #rrggbb", p)
			}
		}
		eq(t, "column background", parts[0], hex(t, m, "ui.surface"))
	},
}

func TestEveryTargetIsLoadedOrCheckedAgainstItsFormat(t *testing.T) {
	th := family(t)
	ids := map[string]bool{}
	for _, mf := range Manifests() {
		ids[mf.ID] = true
		t.Run(mf.ID, func(t *testing.T) {
			chk := schemas[mf.ID]
			if _, ok := loaded[mf.ID]; ok && chk == nil {
				return // programs_test.go
			}
			if chk == nil {
				t.Fatalf("%s has neither a loader test nor a schema check", mf.ID)
			}
			files, err := Render(th, mf.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range th.Family() {
				name := strings.ReplaceAll(mf.File, "{slug}", theme.Slug(m.Name))
				b := files[name]
				if b == nil {
					t.Fatalf("no %s (have %v)", name, mapKeys(anyMap(files)))
				}
				t.Run(m.Appearance, func(t *testing.T) { chk(t, m, b) })
			}
		})
	}
	for id := range schemas {
		if !ids[id] {
			t.Errorf("schema check for %s, which is no target", id)
		}
	}
}

func anyMap(m map[string][]byte) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// A name is one line in every target: a newline in it must not start a
// line of its own (a section, a key, a command) in any file.
func TestANewlineInTheNameStartsNoLine(t *testing.T) {
	th := theme.Example()
	th.Name = "Dusk\n[evil]\nevil=1\r\n!evil\n\u2028evil2"
	for _, mf := range Manifests() {
		files, err := Render(th, mf.ID)
		if err != nil {
			t.Fatalf("%s: %v", mf.ID, err)
		}
		for name, b := range files {
			for _, l := range strings.Split(string(b), "\n") {
				l = strings.TrimSpace(l)
				// The formats moved from Go keep its one-line form, which
				// leaves U+2028 (no line end to kitty or Ghostty).
				if strings.HasPrefix(l, "[evil]") || strings.HasPrefix(l, "evil") || strings.HasPrefix(l, "!evil") || strings.Contains(l, "\r") || !mf.Replaces && strings.Contains(l, "\u2028") {
					t.Errorf("%s %s: the name broke a line: %q", mf.ID, name, l)
				}
			}
		}
	}
}
