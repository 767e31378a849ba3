package theme

import (
	"slices"
	"strings"
	"testing"
)

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
	th.Companion = otherAppearance(th)
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
