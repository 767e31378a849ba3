package themeimport

import (
	"testing"

	"cdxtheme/core/colour"
	"cdxtheme/core/contrast"
	"cdxtheme/core/theme"
)

// The AA line is 4.5:1 itself: the closest 8-bit colours on white on either
// side of it (4.49999985 and 4.50000064, both shown as 4.5) fall on the
// sides they measure.
func TestAABoundaryOnWhite(t *testing.T) {
	for _, tc := range []struct {
		fg     string
		wantAA bool
	}{{"#9a6c5a", false}, {"#7c7290", true}} {
		th := theme.Example()
		th.UI.Background = mustColor(t, "#ffffff")
		th.UI.Text = mustColor(t, tc.fg)
		for _, c := range contrast.Checks(th) {
			if c.FGRole == "ui.text" && c.BGRole == "ui.background" && c.AA != tc.wantAA {
				t.Errorf("%s on white (%.8f): AA = %v, want %v", tc.fg, colour.Ratio(th.UI.Text, th.UI.Background), c.AA, tc.wantAA)
			}
		}
	}
}

// A light terminal theme with no foreground and a white ANSI white (as
// light themes have) must not get white text: on a light background the
// text is dark, whatever ansi.white says.
func TestLightTerminalThemeWithoutForegroundGetsReadableText(t *testing.T) {
	imp, err := Import("light.conf", []byte("background #fdfdfd\ncolor7 #ffffff\ncolor15 #f4f4f4\n"))
	if err != nil {
		t.Fatal(err)
	}
	th := imp.Theme
	if r := colour.Ratio(th.UI.Text, th.UI.Background); r < contrast.AA {
		t.Fatalf("ui.text %s on %s is %.2f:1, unreadable", th.UI.Text.Hex(), th.UI.Background.Hex(), r)
	}
}
