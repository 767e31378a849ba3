package theme

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// withCompanion is the example theme with its derived light variant.
func withCompanion(t *testing.T) *Theme {
	t.Helper()
	th := Example()
	th.Companion = Counterpart(th)
	return th
}

func TestCounterpartIsTheOtherAppearanceAndKeepsEveryPassingPair(t *testing.T) {
	dark := Example()
	// Syntax colours just at AA on the dark background: mirrored alone,
	// several of them would fall below it on the light one.
	for i, r := range SyntaxRoles {
		seed := FromOKLCH(OKLCH{L: 0.45, C: 0.12, H: float64(i * 40)})
		c, ok := NearestPassing(seed, 4.55, func(c Color) float64 { return Ratio(c, dark.UI.Background) })
		if !ok {
			t.Fatal("no seed colour passes")
		}
		dark.Set("syntax."+r, c)
	}
	light := Counterpart(dark)
	if light.Appearance != "light" || light.Name != dark.Name+" Light" {
		t.Fatalf("counterpart is %q (%s); want %q (light)", light.Name, light.Appearance, dark.Name+" Light")
	}
	if l := ToOKLCH(light.UI.Background).L; math.Abs(l-0.97) > 0.01 {
		t.Errorf("light background lightness %.3f; want about 0.97", l)
	}
	if ToOKLCH(light.UI.Text).L > 0.5 {
		t.Errorf("light variant's text %s is not dark", light.UI.Text)
	}
	before := map[[2]string]float64{}
	for _, c := range Checks(dark) {
		before[[2]string{c.FGRole, c.BGRole}] = c.Ratio
	}
	n := 0
	for _, c := range Checks(light) {
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
	if dh := math.Abs(ToOKLCH(dark.UI.Accent).H - ToOKLCH(light.UI.Accent).H); math.Min(dh, 360-dh) > 6 {
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

func TestCompanionRoundTripsThroughTheDocument(t *testing.T) {
	th := withCompanion(t)
	b, err := EncodeJSON(th)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(b)
	if err != nil {
		t.Fatalf("a document with its companion does not parse back: %v", err)
	}
	if back.Companion == nil || back.Companion.Name != th.Companion.Name || back.Companion.UI != th.Companion.UI || back.Companion.ANSI != th.Companion.ANSI {
		t.Fatalf("companion lost or changed on the way through theme.json: %+v", back.Companion)
	}
}

func TestCompanionProblemsAreNamedUnderCompanion(t *testing.T) {
	th := withCompanion(t)
	doc := func(edit func(c map[string]any)) []byte {
		b, _ := EncodeJSON(th)
		var m map[string]any
		json.Unmarshal(b, &m)
		edit(m["companion"].(map[string]any))
		out, _ := json.Marshal(m)
		return out
	}
	for name, tc := range map[string]struct {
		edit func(c map[string]any)
		want string
	}{
		"same appearance": {func(c map[string]any) { c["appearance"] = "dark" }, "companion.appearance"},
		"same name":       {func(c map[string]any) { c["name"] = th.Name }, "companion.name"},
		"a bad colour":    {func(c map[string]any) { c["ui"].(map[string]any)["accent"] = "blue" }, "companion.ui.accent"},
		"a missing group": {func(c map[string]any) { delete(c, "syntax") }, "companion.syntax"},
		"nested":          {func(c map[string]any) { c["companion"] = map[string]any{} }, "companion.companion"},
	} {
		_, err := Parse(doc(tc.edit))
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s: got %v, want a validation error", name, err)
			continue
		}
		found := false
		for _, p := range ve.Problems {
			found = found || p.Path == tc.want
		}
		if !found {
			t.Errorf("%s: no problem at %s in %v", name, tc.want, ve.Problems)
		}
	}
}

func TestFamilyExports(t *testing.T) {
	th := withCompanion(t)
	slug, cslug := Slug(th.Name), Slug(th.Companion.Name)

	// Zed: one family file, both themes in it.
	files, err := Render(th, "zed")
	if err != nil {
		t.Fatal(err)
	}
	var fam zedFamily
	if len(files) != 1 || json.Unmarshal(files[slug+".json"], &fam) != nil || len(fam.Themes) != 2 ||
		fam.Themes[0].Appearance != "dark" || fam.Themes[1].Appearance != "light" || fam.Themes[1].Name != th.Companion.Name {
		t.Fatalf("zed family: %d files, themes %+v", len(files), fam.Themes)
	}
	if fam.Themes[1].Style["editor.background"] != th.Companion.UI.Background.String() {
		t.Errorf("the light theme of the family is not painted from the companion")
	}

	// VS Code: one extension contributing both.
	files, err = Render(th, "vscode")
	if err != nil {
		t.Fatal(err)
	}
	var pkg vscodePackage
	json.Unmarshal(files["package.json"], &pkg)
	if len(pkg.Contributes.Themes) != 2 || pkg.Contributes.Themes[1].UITheme != "vs" || files["themes/"+cslug+"-color-theme.json"] == nil {
		t.Fatalf("vscode extension contributes %+v; files %v", pkg.Contributes.Themes, sortedKeys(files))
	}

	// A one-theme format writes the companion's file beside the theme's.
	files, err = Render(th, "kitty")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || !strings.Contains(string(files[cslug+".conf"]), th.Companion.UI.Background.String()) {
		t.Fatalf("kitty export of a family: %v", sortedKeys(files))
	}
	// Same names collide with a clear error rather than one overwriting the other.
	clash := withCompanion(t)
	clash.Companion.Name = clash.Name + "!"
	if _, err := Render(clash, "kitty"); err == nil || !strings.Contains(err.Error(), "both write") {
		t.Errorf("a companion whose file name is the theme's: %v", err)
	}
}
