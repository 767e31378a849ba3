package targets

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"cdxtheme/core/theme"
)

// Each exporter's output is read back by a real parser of its format and
// compared, colour by colour, with the theme it came from. The expected
// mapping is written out here independently of the exporters.

type colourMap map[string]string // key in the exported file → colour as written there

func compare(t *testing.T, got colourMap, want map[string]theme.Color, alpha bool) {
	t.Helper()
	for k, c := range want {
		w := c.Hex()
		if alpha {
			w = c.String()
		}
		g, ok := got[k]
		if !ok {
			t.Errorf("%s missing", k)
			continue
		}
		if !strings.EqualFold(g, w) {
			t.Errorf("%s = %s, want %s", k, g, w)
		}
	}
}

func ansiWant(th *theme.Theme, key func(i int) string) map[string]theme.Color {
	m := map[string]theme.Color{}
	for i, c := range th.ANSI {
		m[key(i)] = th.Seen(c)
	}
	return m
}

func forSamples(t *testing.T, format string, fn func(t *testing.T, th *theme.Theme, files map[string][]byte)) {
	for name, th := range sampleThemes(t) {
		t.Run(name, func(t *testing.T) {
			files, err := Render(th, format)
			if err != nil {
				t.Fatal(err)
			}
			fn(t, th, files)
		})
	}
}

func TestVSCodeParsesBack(t *testing.T) {
	forSamples(t, "vscode", func(t *testing.T, th *theme.Theme, files map[string][]byte) {
		var pkg struct {
			Name, Publisher, Version string
			Contributes              struct {
				Themes []struct{ Label, UITheme, Path string }
			}
		}
		if err := json.Unmarshal(files["package.json"], &pkg); err != nil {
			t.Fatal(err)
		}
		if len(pkg.Contributes.Themes) != 1 {
			t.Fatalf("contributes.themes = %+v", pkg.Contributes.Themes)
		}
		ct := pkg.Contributes.Themes[0]
		wantUI := map[string]string{"dark": "vs-dark", "light": "vs"}[th.Appearance]
		if ct.Label != th.Name || ct.UITheme != wantUI || pkg.Name != theme.Slug(th.Name) || pkg.Publisher == "" || pkg.Version == "" {
			t.Errorf("package.json = %+v", pkg)
		}
		themeFile, ok := files[strings.TrimPrefix(ct.Path, "./")]
		if !ok {
			t.Fatalf("contributes path %s is not among the files", ct.Path)
		}
		var vt struct {
			Name, Type  string
			Colors      colourMap
			TokenColors []struct {
				Scope    []string
				Settings struct{ Foreground, FontStyle string }
			}
		}
		if err := json.Unmarshal(themeFile, &vt); err != nil {
			t.Fatal(err)
		}
		if vt.Type != th.Appearance || vt.Name != th.Name {
			t.Errorf("theme type/name = %s/%s", vt.Type, vt.Name)
		}
		u := th.UI
		want := map[string]theme.Color{
			"editor.background": u.Background, "editor.foreground": u.Text, "foreground": u.Text,
			"editor.selectionBackground": u.Selection, "sideBar.background": u.Surface,
			"editorLineNumber.foreground": u.MutedText, "focusBorder": u.Accent, "editorError.foreground": u.Error,
			"editorWarning.foreground": u.Warning, "gitDecoration.addedResourceForeground": u.Success,
			"widget.border":      u.Border,
			"terminal.ansiBlack": th.ANSI[0], "terminal.ansiMagenta": th.ANSI[5],
			"terminal.ansiBrightBlack": th.ANSI[8], "terminal.ansiBrightWhite": th.ANSI[15],
		}
		compare(t, vt.Colors, want, true)
		scope := map[string]string{}
		for _, tc := range vt.TokenColors {
			for _, s := range tc.Scope {
				scope[s] = tc.Settings.Foreground
			}
		}
		compare(t, scope, map[string]theme.Color{
			"keyword": th.Syntax.Keyword, "string": th.Syntax.String, "comment": th.Syntax.Comment,
			"entity.name.function": th.Syntax.Function, "entity.name.type": th.Syntax.Type,
			"constant.numeric": th.Syntax.Number, "constant.language": th.Syntax.Constant,
			"variable": th.Syntax.Variable, "keyword.operator": th.Syntax.Operator,
		}, true)
	})
}

