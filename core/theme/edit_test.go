package theme

import (
	"slices"
	"strings"
	"testing"
)

func TestMakePassFixesEveryPairOfTheRole(t *testing.T) {
	th := Example()
	th.UI.MutedText, _ = ParseColor("#3a3a4a") // fails on background and surface
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
	th := Example()
	th.UI.Selection, _ = ParseColor("#c0c0d0") // light selection under light text
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
	th := Example()
	if _, err := MakePass(th, "ui.nope", AA); err == nil {
		t.Error("unknown role accepted")
	}
	if _, err := MakePass(th, "ansi.black", AA); err == nil || !strings.Contains(err.Error(), "no contrast pair") {
		t.Errorf("ansi.black is in no pair; got %v", err)
	}
}

func TestSetColorOnAPaletteEntryChangesEveryRoleUsingIt(t *testing.T) {
	th := Example()
	ink := th.UI.Accent
	th.Palette = map[string]Color{"ink": ink, "other": th.UI.Text}
	th.Refs = nil
	for _, p := range []string{"ui.accent", "terminal.cursor", "ansi.blue"} {
		if err := th.Attach(p, "ink"); err != nil {
			t.Fatal(err)
		}
	}
	th.Set("syntax.function", ink) // the same colour, its own: it stays
	users := PaletteUsers(th, "ink")
	if !slices.Equal(users, []string{"ui.accent", "terminal.cursor", "ansi.blue"}) {
		t.Fatalf("users = %v", users)
	}
	orig := th.Palette
	nc, _ := ParseColor("#ff8800")
	changed, err := SetColor(th, "palette.ink", nc)
	if err != nil {
		t.Fatal(err)
	}
	want := append([]string{"palette.ink"}, users...)
	if !slices.Equal(changed, want) {
		t.Errorf("changed %v, want %v", changed, want)
	}
	for _, p := range users {
		if th.Color(p) != nc {
			t.Errorf("%s not updated", p)
		}
	}
	if th.Syntax.Function != ink {
		t.Errorf("syntax.function holds its own colour and moved with the entry to %s", th.Syntax.Function)
	}
	if th.Palette["other"] != orig["other"] || orig["ink"] != ink {
		t.Error("the palette map shared with the caller's copy was changed in place")
	}
}

func TestSetColorOnARole(t *testing.T) {
	th := Example()
	nc, _ := ParseColor("#123456")
	if ch, err := SetColor(th, "syntax.keyword", nc); err != nil || !slices.Equal(ch, []string{"syntax.keyword"}) || th.Syntax.Keyword != nc {
		t.Fatalf("got %v %v %s", ch, err, th.Syntax.Keyword)
	}
	if ch, _ := SetColor(th, "syntax.keyword", nc); ch != nil {
		t.Errorf("unchanged colour reported as changed: %v", ch)
	}
	if _, err := SetColor(th, "palette.none", nc); err == nil {
		t.Error("missing palette entry accepted")
	}
}

func TestRewriteKeepsTheSchemaLineAndParses(t *testing.T) {
	old := []byte(`{"$schema": "https://example.test/theme.schema.json",` + string(ExampleJSON()[1:]))
	th, err := Parse(old)
	if err != nil {
		t.Fatal(err)
	}
	accent, _ := ParseColor("#abcdef")
	th.Set("ui.accent", accent)
	out, err := Rewrite(old, th)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(out)
	if err != nil {
		t.Fatalf("rewritten document invalid: %v\n%s", err, out)
	}
	if back.UI.Accent.Hex() != "#abcdef" || !strings.Contains(string(out), `"$schema": "https://example.test/theme.schema.json"`) {
		t.Fatalf("rewrite lost the edit or the schema:\n%s", out)
	}
}

func TestRenameCarriesACompanionNamedAfterTheTheme(t *testing.T) {
	th := Example()
	th.Companion = Counterpart(th)
	if th.Companion.Name != "Harbour Night Light" {
		t.Fatalf("companion %q", th.Companion.Name)
	}
	if !Rename(th, " Harbour\tat dusk ") || th.Name != "Harbour at dusk" || th.Companion.Name != "Harbour at dusk Light" {
		t.Errorf("renamed to %q, companion %q", th.Name, th.Companion.Name)
	}
	if Rename(th, "Harbour at dusk") || Rename(th, "  ") {
		t.Error("the same or an empty name counts as a rename")
	}
	th.Companion.Name = "Morning"
	Rename(th, "Dusk")
	if th.Companion.Name != "Morning" {
		t.Errorf("a companion with its own name was renamed: %q", th.Companion.Name)
	}
	out, err := Rewrite(ExampleJSON(), th)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := Parse(out); err != nil || back.Name != "Dusk" {
		t.Errorf("rewritten: %v %v", back, err)
	}
}
