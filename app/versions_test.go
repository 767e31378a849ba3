package app

import (
	"slices"
	"testing"

	"cdxtheme/core/theme"
	"cdxtheme/core/workspace"
	"cdxtheme/internal/testrig/acpstub"
)

// A designer saves a version, changes the theme, and compares: the version
// against now, and two builds against each other; the roles that differ
// are named.
func TestVersionsCompareWithNowAndAcrossBuilds(t *testing.T) {
	a, _ := newStubApp(t, acpstub.New())
	doc, err := theme.Example().MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	one, err := workspace.CreateWithTheme(workspace.Root(), "One", doc)
	if err != nil {
		t.Fatal(err)
	}
	two, err := workspace.CreateWithTheme(workspace.Root(), "Two", doc)
	if err != nil {
		t.Fatal(err)
	}
	v, err := a.Themes.SaveVersion(one.ID, "Before the orange")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Editor.SetPaletteEntry(PaletteEntryRequest{WorkspaceID: one.ID, Name: "tide", Hex: "#ff8800"}); err != nil {
		t.Fatal(err)
	}
	list, err := a.Themes.Versions(one.ID)
	if err != nil || len(list) != 1 || list[0].Name != "Before the orange" {
		t.Fatalf("versions %+v %v", list, err)
	}
	cmp, err := a.Themes.CompareThemes(ThemeRef{WorkspaceID: one.ID, VersionID: v.ID}, ThemeRef{WorkspaceID: one.ID})
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Before.Label != "Before the orange" || !slices.Contains(cmp.Changed, "ui.accent") || !slices.Contains(cmp.Changed, "palette.tide") && !slices.Contains(cmp.Changed, "ansi.blue") {
		t.Fatalf("version against now: label %q changed %v", cmp.Before.Label, cmp.Changed)
	}
	across, err := a.Themes.CompareThemes(ThemeRef{WorkspaceID: two.ID}, ThemeRef{WorkspaceID: one.ID})
	if err != nil || !slices.Contains(across.Changed, "ui.accent") || across.Before.Label != "Two" {
		t.Fatalf("two builds: %+v %v", across.Changed, err)
	}
	same, _ := a.Themes.CompareThemes(ThemeRef{WorkspaceID: two.ID}, ThemeRef{WorkspaceID: one.ID, VersionID: v.ID})
	if len(same.Changed) != 0 {
		t.Errorf("the saved version and the untouched build differ in %v", same.Changed)
	}
	if _, err := a.Themes.CompareThemes(ThemeRef{WorkspaceID: one.ID, VersionID: "20000101-000000000"}, ThemeRef{WorkspaceID: one.ID}); err == nil {
		t.Error("a missing version compared")
	}
}
