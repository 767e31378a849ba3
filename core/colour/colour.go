// Package colour is the colour maths under the theme model: sRGB colours
// and their spellings, OKLCH and Oklab, and the colour spaces an import
// converts from. It knows nothing of roles or themes.
package colour

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Color is an sRGB colour with alpha. Themes write it as #rrggbb or
// #rrggbbaa; A is 255 for the six-digit form.
type Color struct {
	R, G, B, A uint8
}

// Parse reads "#rrggbb" or "#rrggbbaa" (any letter case).
func Parse(s string) (Color, error) {
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
	v, err := Parse(s)
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// ParseLoose reads the colour spellings theme files use: #rgb, #rgba,
// #rrggbb, #rrggbbaa, 0xrrggbb (Alacritty), and bare rrggbb (base16, foot,
// Ghostty).
func ParseLoose(s string) (Color, error) {
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

// OKLCH is a colour in Björn Ottosson's Oklab space in polar form:
// L lightness 0..1, C chroma (0 grey, about 0.37 at most in sRGB), H hue in
// degrees 0..360. Designers tune lightness here because equal steps look
// equal and hue stays put, unlike HSL.
type OKLCH struct {
	L float64 `json:"l"`
	C float64 `json:"c"`
	H float64 `json:"h"`
}

func srgbToLinear(v uint8) float64 {
	s := float64(v) / 255
	if s <= 0.04045 {
		return s / 12.92
	}
	return math.Pow((s+0.055)/1.055, 2.4)
}

func linearToSRGB(x float64) float64 {
	if x <= 0.0031308 {
		return 12.92 * x
	}
	return 1.055*math.Pow(x, 1/2.4) - 0.055
}

// ToOKLCH converts the colour's RGB (alpha is not part of it).
func ToOKLCH(c Color) OKLCH {
	r, g, b := srgbToLinear(c.R), srgbToLinear(c.G), srgbToLinear(c.B)
	l := math.Cbrt(0.4122214708*r + 0.5363325363*g + 0.0514459929*b)
	m := math.Cbrt(0.2119034982*r + 0.6806995451*g + 0.1073969566*b)
	s := math.Cbrt(0.0883024619*r + 0.2817188376*g + 0.6299787005*b)
	L := 0.2104542553*l + 0.7936177850*m - 0.0040720468*s
	A := 1.9779984951*l - 2.4285922050*m + 0.4505937099*s
	B := 0.0259040371*l + 0.7827717662*m - 0.8086757660*s
	h := math.Atan2(B, A) * 180 / math.Pi
	if h < 0 {
		h += 360
	}
	ch := math.Hypot(A, B)
	if ch < 1e-4 { // a grey has no hue; keep the number stable
		h = 0
	}
	return OKLCH{L: L, C: ch, H: h}
}

// linearRGB is the unclamped linear sRGB of an OKLCH colour.
func (o OKLCH) linearRGB() (r, g, b float64) {
	hr := o.H * math.Pi / 180
	A, B := o.C*math.Cos(hr), o.C*math.Sin(hr)
	l := o.L + 0.3963377774*A + 0.2158037573*B
	m := o.L - 0.1055613458*A - 0.0638541728*B
	s := o.L - 0.0894841775*A - 1.2914855480*B
	l, m, s = l*l*l, m*m*m, s*s*s
	r = 4.0767416621*l - 3.3077115913*m + 0.2309699292*s
	g = -1.2684380046*l + 2.6097574011*m - 0.3413193965*s
	b = -0.0041960863*l - 0.7034186147*m + 1.7076147010*s
	return
}

func (o OKLCH) inGamut() bool {
	const eps = 1e-6
	r, g, b := o.linearRGB()
	return r >= -eps && r <= 1+eps && g >= -eps && g <= 1+eps && b >= -eps && b <= 1+eps
}

// FromOKLCH converts back to an opaque sRGB colour. A colour outside sRGB
// loses chroma until it fits (lightness and hue are what the designer set;
// clipping channels instead would shift the hue).
func FromOKLCH(o OKLCH) Color {
	o.L = math.Max(0, math.Min(1, o.L))
	o.C = math.Max(0, o.C)
	if !o.inGamut() {
		lo, hi := 0.0, o.C
		for range 24 {
			mid := (lo + hi) / 2
			if (OKLCH{L: o.L, C: mid, H: o.H}).inGamut() {
				lo = mid
			} else {
				hi = mid
			}
		}
		o.C = lo
	}
	r, g, b := o.linearRGB()
	ch := func(x float64) uint8 {
		v := math.Round(linearToSRGB(math.Max(0, math.Min(1, x))) * 255)
		return uint8(math.Max(0, math.Min(255, v)))
	}
	return Color{R: ch(r), G: ch(g), B: ch(b), A: 255}
}

// LightnessSteps is how finely NearestPassing walks lightness: 1/1000 of
// the range is below one 8-bit step for every hue.
const LightnessSteps = 1000

// NearestPassing moves c's OKLCH lightness, hue and chroma kept (chroma
// only as far as sRGB allows), to the value nearest its own at which
// ratio(candidate) reaches target. ratio measures a candidate against
// whatever c must contrast with (every pair it takes part in). It reports
// false when no lightness reaches the target. Alpha is kept.
func NearestPassing(c Color, target float64, ratio func(Color) float64) (Color, bool) {
	if ratio(c) >= target {
		return c, true
	}
	o := ToOKLCH(c)
	for i := 1; i <= LightnessSteps; i++ {
		d := float64(i) / LightnessSteps
		var best Color
		bestRatio, found := 0.0, false
		for _, l := range []float64{math.Max(0, o.L-d), math.Min(1, o.L+d)} {
			cand := FromOKLCH(OKLCH{L: l, C: o.C, H: o.H})
			cand.A = c.A
			if r := ratio(cand); r >= target && r > bestRatio {
				best, bestRatio, found = cand, r, true
			}
		}
		if found {
			return best, true
		}
	}
	return c, false
}

// OKLab is the colour's Oklab coordinates (L 0..1; a, b about ±0.4).
func OKLab(c Color) (l, a, b float64) {
	o := ToOKLCH(c)
	hr := o.H * math.Pi / 180
	return o.L, o.C * math.Cos(hr), o.C * math.Sin(hr)
}

// DeltaE is the distance of two colours in Oklab, scaled by 100 (ΔEok:
// about 1 is a just-noticeable difference side by side, 2 is the
// difference in lightness between two adjacent 8-bit greys at mid-grey).
// Alpha counts as a fourth axis, so a colour and its translucent version
// are never taken for one.
func DeltaE(x, y Color) float64 {
	l1, a1, b1 := OKLab(x)
	l2, a2, b2 := OKLab(y)
	da := (float64(x.A) - float64(y.A)) / 255
	return 100 * math.Sqrt((l1-l2)*(l1-l2)+(a1-a2)*(a1-a2)+(b1-b2)*(b1-b2)+da*da)
}

// ToSRGB converts components in a colour space to an sRGB colour.
//
// Display P3 goes through linear light with the P3→sRGB matrix of
// iTerm2-Color-Schemes' tools/gen.py (commit 4cbae62), clamped there, and
// rounds half to even as that generator (Python's round) does, so an
// imported scheme matches the files it generated exactly.
//
// Calibrated (iTerm2's NSCalibratedRGB, generic RGB; a colour without a
// "Color Space" key is calibrated, NSColor+iTerm.h: "Optional, defaults to
// calibrated") is taken numerically as sRGB. That is what the same
// generator does for every calibrated scheme it publishes, and generic RGB
// differs from sRGB by a few units per channel at most on the colours
// themes use; the importer says so in a warning, and the original
// components and label are kept, so the iTerm2 export writes them back and
// iTerm2 shows the colour exactly as before.
func ToSRGB(space string, r, g, b, a float64) Color {
	if space == "P3" {
		r, g, b = p3ToSRGB(r, g, b)
	}
	to8 := func(f float64) uint8 { return uint8(math.RoundToEven(math.Min(1, math.Max(0, f)) * 255)) }
	return Color{R: to8(r), G: to8(g), B: to8(b), A: to8(a)}
}

func p3ToSRGB(r, g, b float64) (float64, float64, float64) {
	lin := func(c float64) float64 {
		if c < 0.04045 {
			return c / 12.92
		}
		return math.Pow((c+0.055)/1.055, 2.4)
	}
	gamma := func(c float64) float64 {
		c = math.Max(0, math.Min(1, c))
		if c < 0.0031308 {
			return 12.92 * c
		}
		return 1.055*math.Pow(c, 1/2.4) - 0.055
	}
	lr, lg, lb := lin(r), lin(g), lin(b)
	return gamma(1.22494018*lr - 0.22469880*lg - 0.00012973*lb),
		gamma(-0.04205631*lr + 1.04203282*lg - 0.00000601*lb),
		gamma(-0.01963755*lr - 0.07862814*lg + 1.09826365*lb)
}

// Luminance is the WCAG 2.x relative luminance of an opaque colour.
func Luminance(c Color) float64 {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// Ratio is the WCAG contrast ratio (1..21) of fg on bg. A translucent fg is
// composited over bg first; bg must be opaque (composite it yourself).
func Ratio(fg, bg Color) float64 {
	a, b := Luminance(fg.Over(bg)), Luminance(bg)
	if a < b {
		a, b = b, a
	}
	return (a + 0.05) / (b + 0.05)
}

// APCA-W3 0.0.98G-4g constants (Andrew Somers, Myndex; the "apca-w3"
// reference implementation, https://github.com/Myndex/apca-w3, used by
// WCAG 3 drafts): a simple 2.4 exponent and these channel weights, soft
// black clamp and power curves.
const (
	apcaMainTRC   = 2.4
	apcaRco       = 0.2126729
	apcaGco       = 0.7151522
	apcaBco       = 0.0721750
	apcaNormBG    = 0.56
	apcaNormTXT   = 0.57
	apcaRevTXT    = 0.62
	apcaRevBG     = 0.65
	apcaBlkThrs   = 0.022
	apcaBlkClmp   = 1.414
	apcaScale     = 1.14
	apcaLoOffset  = 0.027
	apcaLoClip    = 0.1
	apcaDeltaYMin = 0.0005
)

// apcaY is the APCA screen luminance of an opaque colour, black-clamped.
func apcaY(c Color) float64 {
	ch := func(v uint8) float64 { return math.Pow(float64(v)/255, apcaMainTRC) }
	y := apcaRco*ch(c.R) + apcaGco*ch(c.G) + apcaBco*ch(c.B)
	if y < apcaBlkThrs {
		y += math.Pow(apcaBlkThrs-y, apcaBlkClmp)
	}
	return y
}

// APCA is the APCA lightness contrast Lc of text fg on background bg
// (about −108 … +106): positive for dark text on a light background,
// negative for light on dark; its magnitude is what the thresholds use
// (Lc 90 preferred for body text, 75 minimum for body text, 60 for other
// content text, 45 for large or bold headlines, 30 for any text at all,
// 15 for non-text). A translucent fg is composited over bg first.
func APCA(fg, bg Color) float64 {
	yt, yb := apcaY(fg.Over(bg)), apcaY(bg)
	if math.Abs(yb-yt) < apcaDeltaYMin {
		return 0
	}
	var out float64
	if yb > yt { // dark text on a light background
		sapc := (math.Pow(yb, apcaNormBG) - math.Pow(yt, apcaNormTXT)) * apcaScale
		if sapc >= apcaLoClip {
			out = sapc - apcaLoOffset
		}
	} else {
		sapc := (math.Pow(yb, apcaRevBG) - math.Pow(yt, apcaRevTXT)) * apcaScale
		if sapc <= -apcaLoClip {
			out = sapc + apcaLoOffset
		}
	}
	return out * 100
}
