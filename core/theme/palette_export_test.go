package theme_test

import (
	"bytes"
	"slices"
	"testing"

	_ "cdxtheme/core/packaging" // the .vsix and the Zed extension
	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
)

// Every export of a theme whose roles name palette entries is the export of
// the same theme with the colours written out, before and after an entry
// changes: no format sees a name, and editing the entry moves every role
// following it in every format.
func TestExportsResolvePaletteNamesAndFollowAnEditedEntry(t *testing.T) {
	th, err := theme.Parse(theme.PaletteDoc(t))
	if err != nil {
		t.Fatal(err)
	}
	th.Companion = theme.OtherAppearance(th)
	orange, _ := theme.ParseColor("#ff8800")
	edited := th.Clone()
	moved, err := edited.SetEntry("blue", orange)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(moved, []string{"ui.accent", "ui.selection", "syntax.function", "ansi.blue"}) {
		t.Fatalf("moved %v", moved)
	}
	// What a designer would have had to do by hand without the palette.
	byHand := theme.Twin(th)
	for _, p := range moved {
		byHand.Set(p, edited.Color(p))
	}
	byHand.Palette = edited.Palette
	for _, f := range targets.Formats {
		t.Run(f.ID, func(t *testing.T) {
			before, err := targets.Render(th, f.ID)
			if err != nil {
				t.Fatal(err)
			}
			plain, _ := targets.Render(theme.Twin(th), f.ID)
			after, err := targets.Render(edited, f.ID)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := targets.Render(byHand, f.ID)
			for name := range plain {
				if !bytes.Equal(before[name], plain[name]) {
					t.Errorf("%s differs from the export of the same colours written out", name)
				}
				if !bytes.Equal(after[name], want[name]) {
					t.Errorf("%s after the entry changed is not the export with each following role changed", name)
				}
			}
			same := true
			for name := range before {
				same = same && bytes.Equal(before[name], after[name])
			}
			if same {
				t.Error("changing the entry changed nothing in the export")
			}
		})
	}
}
