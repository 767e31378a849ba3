package contrast

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"cdxtheme/core/colour"
	"cdxtheme/core/theme"
)

func TestMakePassFixesEveryPairOfTheRole(t *testing.T) {
	th := theme.Example()
	th.UI.MutedText, _ = colour.Parse("#3a3a4a") // fails on background and surface
	before := Pairs(th, "ui.mutedText")
	if len(before) < 2 {
		t.Fatalf("mutedText should take part in 2+ pairs, got %d", len(before))
	}
	c, err := MakePass(th, "ui.mutedText", AA)
	if err != nil {
		t.Fatal(err)
	}
	if th.UI.MutedText.Hex() != "#3a3a4a" {
		t.Fatal("MakePass changed the theme it was given")
	}
	th.UI.MutedText = c
	for _, p := range Pairs(th, "ui.mutedText") {
		if !p.AA {
			t.Errorf("after make-it-pass %s on %s is %.2f", p.FGRole, p.BGRole, p.Ratio)
		}
	}
}

func TestMakePassOnABackgroundRole(t *testing.T) {
	th := theme.Example()
	th.UI.Selection, _ = colour.Parse("#c0c0d0") // light selection under light text
	c, err := MakePass(th, "ui.selection", AA)
	if err != nil {
		t.Fatal(err)
	}
	th.UI.Selection = c
	for _, p := range Pairs(th, "ui.selection") {
		if !p.AA {
			t.Errorf("text on the fixed selection is %.2f", p.Ratio)
		}
	}
}

func TestMakePassRefusesUnknownAndUnpairedRoles(t *testing.T) {
	th := theme.Example()
	if _, err := MakePass(th, "ui.nope", AA); err == nil {
		t.Error("unknown role accepted")
	}
	if _, err := MakePass(th, "ansi.black", AA); err == nil || !strings.Contains(err.Error(), "no contrast pair") {
		t.Errorf("ansi.black is in no pair; got %v", err)
	}
}

func TestMakePassAndPairsOfACompanionRoleAreTheCompanions(t *testing.T) {
	th := family(t)
	// Muted text too light on the light companion's paper.
	th.Companion.UI.MutedText, _ = colour.Parse("#c8c4bc")
	pairs := PairsAt(th, "companion.ui.mutedText")
	if len(pairs) < 2 {
		t.Fatalf("companion muted text in %d pairs", len(pairs))
	}
	for _, p := range pairs {
		if p.FGRole != "companion.ui.mutedText" || !strings.HasPrefix(p.BGRole, theme.CompanionPrefix) {
			t.Errorf("pair %s on %s is not named as the companion's", p.FGRole, p.BGRole)
		}
		if p.BG != th.Companion.Color(strings.TrimPrefix(p.BGRole, theme.CompanionPrefix)).String() {
			t.Errorf("pair measured against %s, not the companion's %s", p.BG, p.BGRole)
		}
		if p.AA {
			t.Errorf("a pale muted text on paper passes on %s (%.2f)", p.BGRole, p.Ratio)
		}
	}
	c, err := MakePass(th, "companion.ui.mutedText", AA)
	if err != nil {
		t.Fatal(err)
	}
	if colour.ToOKLCH(c).L >= colour.ToOKLCH(th.Companion.UI.MutedText).L {
		t.Errorf("on a light background the fix should darken: %s → %s", th.Companion.UI.MutedText, c)
	}
	th.Companion.UI.MutedText = c
	for _, p := range PairsAt(th, "companion.ui.mutedText") {
		if !p.AA {
			t.Errorf("after make-it-pass %s on %s is %.2f", p.FGRole, p.BGRole, p.Ratio)
		}
	}
	if _, err := MakePass(th, "companion.ansi.black", AA); err == nil || !strings.Contains(err.Error(), "companion.ansi.black") {
		t.Errorf("an unpaired companion role: %v", err)
	}
	if _, err := MakePass(theme.Example(), "companion.ui.text", AA); err == nil {
		t.Error("make-it-pass on the companion of a theme without one")
	}
	// The palette entry's pairs are those of the roles holding it.
	if ps := PairsAt(th, "companion.palette.paper"); len(ps) == 0 || !slices.ContainsFunc(ps, func(p Check) bool { return p.BGRole == "companion.ui.background" }) {
		t.Errorf("paper holds the companion's background; pairs %+v", ps)
	}
}

// family reads core/theme's testdata/family.theme.json: Harbour Night
// (dark) with its light companion Harbour Day.
func family(t *testing.T) *theme.Theme {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "theme", "testdata", "family.theme.json"))
	if err != nil {
		t.Fatal(err)
	}
	th, err := theme.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if th.Companion == nil {
		t.Fatal("family.theme.json has no companion")
	}
	return th
}
