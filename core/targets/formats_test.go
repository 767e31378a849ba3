package targets

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
	"gopkg.in/yaml.v3"

	"cdxtheme/core/theme"
)

// The new formats read back by real parsers of their format (go-toml,
// yaml.v3); the real programs that read them are in programs_test.go.

func TestSchemesParseBack(t *testing.T) {
	for _, system := range []string{"base16", "base24"} {
		t.Run(system, func(t *testing.T) {
			forSamples(t, system, func(t *testing.T, th *theme.Theme, files map[string][]byte) {
				var doc struct {
					System, Name, Author, Variant, Slug string
					Palette                             map[string]string
				}
				if err := yaml.Unmarshal(files[theme.Slug(th.Name)+".yaml"], &doc); err != nil {
					t.Fatal(err)
				}
				if doc.System != system || doc.Name != th.Name || doc.Variant != th.Appearance || doc.Slug != theme.Slug(th.Name) || doc.Author == "" {
					t.Errorf("header = %+v", doc)
				}
				n := map[string]int{"base16": 16, "base24": 24}[system]
				if len(doc.Palette) != n {
					t.Errorf("%d slots, want %d", len(doc.Palette), n)
				}
				hex := regexp.MustCompile(`^#[0-9a-f]{6}$`)
				for k, v := range doc.Palette {
					if !hex.MatchString(v) {
						t.Errorf("%s = %q, want #rrggbb", k, v)
					}
				}
				u, s := th.UI, th.Syntax
				want := map[string]theme.Color{
					"base00": u.Background, "base01": u.Surface, "base02": u.Selection, "base03": s.Comment,
					"base04": u.MutedText, "base05": u.Text, "base08": u.Error, "base09": s.Number,
					"base0A": s.Type, "base0B": s.String, "base0D": s.Function, "base0E": s.Keyword,
				}
				if system == "base24" {
					for k, i := range map[string]int{"base12": 9, "base13": 11, "base14": 10, "base15": 14, "base16": 12, "base17": 13} {
						want[k] = th.ANSI[i]
					}
				}
				for k, c := range want {
					want[k] = th.Seen(c)
				}
				compare(t, doc.Palette, want, false)
			})
		})
	}
}

func TestHelixParsesBack(t *testing.T) {
	forSamples(t, "helix", func(t *testing.T, th *theme.Theme, files map[string][]byte) {
		var doc map[string]any
		if err := toml.Unmarshal(files[theme.Slug(th.Name)+".toml"], &doc); err != nil {
			t.Fatal(err)
		}
		palette, _ := doc["palette"].(map[string]any)
		if len(palette) == 0 {
			t.Fatal("no [palette]")
		}
		// What Helix resolves each scope's fg/bg to; every name must be in
		// the palette (Helix falls back to defaults for unknown names).
		got := colourMap{}
		for scope, v := range doc {
			m, ok := v.(map[string]any)
			if !ok || scope == "palette" {
				continue
			}
			for _, attr := range []string{"fg", "bg"} {
				name, ok := m[attr].(string)
				if !ok {
					continue
				}
				c, ok := palette[name].(string)
				if !ok {
					t.Errorf("%s.%s = %q is not in the palette", scope, attr, name)
				}
				got[scope+"."+attr] = c
			}
		}
		u, s := th.UI, th.Syntax
		want := map[string]theme.Color{
			"ui.background.bg": u.Background, "ui.text.fg": u.Text, "ui.selection.primary.bg": u.Selection,
			"ui.selection.bg": th.Color("editor.inactiveSelection"), "ui.cursorline.primary.bg": th.Color("editor.lineHighlight"),
			"ui.virtual.inlay-hint.fg": th.Color("editor.inlayHint"), "info.fg": th.Color("diagnostic.info"), "hint.fg": th.Color("diagnostic.hint"),
			"ui.statusline.insert.bg": u.Success, "markup.heading.fg": th.Color("syntax.heading"),
			"ui.linenr.fg": u.MutedText, "ui.statusline.bg": u.Surface, "ui.window.fg": u.Border,
			"ui.cursor.primary.bg": th.Color("terminal.cursor"), "error.fg": u.Error, "warning.fg": u.Warning, "diff.plus.fg": u.Success,
			"comment.fg": s.Comment, "keyword.fg": s.Keyword, "string.fg": s.String, "function.fg": s.Function,
			"type.fg": s.Type, "constant.numeric.fg": s.Number, "constant.fg": s.Constant,
			"variable.fg": s.Variable, "operator.fg": s.Operator,
		}
		for k, c := range want {
			want[k] = th.Seen(c)
		}
		compare(t, got, want, false)
	})
}

func TestWezTermParsesBack(t *testing.T) {
	forSamples(t, "wezterm", func(t *testing.T, th *theme.Theme, files map[string][]byte) {
		var doc struct {
			Metadata struct{ Name, Author string }
			Colors   struct {
				Foreground, Background string
				CursorBg               string `toml:"cursor_bg"`
				SelectionBg            string `toml:"selection_bg"`
				Ansi, Brights          []string
				TabBar                 struct {
					Background string
				} `toml:"tab_bar"`
			}
		}
		if err := toml.Unmarshal(files[theme.Slug(th.Name)+".toml"], &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Metadata.Name != th.Name {
			t.Errorf("metadata.name = %q", doc.Metadata.Name)
		}
		c := doc.Colors
		got := colourMap{"foreground": c.Foreground, "background": c.Background, "cursor_bg": c.CursorBg,
			"selection_bg": c.SelectionBg, "tab_bar.background": c.TabBar.Background}
		if len(c.Ansi) != 8 || len(c.Brights) != 8 {
			t.Fatalf("ansi %d, brights %d", len(c.Ansi), len(c.Brights))
		}
		for i := 0; i < 8; i++ {
			got[fmt.Sprintf("ansi[%d]", i)], got[fmt.Sprintf("ansi[%d]", i+8)] = c.Ansi[i], c.Brights[i]
		}
		u := th.UI
		want := ansiWant(th, func(i int) string { return fmt.Sprintf("ansi[%d]", i) })
		for k, v := range map[string]theme.Color{"foreground": u.Text, "background": u.Background, "cursor_bg": th.Color("terminal.cursor"),
			"selection_bg": u.Selection, "tab_bar.background": u.Surface} {
			want[k] = th.Seen(v)
		}
		compare(t, got, want, false)
	})
}

// footINI reads foot.ini key=value lines per [section].
func footINI(b []byte) map[string]string {
	out := map[string]string{}
	section := ""
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "[") {
			section = strings.Trim(l, "[]")
			continue
		}
		if k, v, ok := strings.Cut(l, "="); ok && !strings.HasPrefix(l, "#") {
			out[section+"."+k] = v
		}
	}
	return out
}
