package companion

import (
	"math"
	"testing"

	"cdxtheme/core/colour"
	"cdxtheme/core/contrast"
	"cdxtheme/core/theme"
)

func TestCounterpartIsTheOtherAppearanceAndKeepsEveryPassingPair(t *testing.T) {
	dark := theme.Example()
	// Syntax colours just at AA on the dark background: mirrored alone,
	// several of them would fall below it on the light one.
	for i, r := range theme.SyntaxRoles {
		seed := colour.FromOKLCH(colour.OKLCH{L: 0.45, C: 0.12, H: float64(i * 40)})
		c, ok := colour.NearestPassing(seed, 4.55, func(c theme.Color) float64 { return colour.Ratio(c, dark.UI.Background) })
		if !ok {
			t.Fatal("no seed colour passes")
		}
		dark.Set("syntax."+r, c)
	}
	light := Counterpart(dark)
	if light.Appearance != "light" || light.Name != dark.Name+" Light" {
		t.Fatalf("counterpart is %q (%s); want %q (light)", light.Name, light.Appearance, dark.Name+" Light")
	}
	if l := colour.ToOKLCH(light.UI.Background).L; math.Abs(l-0.97) > 0.01 {
		t.Errorf("light background lightness %.3f; want about 0.97", l)
	}
	if colour.ToOKLCH(light.UI.Text).L > 0.5 {
		t.Errorf("light variant's text %s is not dark", light.UI.Text)
	}
	before := map[[2]string]float64{}
	for _, c := range contrast.Checks(dark) {
		before[[2]string{c.FGRole, c.BGRole}] = c.Ratio
	}
	n := 0
	for _, c := range contrast.Checks(light) {
		want := math.Min(before[[2]string{c.FGRole, c.BGRole}], 4.5)
		if c.Ratio+0.01 < want {
			t.Errorf("%s on %s: %.2f:1 in the light variant, %.2f:1 wanted (the dark one has %.2f)", c.FGRole, c.BGRole, c.Ratio, want, before[[2]string{c.FGRole, c.BGRole}])
		}
		n++
	}
	if n < 20 {
		t.Fatalf("only %d pairs checked", n)
	}
	// Hue is kept: the accent stays the same colour family.
	if dh := math.Abs(colour.ToOKLCH(dark.UI.Accent).H - colour.ToOKLCH(light.UI.Accent).H); math.Min(dh, 360-dh) > 6 {
		t.Errorf("accent hue moved %.1f° (%s → %s)", dh, dark.UI.Accent, light.UI.Accent)
	}
	// And back: a dark variant of a light theme, named by swapping the word.
	back := Counterpart(light)
	if back.Appearance != "dark" || back.Name != dark.Name+" Dark" {
		t.Errorf("counterpart of the light one is %q (%s)", back.Name, back.Appearance)
	}
	if dark.Companion != nil || light.Companion != nil {
		t.Error("Counterpart changed its input or nested a companion")
	}
}
