package theme

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// family reads testdata/family.theme.json: Harbour Night (dark) with its
// light companion Harbour Day, a document of its own with its own palette
// (a name with a space, upper-case hex, a translucent selection).
func family(t *testing.T) ([]byte, *Theme) {
	t.Helper()
	b, err := os.ReadFile("testdata/family.theme.json")
	if err != nil {
		t.Fatal(err)
	}
	th, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if th.Companion == nil {
		t.Fatal("family.theme.json has no companion")
	}
	return b, th
}

func TestSplitDecidesWhichDocumentAPathAddresses(t *testing.T) {
	for _, c := range []struct {
		path      string
		companion bool
		rest      string
	}{
		{"ui.background", false, "ui.background"},
		{"palette.ink", false, "palette.ink"},
		{"companion.ui.background", true, "ui.background"},
		{"companion.palette.sea green", true, "palette.sea green"},
		{"companion.companion.ui.text", true, "companion.ui.text"}, // no companion of a companion
		{"companionship.ui.text", false, "companionship.ui.text"},
	} {
		if comp, rest := Split(c.path); comp != c.companion || rest != c.rest {
			t.Errorf("Split(%q) = %v, %q; want %v, %q", c.path, comp, rest, c.companion, c.rest)
		}
	}
	_, th := family(t)
	if doc, rest := th.At("companion.ui.text"); doc != th.Companion || rest != "ui.text" {
		t.Errorf("At(companion.ui.text) = %p %q", doc, rest)
	}
	if doc, _ := Example().At("companion.ui.text"); doc != nil {
		t.Error("a theme without a companion gave a document for a companion path")
	}
}

func TestSetColorOnACompanionPathChangesOnlyTheCompanion(t *testing.T) {
	b, th := family(t)
	bg := th.UI.Background
	nc, _ := ParseColor("#fdfcf7")
	ch, err := SetColor(th, "companion.ui.background", nc)
	if err != nil || !slices.Equal(ch, []string{"companion.ui.background"}) {
		t.Fatalf("changed %v, %v", ch, err)
	}
	if th.Companion.UI.Background != nc || th.UI.Background != bg {
		t.Fatalf("companion background %s (want %s), theme's %s (want %s kept)", th.Companion.UI.Background, nc, th.UI.Background, bg)
	}
	// A palette entry of the companion moves the companion's roles holding
	// it (success and string hold "sea green"), not the theme's.
	green, _ := ParseColor("#117744")
	ch, err = SetColor(th, "companion.palette.sea green", green)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"companion.palette.sea green", "companion.ui.success", "companion.syntax.string"} {
		if !slices.Contains(ch, want) {
			t.Errorf("changed %v lacks %s", ch, want)
		}
	}
	if th.Companion.Syntax.String != green || th.Syntax.String == green {
		t.Errorf("companion string %s, theme string %s", th.Companion.Syntax.String, th.Syntax.String)
	}
	// Written back, theme.json carries the edit in its companion and parses.
	out, err := Rewrite(b, th)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(out)
	if err != nil || back.Companion == nil || back.Companion.UI.Background != nc || back.UI.Background != bg {
		t.Fatalf("rewritten: %v %+v", err, back)
	}
	if _, err := SetColor(th, "companion.ui.nope", nc); err == nil || !strings.Contains(err.Error(), "companion.ui.nope") {
		t.Errorf("unknown companion role: %v", err)
	}
	if _, err := SetColor(Example(), "companion.ui.text", nc); err == nil || !strings.Contains(err.Error(), "no companion") {
		t.Errorf("a companion path on a theme without one: %v", err)
	}
}
