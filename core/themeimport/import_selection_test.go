package themeimport

import (
	"strings"
	"testing"

	"cdxtheme/core/colour"
	"cdxtheme/core/contrast"
	"cdxtheme/core/theme"
)

// Issue #37: a terminal whose selection is its foreground (reverse video,
// its own selection text black) painted the editor's selection so that
// ui.text read at 1.00:1 on it. The import keeps ui.text at AA on the
// selection, tinted from the terminal's selection, and keeps the terminal's
// selected text readable too.
func TestTerminalImportKeepsTextReadableOnTheSelection(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"kitty.conf", "foreground #c0c0c0\nbackground #101010\nselection_foreground #101010\nselection_background #c0c0c0\ncolor4 #3070e0\n"},
		{"light.conf", "foreground #202020\nbackground #fafafa\nselection_foreground #fafafa\nselection_background #202020\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			im, err := Import(tc.name, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			th := im.Theme
			bg := th.UI.Background.Over(theme.Color{A: 255})
			sel := th.UI.Selection.Over(bg)
			if r := colour.Ratio(th.UI.Text, sel); r < contrast.AA {
				t.Errorf("ui.text on ui.selection is %.2f:1, want at least %.1f", r, contrast.AA)
			}
			if sel == bg {
				t.Errorf("the selection is the background itself (%s): a selection must show", sel.Hex())
			}
			// A tint of the terminal's selection: closer to it than the background is.
			src, _ := colour.ParseLoose(strings.Fields(strings.Split(tc.src, "selection_background ")[1])[0])
			if dist(sel, src) >= dist(bg, src) {
				t.Errorf("selection %s is not drawn from the terminal's %s", sel.Hex(), src.Hex())
			}
			if r := colour.Ratio(th.Color("terminal.selectionText"), sel); r < contrast.AA {
				t.Errorf("terminal.selectionText on the selection is %.2f:1", r)
			}
			if !strings.Contains(strings.Join(im.Warnings, "\n"), "leaves ui.text at 1.00:1") {
				t.Errorf("the change is not said: %q", im.Warnings)
			}
		})
	}
	// A readable selection is kept as the source gave it.
	im, err := Import("ok.conf", []byte("foreground #c0caf5\nbackground #1a1b26\nselection_background #283457\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := im.Theme.UI.Selection.Hex(); got != "#283457" {
		t.Errorf("a readable selection was changed to %s", got)
	}
}

func dist(a, b theme.Color) int {
	d := func(x, y uint8) int {
		if x > y {
			return int(x - y)
		}
		return int(y - x)
	}
	return d(a.R, b.R) + d(a.G, b.G) + d(a.B, b.B)
}
