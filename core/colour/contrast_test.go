package colour

import (
	"math"
	"testing"
)

func TestRatioKnownPairs(t *testing.T) {
	tests := []struct {
		fg, bg string
		want   float64
	}{
		{"#777777", "#FFFFFF", 4.48},
		{"#000000", "#ffffff", 21},
		{"#ffffff", "#000000", 21},
		{"#336699", "#336699", 1},
		{"#767676", "#ffffff", 4.54},   // the usual "lightest grey that passes AA on white"
		{"#ffffff80", "#000000", 5.32}, // composited to #808080 first
	}
	for _, tt := range tests {
		got := Ratio(mustColor(t, tt.fg), mustColor(t, tt.bg))
		if math.Abs(got-tt.want) > 0.005 {
			t.Errorf("Ratio(%s on %s) = %.4f, want %.2f", tt.fg, tt.bg, got, tt.want)
		}
	}
}

// The APCA-W3 0.0.98G reference values (apca-w3 README and its test
// suite): black/white both ways and mid grey.
func TestAPCAReferenceValues(t *testing.T) {
	c := func(s string) Color { v, _ := Parse(s); return v }
	for _, tc := range []struct {
		fg, bg string
		want   float64
	}{
		{"#000000", "#ffffff", 106.04},
		{"#ffffff", "#000000", -107.88},
		{"#888888", "#ffffff", 63.06},
		{"#ffffff", "#888888", -68.54},
		{"#000000", "#aaaaaa", 58.15},
		{"#aaaaaa", "#000000", -56.24},
		{"#123456", "#123456", 0},
	} {
		if got := APCA(c(tc.fg), c(tc.bg)); math.Abs(got-tc.want) > 0.01 {
			t.Errorf("APCA(%s on %s) = %.3f, want %.2f", tc.fg, tc.bg, got, tc.want)
		}
	}
}

func TestNearestPassingMovesOnlyLightnessToTheNearestPass(t *testing.T) {
	bg, _ := Parse("#1e1e2e")
	fg, _ := Parse("#5a4a8a") // a dim purple, about 2:1 on bg
	ratio := func(c Color) float64 { return Ratio(c, bg) }
	if ratio(fg) >= 4.5 {
		t.Fatalf("fixture already passes: %.2f", ratio(fg))
	}
	got, ok := NearestPassing(fg, 4.5, ratio)
	if !ok {
		t.Fatal("no pass found")
	}
	if r := ratio(got); r < 4.5 {
		t.Fatalf("%s is %.3f:1, below AA", got, r)
	}
	before, after := ToOKLCH(fg), ToOKLCH(got)
	if after.L <= before.L {
		t.Errorf("on a dark background the nearest pass is lighter: L %.3f → %.3f", before.L, after.L)
	}
	if math.Abs(after.H-before.H) > 3 || math.Abs(after.C-before.C) > 0.02 {
		t.Errorf("hue/chroma moved: %+v → %+v", before, after)
	}
	// Nearest: one lightness step less than the answer does not pass.
	prev := FromOKLCH(OKLCH{L: after.L - 2.0/LightnessSteps, C: before.C, H: before.H})
	if ratio(prev) >= 4.5 {
		t.Errorf("%s (darker than %s) already passes at %.3f: not the nearest", prev, got, ratio(prev))
	}
}

func TestNearestPassingGoesDarkerOnALightBackground(t *testing.T) {
	bg, _ := Parse("#fafafa")
	fg, _ := Parse("#9aa5ce")
	got, ok := NearestPassing(fg, 4.5, func(c Color) float64 { return Ratio(c, bg) })
	if !ok || Ratio(got, bg) < 4.5 || ToOKLCH(got).L >= ToOKLCH(fg).L {
		t.Fatalf("got %s ok=%v ratio %.2f, want a darker passing colour", got, ok, Ratio(got, bg))
	}
}

func TestNearestPassingReportsAnImpossibleTarget(t *testing.T) {
	bg, _ := Parse("#777777")
	fg, _ := Parse("#707070")
	if _, ok := NearestPassing(fg, 19, func(c Color) float64 { return Ratio(c, bg) }); ok {
		t.Fatal("19:1 against mid grey cannot be reached, yet a colour was offered")
	}
}

func mustColor(t testing.TB, s string) Color {
	t.Helper()
	c, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
