package contrast

import (
	"fmt"
	"math"
	"strings"

	"cdxtheme/core/colour"
	"cdxtheme/core/theme"
)

// PairsAt is Pairs for a colour path of either document: the pairs of the
// role (or of the roles holding the palette entry's colour), each once,
// their roles named as path names them (with "companion." for the
// companion's).
func PairsAt(t *theme.Theme, path string) []Check {
	doc, rest := t.At(path)
	if doc == nil {
		return nil
	}
	roles := []string{rest}
	if name, ok := strings.CutPrefix(rest, theme.PalettePrefix); ok {
		roles = theme.PaletteUsers(doc, name)
	}
	prefix := prefixOf(path)
	out := []Check{}
	seen := map[string]bool{}
	for _, r := range roles {
		for _, p := range Pairs(doc, r) {
			if k := p.FGRole + "|" + p.BGRole; !seen[k] {
				seen[k] = true
				p.FGRole, p.BGRole = prefix+p.FGRole, prefix+p.BGRole
				out = append(out, p)
			}
		}
	}
	return out
}

// Pairs returns the contrast checks a role takes part in, as foreground or
// background, in Checks' order.
func Pairs(t *theme.Theme, role string) []Check {
	var out []Check
	for _, c := range Checks(t) {
		if c.FGRole == role || c.BGRole == role {
			out = append(out, c)
		}
	}
	return out
}

// WorstRatio is the lowest exact ratio among a role's pairs, +Inf when it
// takes part in none.
func WorstRatio(t *theme.Theme, role string) float64 {
	worst := math.Inf(1)
	for _, c := range Pairs(t, role) {
		fg, _ := colour.Parse(c.FG)
		bg, _ := colour.Parse(c.BG)
		worst = math.Min(worst, colour.Ratio(fg, bg))
	}
	return worst
}

// MakePass is the colour for role nearest its own in OKLCH lightness (hue
// and chroma kept) at which every pair the role takes part in reaches
// target; a "companion." role is the companion's, measured against its
// pairs there. t is not changed.
func MakePass(t *theme.Theme, role string, target float64) (theme.Color, error) {
	if doc, rest := t.At(role); doc != t {
		if doc == nil {
			return theme.Color{}, theme.NoCompanion(role)
		}
		c, err := makePass(doc, rest, target)
		if err != nil {
			err = fmt.Errorf("%s%w", theme.CompanionPrefix, err)
		}
		return c, err
	}
	return makePass(t, role, target)
}

func makePass(t *theme.Theme, role string, target float64) (theme.Color, error) {
	if _, ok := theme.RoleByPath(role); !ok {
		return theme.Color{}, fmt.Errorf("%s: no such colour role", role)
	}
	cur := t.Color(role)
	if len(Pairs(t, role)) == 0 {
		return cur, fmt.Errorf("%s takes part in no contrast pair", role)
	}
	trial := t.Clone()
	c, ok := colour.NearestPassing(cur, target, func(cand theme.Color) float64 {
		trial.Set(role, cand)
		return WorstRatio(trial, role)
	})
	if !ok {
		return cur, fmt.Errorf("%s: no lightness reaches %.2f:1 against every colour it is paired with; change those colours first", role, target)
	}
	return c, nil
}

// prefixOf is what goes before a path within the document path addresses
// to name it from the theme: "companion." or "".
func prefixOf(path string) string {
	if companion, _ := theme.Split(path); companion {
		return theme.CompanionPrefix
	}
	return ""
}