func TestZedParsesBack(t *testing.T) {
	forSamples(t, "zed", func(t *testing.T, th *theme.Theme, files map[string][]byte) {
		var fam struct {
			Schema string `json:"$schema"`
			Name   string
			Themes []struct {
				Name, Appearance string
				Style            map[string]json.RawMessage
			}
		}
		if err := json.Unmarshal(files[theme.Slug(th.Name)+".json"], &fam); err != nil {
			t.Fatal(err)
		}
		if fam.Schema != "https://zed.dev/schema/themes/v0.2.0.json" || len(fam.Themes) != 1 {
			t.Fatalf("family = %s with %d themes", fam.Schema, len(fam.Themes))
		}
		z := fam.Themes[0]
		if z.Appearance != th.Appearance || z.Name != th.Name {
			t.Errorf("appearance/name = %s/%s", z.Appearance, z.Name)
		}
		got := colourMap{}
		for k, v := range z.Style {
			var s string
			if json.Unmarshal(v, &s) == nil {
				got[k] = s
			}
		}
		var syntax map[string]struct{ Color string }
		if err := json.Unmarshal(z.Style["syntax"], &syntax); err != nil {
			t.Fatal(err)
		}
		for k, v := range syntax {
			got["syntax."+k] = v.Color
		}
		var players []struct{ Cursor, Selection string }
		json.Unmarshal(z.Style["players"], &players)
		if len(players) != 8 {
			t.Fatalf("players = %s, want Zed's 8", z.Style["players"])
		}
		got["players.selection"], got["players.cursor"] = players[0].Selection, players[0].Cursor
		u, s := th.UI, th.Syntax
		want := map[string]theme.Color{
			"background": u.Background, "editor.background": u.Background, "text": u.Text,
			"text.muted": u.MutedText, "text.accent": u.Accent, "border": u.Border, "surface.background": u.Surface,
			"error": u.Error, "warning": u.Warning, "success": u.Success,
			"players.selection": u.Selection, "players.cursor": th.Color("terminal.cursor"),
			"syntax.keyword": s.Keyword, "syntax.string": s.String, "syntax.comment": s.Comment,
			"syntax.function": s.Function, "syntax.type": s.Type, "syntax.number": s.Number,
			"syntax.constant": s.Constant, "syntax.variable": s.Variable, "syntax.operator": s.Operator,
		}
		names := []string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"}
		for i, n := range names {
			want["terminal.ansi."+n] = th.ANSI[i]
			want["terminal.ansi.bright_"+n] = th.ANSI[i+8]
		}
		compare(t, got, want, true)
	})
}

func TestAlacrittyParsesBack(t *testing.T) {
	forSamples(t, "alacritty", func(t *testing.T, th *theme.Theme, files map[string][]byte) {
		var doc struct {
			Colors struct {
				Primary, Cursor, Selection map[string]string
				Normal, Bright, Dim        map[string]string
			}
		}
		if err := toml.Unmarshal(files[theme.Slug(th.Name)+".toml"], &doc); err != nil {
			t.Fatal(err)
		}
		got := colourMap{}
		add := func(prefix string, m map[string]string) {
			for k, v := range m {
				got[prefix+k] = v
			}
		}
		c := doc.Colors
		add("primary.", c.Primary)
		add("cursor.", c.Cursor)
		add("selection.", c.Selection)
		add("normal.", c.Normal)
		add("bright.", c.Bright)
		add("dim.", c.Dim)
		u := th.UI
		want := map[string]theme.Color{
			"primary.background": th.Seen(u.Background), "primary.foreground": th.Seen(u.Text),
			"cursor.cursor": th.Seen(th.Color("terminal.cursor")), "cursor.text": th.Seen(th.Color("terminal.cursorText")),
			"selection.background": th.Seen(u.Selection), "selection.text": th.Seen(th.Color("terminal.selectionText")),
			"primary.dim_foreground": th.Seen(th.Color("terminal.dimForeground")), "primary.bright_foreground": th.Seen(th.Color("terminal.bold")),
		}
		names := []string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"}
		for k, v := range ansiWant(th, func(i int) string {
			if i < 8 {
				return "normal." + names[i]
			}
			return "bright." + names[i-8]
		}) {
			want[k] = v
		}
		for i, n := range names {
			want["dim."+n] = th.Seen(th.Color(theme.DimPath(i)))
		}
		compare(t, got, want, false)
	})
}

// keyValues parses "key<sep>value" lines, skipping blanks and # comments.
func keyValues(t *testing.T, b []byte, sep *regexp.Regexp) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kv := sep.Split(line, 2)
		if len(kv) != 2 {
			t.Errorf("line %d %q is not key/value", n, line)
			continue
		}
		out[kv[0]] = append(out[kv[0]], kv[1])
	}
	return out
}

