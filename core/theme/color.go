package theme

import "cdxtheme/core/colour"

// The colour maths is core/colour's; the model names its types as before.
type (
	// Color is an sRGB colour with alpha (colour.Color).
	Color = colour.Color
	// OKLCH is a colour in Oklab's polar form (colour.OKLCH).
	OKLCH = colour.OKLCH
)

// ParseColor reads "#rrggbb" or "#rrggbbaa" (any letter case).
func ParseColor(s string) (Color, error) { return colour.Parse(s) }

// ToOKLCH converts the colour's RGB (alpha is not part of it).
func ToOKLCH(c Color) OKLCH { return colour.ToOKLCH(c) }

// FromOKLCH converts back to an opaque sRGB colour, losing chroma until it
// fits.
func FromOKLCH(o OKLCH) Color { return colour.FromOKLCH(o) }

// NearestPassing moves c's OKLCH lightness to the value nearest its own
// at which ratio reaches target (colour.NearestPassing).
func NearestPassing(c Color, target float64, ratio func(Color) float64) (Color, bool) {
	return colour.NearestPassing(c, target, ratio)
}

// OKLab is the colour's Oklab coordinates.
func OKLab(c Color) (l, a, b float64) { return colour.OKLab(c) }

// DeltaE is the distance of two colours in Oklab, scaled by 100.
func DeltaE(x, y Color) float64 { return colour.DeltaE(x, y) }

func parseLooseColor(s string) (Color, error) { return colour.ParseLoose(s) }

func isHex(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F') {
			return false
		}
	}
	return true
}
