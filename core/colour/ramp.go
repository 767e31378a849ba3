package colour

import "math"

// rampLightness is a ramp's default OKLCH lightness by step on Tailwind's
// 0–1000 scale, read off Tailwind CSS v4's OKLCH palette (the mean over
// its chromatic scales, rounded) and extended to 0 and 1000; between these
// points it is linear. Equal OKLCH lightness steps look equal, which is
// why the curve is set here and not in HSL.
var rampLightness = [][2]float64{
	{0, 0.995}, {50, 0.97}, {100, 0.936}, {200, 0.885}, {300, 0.808}, {400, 0.711},
	{500, 0.637}, {600, 0.554}, {700, 0.482}, {800, 0.42}, {900, 0.37}, {950, 0.27}, {1000, 0.2},
}

func RampLightness(step int) float64 {
	s := float64(step)
	for i := 1; i < len(rampLightness); i++ {
		a, b := rampLightness[i-1], rampLightness[i]
		if s <= b[0] {
			return a[1] + (b[1]-a[1])*(s-a[0])/(b[0]-a[0])
		}
	}
	return rampLightness[len(rampLightness)-1][1]
}

// RampAnchor is the step among steps whose default lightness is nearest
// base's: where a ramp that names no base step puts its base.
func RampAnchor(base Color, steps []int) int {
	l := ToOKLCH(base).L
	best, bestD := 0, math.Inf(1)
	for _, s := range steps {
		if d := math.Abs(RampLightness(s) - l); d < bestD {
			best, bestD = s, d
		}
	}
	return best
}

// Ramp generates a ramp's steps from its base, in the spirit of
// Radix and Adobe Leonardo: the base is its anchor step exactly; the other
// steps keep its hue and take the default lightness curve bent to pass
// through the base (so lightness falls monotonically from step 1 to 999
// whatever the base), with chroma tapering toward white and black as real
// scales do (Tailwind's 50 keeps about 7 % of its 500's chroma, its 950
// about half), and reduced further where sRGB has no room (FromOKLCH).
func Ramp(base Color, anchor int, steps []int) map[int]Color {
	o := ToOKLCH(base)
	la := RampLightness(anchor)
	top, bottom := RampLightness(0), RampLightness(1000)
	lb := math.Max(bottom+1e-3, math.Min(top-1e-3, o.L))
	out := make(map[int]Color, len(steps))
	for _, s := range steps {
		if s == anchor {
			out[s] = base
			continue
		}
		ld := RampLightness(s)
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