func TestKittyParsesBack(t *testing.T) {
	forSamples(t, "kitty", func(t *testing.T, th *theme.Theme, files map[string][]byte) {
		kv := keyValues(t, files[theme.Slug(th.Name)+".conf"], regexp.MustCompile(`\s+`))
		got := colourMap{}
		for k, v := range kv {
			got[k] = v[len(v)-1]
		}
		u := th.UI
		want := map[string]theme.Color{
			"background": th.Seen(u.Background), "foreground": th.Seen(u.Text), "cursor": th.Seen(th.Color("terminal.cursor")),
			"cursor_text_color": th.Seen(th.Color("terminal.cursorText")), "url_color": th.Seen(th.Color("terminal.link")),
			"selection_background": th.Seen(u.Selection), "selection_foreground": th.Seen(th.Color("terminal.selectionText")),
			"inactive_border_color": th.Seen(u.Border),
		}
		for k, v := range ansiWant(th, func(i int) string { return fmt.Sprintf("color%d", i) }) {
			want[k] = v
		}
		compare(t, got, want, false)
		if !bytes.Contains(files[theme.Slug(th.Name)+".conf"], []byte("## name: "+th.Name+"\n")) {
			t.Error("kitty theme lacks the '## name:' header that `kitten themes` lists")
		}
	})
}

func TestGhosttyParsesBack(t *testing.T) {
	forSamples(t, "ghostty", func(t *testing.T, th *theme.Theme, files map[string][]byte) {
		kv := keyValues(t, files[theme.Slug(th.Name)], regexp.MustCompile(`\s*=\s*`))
		got := colourMap{}
		for k, v := range kv {
			got[k] = v[len(v)-1]
		}
		for _, p := range kv["palette"] {
			i, c, ok := strings.Cut(p, "=")
			if !ok {
				t.Errorf("palette entry %q", p)
			}
			got["palette "+i] = c
		}
		if len(kv["palette"]) != 16 {
			t.Errorf("%d palette entries", len(kv["palette"]))
		}
		u := th.UI
		want := map[string]theme.Color{
			"background": th.Seen(u.Background), "foreground": th.Seen(u.Text), "cursor-color": th.Seen(th.Color("terminal.cursor")),
			"cursor-text": th.Seen(th.Color("terminal.cursorText")), "bold-color": th.Seen(th.Color("terminal.bold")),
			"selection-background": th.Seen(u.Selection), "selection-foreground": th.Seen(th.Color("terminal.selectionText")),
		}
		for k, v := range ansiWant(th, func(i int) string { return fmt.Sprintf("palette %d", i) }) {
			want[k] = v
		}
		compare(t, got, want, false)
	})
}

func TestWindowsTerminalParsesBack(t *testing.T) {
	forSamples(t, "windows-terminal", func(t *testing.T, th *theme.Theme, files map[string][]byte) {
		var got colourMap
		if err := json.Unmarshal(files[theme.Slug(th.Name)+".json"], &got); err != nil {
			t.Fatal(err)
		}
		if got["name"] != th.Name {
			t.Errorf("name = %q", got["name"])
		}
		u := th.UI
		want := map[string]theme.Color{
			"background": th.Seen(u.Background), "foreground": th.Seen(u.Text),
			"cursorColor": th.Seen(th.Color("terminal.cursor")), "selectionBackground": th.Seen(u.Selection),
		}
		names := []string{"black", "red", "green", "yellow", "blue", "purple", "cyan", "white",
			"brightBlack", "brightRed", "brightGreen", "brightYellow", "brightBlue", "brightPurple", "brightCyan", "brightWhite"}
		for k, v := range ansiWant(th, func(i int) string { return names[i] }) {
			want[k] = v
		}
		compare(t, got, want, false)
		if len(got) != 1+4+16 {
			t.Errorf("scheme has %d keys, want 21: %v", len(got), got)
		}
	})
}

// plistValue is a minimal reader for the plist subset .itermcolors uses:
// dict, key, real, string.
type plistValue struct {
	dict map[string]plistValue
	real float64
	str  string
}

func readPlist(t *testing.T, b []byte) map[string]plistValue {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	var readValue func(start xml.StartElement) plistValue
	readValue = func(start xml.StartElement) plistValue {
		switch start.Name.Local {
		case "dict":
			d := map[string]plistValue{}
			var key string
			for {
				tok, err := dec.Token()
				if err != nil {
					t.Fatalf("plist: %v", err)
				}
				switch el := tok.(type) {
				case xml.StartElement:
					if el.Name.Local == "key" {
						var k string
						if err := dec.DecodeElement(&k, &el); err != nil {
							t.Fatal(err)
						}
						key = k
						continue
					}
					d[key] = readValue(el)
				case xml.EndElement:
					return plistValue{dict: d}
				}
			}
		case "real":
			var s string
			if err := dec.DecodeElement(&s, &start); err != nil {
				t.Fatal(err)
			}
			f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil {
				t.Fatalf("plist real %q: %v", s, err)
			}
			return plistValue{real: f}
		case "string":
			var s string
			if err := dec.DecodeElement(&s, &start); err != nil {
				t.Fatal(err)
			}
			return plistValue{str: s}
		}
		t.Fatalf("plist: unexpected <%s>", start.Name.Local)
		return plistValue{}
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			t.Fatal("plist: no top-level dict")
		}
		if err != nil {
			t.Fatalf("plist: %v", err)
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "dict" {
			return readValue(el).dict
		}
	}
}

