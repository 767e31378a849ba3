package theme

import "math"

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

// lightnessSteps is how finely NearestPassing walks lightness: 1/1000 of
// the range is below one 8-bit step for every hue.
const lightnessSteps = 1000

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
	for i := 1; i <= lightnessSteps; i++ {
		d := float64(i) / lightnessSteps
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
