package theme

import (
	"fmt"
	"strconv"
	"strings"
)

// Terminal formats: none of these programs draws alpha in its palette, so
// every colour is flattened onto the theme background (t.seen).

// oneLine makes a theme name safe for a comment line.
func OneLine(s string) string {
	return strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)), " ")
}

// dimPath is the role path of the faint (SGR 2) form of ANSI colour i
// (0–7).
func DimPath(i int) string {
	n := ANSINames[i]
	return "terminal.dim" + strings.ToUpper(n[:1]) + n[1:]
}

// itermExport: the colour entries of an .itermcolors file (and of an
// iTerm2 dynamic profile) by iTerm2's key, and the role each is written
// from.
var itermExport = []struct{ key, role string }{
	{"Background Color", "ui.background"},
	{"Foreground Color", "ui.text"},
	{"Bold Color", "terminal.bold"},
	{"Selection Color", "ui.selection"},
	{"Selected Text Color", "terminal.selectionText"},
	{"Cursor Color", "terminal.cursor"},
	{"Cursor Text Color", "terminal.cursorText"},
	{"Cursor Guide Color", "ui.surface"},
	{"Link Color", "terminal.link"},
	{"Badge Color", "ui.accent"},
}

// ITermColors are the colour entries of an .itermcolors file and of
// Apply's iTerm2 dynamic profile, by iTerm2's key, each in the space it is
// to be written in: a role's colour as sRGB, or, while the role still
// equals what its source converted to, the source's own space and
// components (spaces); then the targets.iterm2 overrides.
func ITermColors(t *Theme) map[string]SourceColor {
	entries := append([]struct{ key, role string }{}, itermExport...)
	for i := range t.ANSI {
		entries = append(entries, struct{ key, role string }{fmt.Sprintf("Ansi %d Color", i), ANSIPath(i)})
	}
	m := map[string]SourceColor{}
	for _, e := range entries {
		role := t.Color(e.role)
		if src, ok := t.Spaces[e.role]; ok && src.SRGB == role && len(src.Components) == 4 {
			m[e.key] = src
			continue
		}
		c := t.seen(role)
		m[e.key] = SourceColor{Space: "sRGB", Components: []float64{f01(c.R), f01(c.G), f01(c.B), 1}, SRGB: c}
	}
	if t.Targets != nil {
		for k, src := range t.Targets.ITerm2 {
			m[k] = src
		}
	}
	return m
}

func f01(v uint8) float64 { return float64(v) / 255 }

func component(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
