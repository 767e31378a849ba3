package theme

import (
	"math"
	"strings"
)

// RolePaths lists every colour role of a theme by path, in document order:
// "ui.background" … "syntax.keyword" … "ansi.black" … "ansi.brightWhite".
// Contrast checks, importers and checkpoint comparisons use these names.
func RolePaths() []string {
	out := make([]string, 0, len(UIRoles)+len(SyntaxRoles)+len(ANSINames))
	for _, r := range UIRoles {
		out = append(out, "ui."+r)
	}
	for _, r := range SyntaxRoles {
		out = append(out, "syntax."+r)
	}
	for _, n := range ANSINames {
		out = append(out, "ansi."+n)
	}
	return out
}

// Ref returns a pointer to the colour at a role path, nil if unknown.
func (t *Theme) Ref(path string) *Color {
	group, role, ok := strings.Cut(path, ".")
	if !ok {
		return nil
	}
	switch group {
	case "ui":
		return t.UI.Role(role)
	case "syntax":
		return t.Syntax.Role(role)
	case "ansi":
		for i, n := range ANSINames {
			if n == role {
				return &t.ANSI[i]
			}
		}
	}
	return nil
}

// ansiPath is the role path of ANSI colour i.
func ansiPath(i int) string { return "ansi." + ANSINames[i] }

// Changed lists the role paths whose colour differs between a and b, in
// document order; a nil theme differs everywhere.
func Changed(a, b *Theme) []string {
	var out []string
	for _, p := range RolePaths() {
		if a == nil || b == nil || *a.Ref(p) != *b.Ref(p) {
			out = append(out, p)
		}
	}
	return out
}

// Mix blends a toward b by f (0 keeps a, 1 gives b), channel by channel
// in sRGB, as designers' "mix" tools do; the result is opaque.
func Mix(a, b Color, f float64) Color {
	ch := func(x, y uint8) uint8 {
		return uint8(math.Round(float64(x)*(1-f) + float64(y)*f))
	}
	return Color{R: ch(a.R, b.R), G: ch(a.G, b.G), B: ch(a.B, b.B), A: 255}
}

// IsDark reports whether a background reads as dark (relative luminance
// below the mid-point where black and white text contrast equally).
func IsDark(bg Color) bool { return Luminance(bg.Over(Color{A: 255})) < 0.179 }
