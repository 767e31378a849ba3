package theme

import (
	"math"
	"testing"
)

// Reference values from Ottosson's Oklab (as CSS Color 4's oklch() gives
// them): white, black, sRGB red and a mid blue.
func TestToOKLCHMatchesReference(t *testing.T) {
	cases := []struct {
		hex     string
		l, c, h float64
	}{
		{"#ffffff", 1, 0, 0},
		{"#000000", 0, 0, 0},
		{"#ff0000", 0.6279, 0.2577, 29.23},
		{"#0000ff", 0.4520, 0.3132, 264.05},
	}
	for _, tc := range cases {
		c, _ := ParseColor(tc.hex)
		o := ToOKLCH(c)
		if math.Abs(o.L-tc.l) > 0.001 || math.Abs(o.C-tc.c) > 0.001 || (tc.c > 0 && math.Abs(o.H-tc.h) > 0.1) {
			t.Errorf("%s: got L %.4f C %.4f H %.2f, want %.4f %.4f %.2f", tc.hex, o.L, o.C, o.H, tc.l, tc.c, tc.h)
		}
	}
}

func TestOKLCHRoundTripsEveryChannelValue(t *testing.T) {
	for v := 0; v < 256; v += 5 {
		for _, c := range []Color{{R: uint8(v), A: 255}, {G: uint8(v), B: 128, A: 255}, {R: uint8(v), G: uint8(v), B: uint8(255 - v), A: 255}} {
			if got := FromOKLCH(ToOKLCH(c)); got != c {
				t.Fatalf("%s came back as %s", c, got)
			}
		}
	}
}

func TestFromOKLCHOutOfGamutKeepsHueAndLightness(t *testing.T) {
	// Very high chroma at mid lightness is outside sRGB for every hue.
	o := OKLCH{L: 0.7, C: 0.4, H: 140}
	c := FromOKLCH(o)
	back := ToOKLCH(c)
	if math.Abs(back.L-0.7) > 0.01 || math.Abs(back.H-140) > 2 {
		t.Fatalf("mapped to %s = %+v, want L 0.7 and H 140 kept", c, back)
	}
	if back.C >= 0.4 {
		t.Fatalf("chroma %.3f not reduced into sRGB", back.C)
	}
}
