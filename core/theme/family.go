package theme

import (
	"fmt"
	"math"
	"strings"
)

// A theme can carry its other appearance: theme.json's "companion" is a
// whole theme document (same fields, no companion of its own) of the
// opposite appearance and another name. The pair is one family: the
// formats that hold several themes (a VS Code extension, a Zed theme
// family, the .vsix and the Zed extension) carry both in one package; every
// other format writes the companion's files beside the theme's, under its
// own name; Apply installs both where a program keeps a folder of themes.
// The one file keeps one source of colour for both variants, and the
// checkpoints, the watcher and the agent's rules cover both as they are.

// Family is the theme and its companion, the theme first.
func (t *Theme) Family() []*Theme {
	if t.Companion == nil {
		return []*Theme{t}
	}
	return []*Theme{t, t.Companion}
}

// Opposite is the other appearance.
func Opposite(appearance string) string {
	if appearance == "light" {
		return "dark"
	}
	return "light"
}

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
func Counterpart(t *Theme) *Theme {
	c := t.Clone()
	c.Companion, c.Scheme, c.Spaces, c.Targets = nil, nil, nil, nil
	c.Appearance = Opposite(t.Appearance)
	c.Name = counterpartName(t.Name, c.Appearance)
	pivot := ToOKLCH(t.UI.Background).L + counterpartBackground[c.Appearance]
	mirror := func(col Color) Color {
		o := ToOKLCH(col)
		o.L = math.Max(0, math.Min(1, pivot-o.L))
		out := FromOKLCH(o)
		out.A = col.A
		return out
	}
	for _, p := range RolePaths() {
		if t.Has(p) && t.Follows(p) == "" {
			c.Set(p, mirror(t.Color(p)))
		}
	}
	if len(t.Palette) > 0 {
		c.Palette = make(map[string]Color, len(t.Palette))
		for k, v := range t.Palette {
			c.Palette[k] = mirror(v)
		}
	}
	// The roles following the palette follow the mirrored palette: an
	// entry's mirror is its followers' mirror; a ramp is generated again
	// from its mirrored base, so a role following a step takes the step
	// nearest its own colour mirrored (a light theme's blue.100 tint
	// becomes a dark theme's deep blue, not another tint).
	for _, p := range sortedKeys(t.Refs) {
		ref := t.Follows(p)
		if ref == "" {
			continue
		}
		name := t.Entry(ref)
		if r, ok := c.Ramps[name]; ok && ref != name {
			want := mirror(t.Color(p))
			cols := RampColors(c.Palette[name], r)
			best := math.Inf(1)
			for _, s := range r.steps() {
				if d := DeltaE(cols[s], want); d < best {
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
	for _, chk := range Checks(t) {
		fg, _ := ParseColor(chk.FG)
		bg, _ := ParseColor(chk.BG)
		r := math.Min(Ratio(fg, bg), 4.5)
		if _, ok := want[chk.FGRole]; !ok {
			order = append(order, chk.FGRole)
		}
		want[chk.FGRole] = math.Max(want[chk.FGRole], r)
	}
	for _, role := range order {
		if worstRatio(c, role) >= want[role] {
			continue
		}
		if nc, err := MakePass(c, role, want[role]); err == nil {
			c.Set(role, nc)
		}
	}
	return c
}

// counterpartName swaps a trailing "Dark"/"Light" for the other word, or
// adds it: "Harbour Night" → "Harbour Night Light", "Dusk Dark" → "Dusk Light".
func counterpartName(name, appearance string) string {
	word := map[string]string{"light": "Light", "dark": "Dark"}
	other := word[Opposite(appearance)]
	if base, ok := strings.CutSuffix(name, " "+other); ok {
		return base + " " + word[appearance]
	}
	return name + " " + word[appearance]
}

// checkCompanion reports what makes c unfit as t's companion.
func checkCompanion(d *decoder, t, c *Theme) {
	if c.Appearance == t.Appearance {
		d.add("companion.appearance", "%q is the theme's own appearance; the companion is the other one (%q)", c.Appearance, Opposite(t.Appearance))
	}
	if Slug(c.Name) == Slug(t.Name) {
		d.add("companion.name", "%q names the theme itself; give the companion its own name (exports name their files after it)", c.Name)
	}
}

// renderEach renders a format that holds one theme for every member of a
// family: the companion's files beside the theme's, under its own name.
func renderEach(render func(*Theme) (map[string][]byte, error)) func([]*Theme) (map[string][]byte, error) {
	return func(fam []*Theme) (map[string][]byte, error) {
		out := map[string][]byte{}
		for _, t := range fam {
			files, err := render(t)
			if err != nil {
				return nil, err
			}
			for name, data := range files {
				if _, dup := out[name]; dup {
					return nil, fmt.Errorf("%s and %s both write %s: give them names that differ in letters or digits", fam[0].Name, t.Name, name)
				}
				out[name] = data
			}
		}
		return out, nil
	}
}
