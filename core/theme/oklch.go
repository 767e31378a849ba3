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

// rampLightness is a ramp's default OKLCH lightness by step on Tailwind's
// 0–1000 scale, read off Tailwind CSS v4's OKLCH palette (the mean over
// its chromatic scales, rounded) and extended to 0 and 1000; between these
// points it is linear. Equal OKLCH lightness steps look equal, which is
// why the curve is set here and not in HSL.
var rampLightness = [][2]float64{
	{0, 0.995}, {50, 0.97}, {100, 0.936}, {200, 0.885}, {300, 0.808}, {400, 0.711},
	{500, 0.637}, {600, 0.554}, {700, 0.482}, {800, 0.42}, {900, 0.37}, {950, 0.27}, {1000, 0.2},
}

func rampCurve(step int) float64 {
	s := float64(step)
	for i := 1; i < len(rampLightness); i++ {
		a, b := rampLightness[i-1], rampLightness[i]
		if s <= b[0] {
			return a[1] + (b[1]-a[1])*(s-a[0])/(b[0]-a[0])
		}
	}
	return rampLightness[len(rampLightness)-1][1]
}

// RampAnchor is the step a ramp's base colour is: r.At, else the step
// whose default lightness is nearest the base's.
func RampAnchor(base Color, r Ramp) int {
	if r.At != 0 {
		return r.At
	}
	l := ToOKLCH(base).L
	best, bestD := 0, math.Inf(1)
	for _, s := range r.steps() {
		if d := math.Abs(rampCurve(s) - l); d < bestD {
			best, bestD = s, d
		}
	}
	return best
}

// RampColors generates a ramp's steps from its base, in the spirit of
// Radix and Adobe Leonardo: the base is its anchor step exactly; the other
// steps keep its hue and take the default lightness curve bent to pass
// through the base (so lightness falls monotonically from step 1 to 999
// whatever the base), with chroma tapering toward white and black as real
// scales do (Tailwind's 50 keeps about 7 % of its 500's chroma, its 950
// about half), and reduced further where sRGB has no room (FromOKLCH).
func RampColors(base Color, r Ramp) map[int]Color {
	o := ToOKLCH(base)
	anchor := RampAnchor(base, r)
	la := rampCurve(anchor)
	top, bottom := rampCurve(0), rampCurve(1000)
	lb := math.Max(bottom+1e-3, math.Min(top-1e-3, o.L))
	out := make(map[int]Color, len(r.steps()))
	for _, s := range r.steps() {
		if s == anchor {
			out[s] = base
			continue
		}
		ld := rampCurve(s)
		var l, c float64
		if s < anchor { // lighter than the base
			u := (top - ld) / (top - la)
			l = top - (top-lb)*u
			c = o.C * math.Pow(math.Max(0, u), 1.2)
		} else {
			u := (ld - bottom) / (la - bottom)
			l = bottom + (lb-bottom)*u
			c = o.C * (1 - 0.6*math.Pow(math.Max(0, 1-u), 1.5))
		}
		out[s] = FromOKLCH(OKLCH{L: l, C: c, H: o.H})
	}
	return out
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
