package targets

import (
	"fmt"

	"cdxtheme/core/theme"
)

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
func ITermColors(t *theme.Theme) map[string]theme.SourceColor {
	entries := append([]struct{ key, role string }{}, itermExport...)
	for i := range t.ANSI {
		entries = append(entries, struct{ key, role string }{fmt.Sprintf("Ansi %d Color", i), theme.ANSIPath(i)})
	}
	m := map[string]theme.SourceColor{}
	for _, e := range entries {
		role := t.Color(e.role)
		if src, ok := t.Spaces[e.role]; ok && src.SRGB == role && len(src.Components) == 4 {
			m[e.key] = src
			continue
		}
		c := t.Seen(role)
		m[e.key] = theme.SourceColor{Space: "sRGB", Components: []float64{f01(c.R), f01(c.G), f01(c.B), 1}, SRGB: c}
	}
	if t.Targets != nil {
		for k, src := range t.Targets.ITerm2 {
			m[k] = src
		}
	}
	return m
}

func f01(v uint8) float64 { return float64(v) / 255 }
