package editing

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"cdxtheme/core/contrast"
	"cdxtheme/core/handedit"
	"cdxtheme/core/theme"
)

// Role is one colour the editor lists: a role of the theme or a
// palette entry, with its colour and whether it is locked; or one of its
// companion's, whose Path starts with "companion." (theme.Split).
type Role struct {
	Path  string `json:"path"`
	Label string `json:"label"`
	// Companion is true for a colour of the theme's companion.
	Companion bool `json:"companion,omitempty"`
	// Group is "palette" or the catalogue's group (theme.Groups);
	// Section is the catalogue's heading within it, Help what it paints.
	Group   string `json:"group"`
	Section string `json:"section"`
	Help    string `json:"help"`
	Color   string `json:"color"`
	Locked  bool   `json:"locked"`
	// Derived roles take their colour from Rule (in words) until the
	// designer sets one; setting it gives the role its own colour.
	Derived bool   `json:"derived"`
	Rule    string `json:"rule,omitempty"`
	// Users are, for a palette entry, the roles following it (or a step of
	// its ramp).
	Users []string `json:"users,omitempty"`
	// Follows is, for a role, the palette reference it follows ("blue",
	// "blue.600"; theme.Theme.Follows); "" when it has its own colour.
	Follows string `json:"follows,omitempty"`
	// Steps are, for a ramp entry, its steps in order ("blue.50" …) with
	// their colours and followers.
	Steps []theme.PaletteSwatch `json:"steps,omitempty"`
}

// Roles are the colours the editor lists for t: its palette entries and
// catalogue roles, then its companion's, each with its lock from l.
func Roles(t *theme.Theme, l *handedit.Log) []Role {
	out := roles(nil, t, "", l)
	if t.Companion != nil {
		out = roles(out, t.Companion, theme.CompanionPrefix, l)
	}
	return out
}

// roles appends the palette entries and catalogue roles of doc, the
// theme or its companion, their paths starting with prefix ("" or
// "companion.").
func roles(out []Role, doc *theme.Theme, prefix string, l *handedit.Log) []Role {
	companion := prefix != ""
	swatches := doc.Swatches()
	names := make([]string, 0, len(doc.Palette))
	for k := range doc.Palette {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, n := range names {
		p := prefix + theme.PalettePrefix + n
		_, locked := l.Locked[p]
		users := theme.PaletteUsers(doc, n)
		for i := range users {
			users[i] = prefix + users[i]
		}
		r := Role{Path: p, Label: n, Group: "palette", Color: doc.Palette[n].String(),
			Locked: locked, Users: users, Companion: companion}
		for _, sw := range swatches {
			if sw.Entry == n && sw.Step != 0 {
				for i := range sw.Users {
					sw.Users[i] = prefix + sw.Users[i]
				}
				r.Steps = append(r.Steps, sw)
			}
		}
		out = append(out, r)
	}
	for _, info := range theme.Catalogue() {
		p := prefix + info.Path
		_, locked := l.Locked[p]
		r := Role{Path: p, Label: info.Label, Group: info.Group, Section: info.Section, Help: info.Help,
			Color: doc.Color(info.Path).String(), Locked: locked, Derived: !doc.Has(info.Path), Companion: companion,
			Follows: doc.Follows(info.Path)}
		if r.Derived {
			if rule, ok := doc.RuleFor(info.Path); ok {
				r.Rule = rule.String()
			}
		}
		out = append(out, r)
	}
	return out
}

// Trial is a colour tried for a role before it is written: its hex and
// OKLCH values and the contrast pairs the role would then have.
type Trial struct {
	Path  string           `json:"path"`
	Hex   string           `json:"hex"`
	OKLCH theme.OKLCH      `json:"oklch"`
	Pairs []contrast.Check `json:"pairs"`
	// Theme is the whole theme with the colour in place, which the preview
	// shows while the picker moves (the page never patches a document).
	Theme *theme.Theme `json:"theme" ts_type:"{[key: string]: unknown}"`
	// Roles are every role as the trial paints it, derived ones included,
	// so the preview follows the rules while the picker moves;
	// CompanionRoles the same for the companion (when the theme has one),
	// which a companion path's trial changes instead.
	Roles          []theme.RoleValue `json:"roles"`
	CompanionRoles []theme.RoleValue `json:"companionRoles,omitempty"`
}

// TryColor measures a colour for path in t without writing it: hexColor,
// or the OKLCH sliders' colour when it is "" (keeping the colour's
// translucency).
func TryColor(t *theme.Theme, path, hexColor string, oklch *theme.OKLCH) (Trial, error) {
	var c theme.Color
	var err error
	switch {
	case hexColor != "":
		if c, err = theme.ParseColor(strings.TrimSpace(hexColor)); err != nil {
			return Trial{}, err
		}
	case oklch != nil:
		c = theme.FromOKLCH(*oklch)
		if cur, ok := handedit.ColorAt(t, path); ok {
			c.A = cur.A // the sliders set the colour, not its translucency
		}
	default:
		return Trial{}, errors.New("no colour to try")
	}
	return trialOf(t, path, c)
}

// MakePass finds the colour for path nearest its own in OKLCH lightness
// (hue and chroma kept) at which all its pairs reach target; nothing is
// written.
func MakePass(t *theme.Theme, path string, target float64) (Trial, error) {
	if target < 1 || target > 21 {
		return Trial{}, fmt.Errorf("target ratio %.2f is outside 1…21", target)
	}
	c, err := contrast.MakePass(t, path, target)
	if err != nil {
		return Trial{}, err
	}
	return trialOf(t, path, c)
}

// trialOf is the colour c tried for path in t.
func trialOf(t *theme.Theme, path string, c theme.Color) (Trial, error) {
	trial := t.Clone()
	if _, err := theme.SetColor(trial, path, c); err != nil {
		return Trial{}, err
	}
	out := Trial{Path: path, Hex: c.String(), OKLCH: theme.ToOKLCH(c), Pairs: contrast.PairsAt(trial, path), Theme: trial, Roles: trial.Values()}
	if trial.Companion != nil {
		out.CompanionRoles = trial.Companion.Values()
	}
	return out, nil
}