func TestITermParsesBack(t *testing.T) {
	forSamples(t, "iterm2", func(t *testing.T, th *theme.Theme, files map[string][]byte) {
		top := readPlist(t, files[theme.Slug(th.Name)+".itermcolors"])
		got := colourMap{}
		for k, v := range top {
			if v.dict["Color Space"].str != "sRGB" {
				t.Errorf("%s: colour space %q", k, v.dict["Color Space"].str)
			}
			ch := func(name string) uint8 {
				f := v.dict[name+" Component"].real
				if f < 0 || f > 1 {
					t.Errorf("%s %s component %v outside 0..1", k, name, f)
				}
				return uint8(math.Round(f * 255))
			}
			got[k] = theme.Color{R: ch("Red"), G: ch("Green"), B: ch("Blue"), A: 255}.Hex()
		}
		u := th.UI
		want := map[string]theme.Color{
			"Background Color": th.Seen(u.Background), "Foreground Color": th.Seen(u.Text),
			"Selection Color": th.Seen(u.Selection), "Cursor Color": th.Seen(th.Color("terminal.cursor")),
			"Cursor Text Color": th.Seen(th.Color("terminal.cursorText")), "Selected Text Color": th.Seen(th.Color("terminal.selectionText")),
			"Bold Color": th.Seen(th.Color("terminal.bold")), "Link Color": th.Seen(th.Color("terminal.link")),
		}
		for k, v := range ansiWant(th, func(i int) string { return fmt.Sprintf("Ansi %d Color", i) }) {
			want[k] = v
		}
		compare(t, got, want, false)
	})
}

func TestCSSParsesBack(t *testing.T) {
	decl := regexp.MustCompile(`^\s*(--[a-z0-9-]+|color-scheme)\s*:\s*([^;]+);\s*$`)
	forSamples(t, "css", func(t *testing.T, th *theme.Theme, files map[string][]byte) {
		css := string(files[theme.Slug(th.Name)+".css"])
		start, end := strings.Index(css, ":root {"), strings.LastIndex(css, "}")
		if start < 0 || end < start {
			t.Fatalf("no :root block:\n%s", css)
		}
		got := colourMap{}
		for _, line := range strings.Split(strings.TrimSpace(css[start+len(":root {"):end]), "\n") {
			m := decl.FindStringSubmatch(line)
			if m == nil {
				t.Errorf("not a declaration: %q", line)
				continue
			}
			got[m[1]] = m[2]
		}
		if got["color-scheme"] != th.Appearance {
			t.Errorf("color-scheme = %q", got["color-scheme"])
		}
		u, s := th.UI, th.Syntax
		want := map[string]theme.Color{
			"--cdx-ui-background": u.Background, "--cdx-ui-surface": u.Surface, "--cdx-ui-text": u.Text,
			"--cdx-ui-muted-text": u.MutedText, "--cdx-ui-accent": u.Accent, "--cdx-ui-border": u.Border,
			"--cdx-ui-selection": u.Selection, "--cdx-ui-error": u.Error, "--cdx-ui-warning": u.Warning,
			"--cdx-ui-success":     u.Success,
			"--cdx-syntax-keyword": s.Keyword, "--cdx-syntax-string": s.String, "--cdx-syntax-comment": s.Comment,
			"--cdx-syntax-function": s.Function, "--cdx-syntax-type": s.Type, "--cdx-syntax-number": s.Number,
			"--cdx-syntax-constant": s.Constant, "--cdx-syntax-variable": s.Variable, "--cdx-syntax-operator": s.Operator,
			"--cdx-ansi-black": th.ANSI[0], "--cdx-ansi-bright-magenta": th.ANSI[13], "--cdx-ansi-bright-white": th.ANSI[15],
		}
		for k, c := range th.Palette {
			want[CSSVar("palette", k)] = c
		}
		compare(t, got, want, true)
	})
}

func TestCSSVar(t *testing.T) {
	tests := []struct{ group, role, want string }{
		{"ui", "mutedText", "--cdx-ui-muted-text"},
		{"ansi", "brightBlack", "--cdx-ansi-bright-black"},
		{"palette", "sea green", "--cdx-palette-sea-green"},
		{"palette", "Tide", "--cdx-palette-tide"},
		{"palette", "deep_blue-2", "--cdx-palette-deep-blue-2"},
		{"palette", "a;b}c", "--cdx-palette-a-b-c"},
	}
	for _, tt := range tests {
		if got := CSSVar(tt.group, tt.role); got != tt.want {
			t.Errorf("CSSVar(%q, %q) = %q, want %q", tt.group, tt.role, got, tt.want)
		}
	}
}
