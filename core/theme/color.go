package theme

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Color is an sRGB colour with alpha. Themes write it as #rrggbb or
// #rrggbbaa; A is 255 for the six-digit form.
type Color struct {
	R, G, B, A uint8
}

// ParseColor reads "#rrggbb" or "#rrggbbaa" (any letter case).
func ParseColor(s string) (Color, error) {
	if len(s) != 7 && len(s) != 9 || s[0] != '#' {
		return Color{}, fmt.Errorf("%q is not a colour (want #rrggbb)", s)
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return Color{}, fmt.Errorf("%q is not a colour (want #rrggbb)", s)
	}
	if len(s) == 7 {
		return Color{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 255}, nil
	}
	return Color{R: uint8(v >> 24), G: uint8(v >> 16), B: uint8(v >> 8), A: uint8(v)}, nil
}

// Hex is the colour as #rrggbb, ignoring alpha.
func (c Color) Hex() string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// String is #rrggbb, or #rrggbbaa when the colour is translucent.
func (c Color) String() string {
	if c.A == 255 {
		return c.Hex()
	}
	return fmt.Sprintf("#%02x%02x%02x%02x", c.R, c.G, c.B, c.A)
}

// Opaque reports whether the colour has no transparency.
func (c Color) Opaque() bool { return c.A == 255 }

// Over composites c onto bg (bg's own alpha is ignored): what a viewer sees
// when c is painted on an opaque bg. Terminals cannot draw alpha, so their
// exporters use this too.
func (c Color) Over(bg Color) Color {
	if c.A == 255 {
		return c
	}
	a := float64(c.A) / 255
	mix := func(f, b uint8) uint8 {
		return uint8(float64(f)*a + float64(b)*(1-a) + 0.5)
	}
	return Color{R: mix(c.R, bg.R), G: mix(c.G, bg.G), B: mix(c.B, bg.B), A: 255}
}

// MarshalJSON writes the colour as a hex string.
func (c Color) MarshalJSON() ([]byte, error) {
	return []byte(`"` + c.String() + `"`), nil
}

// UnmarshalJSON reads a hex string.
func (c *Color) UnmarshalJSON(b []byte) error {
	s, err := strconv.Unquote(string(b))
	if err != nil {
		return fmt.Errorf("colour: want a string, got %s", b)
	}
	v, err := ParseColor(s)
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// parseLooseColor reads the colour spellings theme files use: #rgb, #rgba,
// #rrggbb, #rrggbbaa, 0xrrggbb (Alacritty), and bare rrggbb (base16, foot,
// Ghostty).
func parseLooseColor(s string) (Color, error) {
	s = strings.TrimSpace(s)
	h := s
	switch {
	case strings.HasPrefix(h, "#"):
		h = h[1:]
	case strings.HasPrefix(h, "0x") || strings.HasPrefix(h, "0X"):
		h = h[2:]
	}
	if !isHex(h) {
		return Color{}, fmt.Errorf("%q is not a hex colour (want #rrggbb)", clip(s, 40))
	}
	switch len(h) {
	case 3, 4:
		var x strings.Builder
		for _, r := range h {
			x.WriteRune(r)
			x.WriteRune(r)
		}
		h = x.String()
	case 6, 8:
	default:
		return Color{}, fmt.Errorf("%q is not a hex colour (want #rrggbb)", clip(s, 40))
	}
	v, _ := strconv.ParseUint(h, 16, 32)
	if len(h) == 6 {
		return Color{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 255}, nil
	}
	return Color{R: uint8(v >> 24), G: uint8(v >> 16), B: uint8(v >> 8), A: uint8(v)}, nil
}

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

// clip shortens s for a message to about n bytes, on a character boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + fmt.Sprintf("… (%d bytes more)", len(s)-i)
}
