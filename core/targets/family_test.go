package targets

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"cdxtheme/core/companion"
	"cdxtheme/core/theme"
)

// withCompanion is the example theme with its derived companion.
func withCompanion(t *testing.T) *theme.Theme {
	t.Helper()
	th := theme.Example()
	th.Companion = companion.Counterpart(th)
	return th
}

// A family exports as one: Zed and VS Code hold both themes in one
// package, a one-theme format writes the companion's file beside.
func TestFamilyExports(t *testing.T) {
	th := withCompanion(t)
	slug, cslug := theme.Slug(th.Name), theme.Slug(th.Companion.Name)

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
		t.Fatalf("vscode extension contributes %+v; files %v", pkg.Contributes.Themes, slices.Sorted(maps.Keys(files)))
	}

	// A one-theme format writes the companion's file beside the theme's.
	files, err = Render(th, "kitty")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || !strings.Contains(string(files[cslug+".conf"]), th.Companion.UI.Background.String()) {
		t.Fatalf("kitty export of a family: %v", slices.Sorted(maps.Keys(files)))
	}
	// Same names collide with a clear error rather than one overwriting the other.
	clash := withCompanion(t)
	clash.Companion.Name = clash.Name + "!"
	if _, err := Render(clash, "kitty"); err == nil || !strings.Contains(err.Error(), "both write") {
		t.Errorf("a companion whose file name is the theme's: %v", err)
	}
}
