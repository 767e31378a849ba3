// Package buildcard is a build as Home shows it: its theme's name, a few
// swatches, when it changed and its status (a turn running, no theme yet,
// a theme that does not validate, one whose contrast pairs fail AA, or
// ready).
package buildcard

import (
	"time"

	"cdxtheme/core/theme"
	"cdxtheme/core/themewatch"
	"cdxtheme/core/workspace"
)

// The statuses shown on a build's card.
const (
	Working = "working" // a turn runs in it now
	NoTheme = "empty"   // no theme.json yet
	Invalid = "invalid" // theme.json does not validate
	Failing = "failing" // valid, but some contrast pairs fail AA
	Ready   = "ready"   // valid, every pair passes AA
)

// Card is one build as Home shows it.
type Card struct {
	workspace.Meta
	Name     string    `json:"name"`     // the theme's own name, "" without a theme
	Swatches []string  `json:"swatches"` // #rrggbb, checked by Go: safe to put in a style
	Changed  time.Time `json:"changed" ts_type:"string"`
	Status   string    `json:"status"`
	Failing  int       `json:"failing"` // contrast pairs below AA
}

// Of is the card of build m, whose theme.json is st; busy: a turn runs
// in it now.
func Of(m workspace.Meta, st themewatch.State, busy bool) Card {
	c := Card{Meta: m, Swatches: []string{}, Changed: m.Changed()}
	switch {
	case busy:
		c.Status = Working
	case st.Error != "":
		c.Status = Invalid
	case st.Theme == nil:
		c.Status = NoTheme
	default:
		for _, ch := range st.Checks {
			if !ch.AA {
				c.Failing++
			}
		}
		c.Status = Ready
		if c.Failing > 0 {
			c.Status = Failing
		}
	}
	if t := st.Theme; t != nil {
		c.Name = t.Name
		for _, col := range []theme.Color{t.UI.Background, t.UI.Surface, t.UI.Text, t.UI.Accent,
			t.Syntax.Keyword, t.Syntax.String, t.Syntax.Function, t.Syntax.Type, t.UI.Error} {
			c.Swatches = append(c.Swatches, col.Hex())
		}
	}
	return c
}
