// Package companion derives a theme's other appearance (its companion,
// theme.json's "companion"): the colours mirrored in OKLCH lightness, the
// palette followed as before, and every reading pair brought back to the
// contrast it had.
package companion

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"cdxtheme/core/colour"
	"cdxtheme/core/contrast"
	"cdxtheme/core/theme"
)

// counterpartBackground is where the mirrored background's OKLCH lightness
// lands: near-white paper for a light variant, a dark grey for a dark one
// (the lightness of the backgrounds of GitHub Light/Dark, Catppuccin
// Latte/Mocha and One Light/Dark lies near these).
var counterpartBackground = map[string]float64{"light": 0.97, "dark": 0.22}

// Counterpart derives the other appearance of t as a companion: every
// colour the document sets (roles, palette, terminal colours) has its OKLCH
// lightness mirrored about the point that takes the background to
// counterpartBackground, hue and chroma kept (chroma as far as sRGB
// allows); then every contrast pair that reaches AA (4.5:1) in t, or the
// ratio it has in t where that is less, is brought back to it by moving
// the foreground's lightness only (MakePass). Derived roles follow their
// rules; font styles and rules are kept; what an import kept verbatim
// (scheme slots, source colour spaces, per-target overrides) belongs to
// the original appearance and is not carried over.
func Counterpart(t *theme.Theme) *theme.Theme {
	c := t.Clone()
	c.Companion, c.Scheme, c.Spaces, c.Targets = nil, nil, nil, nil
	c.Appearance = theme.Opposite(t.Appearance)
	c.Name = theme.CompanionName(t.Name, c.Appearance)
	pivot := colour.ToOKLCH(t.UI.Background).L + counterpartBackground[c.Appearance]
	mirror := func(col theme.Color) theme.Color {
		o := colour.ToOKLCH(col)
		o.L = math.Max(0, math.Min(1, pivot-o.L))
		out := colour.FromOKLCH(o)
		out.A = col.A
		return out
	}
	for _, p := range theme.RolePaths() {
		if t.Has(p) && t.Follows(p) == "" {
			c.Set(p, mirror(t.Color(p)))
		}
	}
	if len(t.Palette) > 0 {
		c.Palette = make(map[string]theme.Color, len(t.Palette))
		for k, v := range t.Palette {
			c.Palette[k] = mirror(v)
		}
	}
	// The roles following the palette follow the mirrored palette: an
	// entry's mirror is its followers' mirror; a ramp is generated again
	// from its mirrored base, so a role following a step takes the step
	// nearest its own colour mirrored (a light theme's blue.100 tint
	// becomes a dark theme's deep blue, not another tint).
	for _, p := range slices.Sorted(maps.Keys(t.Refs)) {
		ref := t.Follows(p)
		if ref == "" {
			continue
		}
		name := t.Entry(ref)
		if r, ok := c.Ramps[name]; ok && ref != name {
			want := mirror(t.Color(p))
			cols := r.Colors(c.Palette[name])
			best := math.Inf(1)
			for _, s := range r.StepsOrDefault() {
				if d := colour.DeltaE(cols[s], want); d < best {
					best, ref = d, fmt.Sprintf("%s.%d", name, s)
				}
			}
		}
		if err := c.Attach(p, ref); err != nil {
			c.Set(p, mirror(t.Color(p)))
		}
	}
	// Each foreground against the strictest of its pairs; a derived one
	// its rule leaves short becomes the document's own colour.
	want := map[string]float64{}
	var order []string
	for _, chk := range contrast.Checks(t) {
		fg, _ := colour.Parse(chk.FG)
		bg, _ := colour.Parse(chk.BG)
		r := math.Min(colour.Ratio(fg, bg), 4.5)
		if _, ok := want[chk.FGRole]; !ok {
			order = append(order, chk.FGRole)
		}
		want[chk.FGRole] = math.Max(want[chk.FGRole], r)
	}
	for _, role := range order {
		if contrast.WorstRatio(c, role) >= want[role] {
			continue
		}
		if nc, err := contrast.MakePass(c, role, want[role]); err == nil {
			c.Set(role, nc)
		}
	}
	return c
}
