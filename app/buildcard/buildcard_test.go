package buildcard

import (
	"testing"

	"cdxtheme/core/theme"
	"cdxtheme/core/themewatch"
	"cdxtheme/core/workspace"
)

// A card says a turn is running before anything else, then whether the
// theme is missing or broken, and counts the contrast pairs below AA;
// its swatches are the theme's own colours.
func TestCardStatus(t *testing.T) {
	valid := themewatch.StateOf(theme.ExampleJSON())
	if valid.Theme == nil {
		t.Fatal("the example theme does not load")
	}
	m := workspace.Meta{ID: "b1"}
	if c := Of(m, themewatch.State{Error: "broken"}, true); c.Status != Working {
		t.Errorf("a running build shows %q", c.Status)
	}
	if c := Of(m, themewatch.State{Error: "broken"}, false); c.Status != Invalid || len(c.Swatches) != 0 {
		t.Errorf("a broken theme: %+v", c)
	}
	if c := Of(m, themewatch.State{}, false); c.Status != NoTheme {
		t.Errorf("no theme: %q", c.Status)
	}
	c := Of(m, valid, false)
	failing := 0
	for _, ch := range valid.Checks {
		if !ch.AA {
			failing++
		}
	}
	if c.Failing != failing || (failing == 0) != (c.Status == Ready) || c.Name != valid.Theme.Name ||
		len(c.Swatches) != 9 || c.Swatches[0] != valid.Theme.UI.Background.Hex() {
		t.Errorf("a valid theme: %+v", c)
	}
}
