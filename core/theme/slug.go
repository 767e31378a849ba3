package theme

import (
	"strings"
	"unicode"

	"cdxtheme/core/colour"
)

// Slug is the theme name as a file-name-safe, lower-case, dash-separated
// word ("Harbour Night" → "harbour-night"); "theme" when nothing is left.
func Slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	s := b.String()
	if len(s) > 64 {
		s = strings.TrimRight(s[:64], "-")
	}
	if s == "" {
		return "theme"
	}
	return s
}

// readable picks whichever of a and b reads better on bg (e.g. the label
// colour on an accent-coloured button).
func readable(bg, a, b Color) Color {
	if colour.Ratio(a, bg) >= colour.Ratio(b, bg) {
		return a
	}
	return b
}

// seen is a role as it appears on the theme's background: terminals cannot
// draw alpha, so translucent colours are flattened for them.
func (t *Theme) seen(c Color) Color { return c.Over(t.UI.Background.Over(Color{A: 255})) }

// Seen is c as it appears on the theme's background: what a program that
// cannot draw alpha shows.
func (t *Theme) Seen(c Color) Color { return t.seen(c) }
