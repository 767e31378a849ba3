package themeimport

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"cdxtheme/core/colour"
	"cdxtheme/core/theme"
)

// An imported theme arrives as loose values. derivePalette turns it into a
// palette and references: every distinct colour the roles hold becomes an
// entry (so every role keeps its exact colour and every export is what it
// was), the entries are grouped into hue families by clustering in Oklab,
// and named after their family and lightness ("blue", "blue-light",
// "gray-900"); every role the document sets then follows its entry, so
// editing an imported theme's blue moves every place it is used.

// FamilyDistance is how far apart (ΔE in Oklab's a–b plane, ×100: the
// hue and chroma part of the difference, lightness left out) two colours
// may be and still be one family. Measured on the reference imports (6 VS
// Code themes, 8 base16/base24 schemes and terminal files, 8 iTerm2
// schemes: import_palette_test.go): of the 86 ANSI normal/bright pairs
// (one hue family each, usually differing most in lightness) 75 lie
// within 6 and 70 within 5, while of the 810 pairs of different ANSI hues
// only 14 do (10 % of those lie within 8.8); at 8 the wrong joins
// quadruple (54). Full ΔE including lightness separates them far worse:
// normal and bright differ by 8.9 at the median, different hues by 7.9 at
// the 2nd percentile.
const FamilyDistance = 6.0

// neutralChroma is the Oklab chroma below which a colour is a (tinted)
// grey: Catppuccin Mocha's text #cdd6f4 has 0.04, Nord's frost #88c0d0,
// the least saturated accent of the samples, 0.07.
const neutralChroma = 0.06

// DerivedEntry is one palette entry an import made: its name and colour and
// how many roles follow it.
type DerivedEntry struct {
	Name  string `json:"name"`
	Color string `json:"color"`
	Users int    `json:"users"`
}

// derivePalette gives t a palette of its roles' colours with the roles
// following it; t's colours do not change. It returns the entries, in
// name order.
func derivePalette(t *theme.Theme) []DerivedEntry {
	uses := map[theme.Color]int{}
	var order []theme.Color // first use, for a stable result
	for _, p := range theme.RolePaths() {
		if !t.Has(p) {
			continue
		}
		c := t.Color(p)
		if uses[c] == 0 {
			order = append(order, c)
		}
		uses[c]++
	}
	names := nameColors(order, uses)
	t.Palette = map[string]theme.Color{}
	t.Refs = map[string]string{}
	for c, n := range names {
		t.Palette[n] = c
	}
	for _, p := range theme.RolePaths() {
		if t.Has(p) {
			t.Refs[p] = names[t.Color(p)]
		}
	}
	out := make([]DerivedEntry, 0, len(names))
	for c, n := range names {
		out = append(out, DerivedEntry{Name: n, Color: c.String(), Users: uses[c]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// family is a cluster of colours of one hue.
type hueFamily struct {
	a, b    float64 // centroid in Oklab's a–b plane, weighted by use
	weight  float64
	members []theme.Color
}

// nameColors clusters colours into hue families and names each.
func nameColors(colors []theme.Color, uses map[theme.Color]int) map[theme.Color]string {
	// The most used first: they anchor the families.
	sorted := append([]theme.Color(nil), colors...)
	sort.SliceStable(sorted, func(i, j int) bool { return uses[sorted[i]] > uses[sorted[j]] })
	var fams []*hueFamily
	var greys []theme.Color
	for _, c := range sorted {
		_, a, b := theme.OKLab(c)
		if math.Hypot(a, b) < neutralChroma {
			greys = append(greys, c)
			continue
		}
		var best *hueFamily
		bestD := FamilyDistance
		for _, f := range fams {
			if d := 100 * math.Hypot(f.a-a, f.b-b); d < bestD {
				best, bestD = f, d
			}
		}
		if best == nil {
			best = &hueFamily{}
			fams = append(fams, best)
		}
		w := float64(uses[c])
		best.a = (best.a*best.weight + a*w) / (best.weight + w)
		best.b = (best.b*best.weight + b*w) / (best.weight + w)
		best.weight += w
		best.members = append(best.members, c)
	}
	taken := map[string]bool{}
	unique := func(n string) string {
		if !taken[n] {
			taken[n] = true
			return n
		}
		for i := 2; ; i++ {
			if m := n + "-" + strconv.Itoa(i); !taken[m] {
				taken[m] = true
				return m
			}
		}
	}
	out := map[theme.Color]string{}
	// Name the heaviest families first, so "blue" goes to the theme's main
	// blue and a second, smaller blue family is "blue-2".
	sort.SliceStable(fams, func(i, j int) bool { return fams[i].weight > fams[j].weight })
	// Greys by lightness on Tailwind's scale, as designers name neutrals
	// ("gray-900" a near-black, "gray-100" a near-white), lightest first.
	sort.SliceStable(greys, func(i, j int) bool { return theme.ToOKLCH(greys[i]).L > theme.ToOKLCH(greys[j]).L })
	for _, c := range greys {
		n := fmt.Sprintf("gray-%d", lightnessStep(theme.ToOKLCH(c).L))
		if c.A != 255 {
			n += fmt.Sprintf("-a%d", alphaPct(c))
		}
		out[c] = unique(n)
	}
	for _, f := range fams {
		base := unique(hueName(math.Atan2(f.b, f.a) * 180 / math.Pi))
		var opaque, clear []theme.Color
		for _, c := range f.members {
			if c.A == 255 {
				opaque = append(opaque, c)
			} else {
				clear = append(clear, c)
			}
		}
		// The most used member is the family's own name; lighter and
		// darker ones are named from it outward ("blue-light",
		// "blue-light-2", "blue-dark").
		if len(opaque) > 0 {
			main := 0
			for i, c := range opaque {
				if uses[c] > uses[opaque[main]] {
					main = i
				}
			}
			m := opaque[main]
			out[m] = base
			ml := theme.ToOKLCH(m).L
			var lighter, darker []theme.Color
			for i, c := range opaque {
				switch {
				case i == main:
				case theme.ToOKLCH(c).L >= ml:
					lighter = append(lighter, c)
				default:
					darker = append(darker, c)
				}
			}
			sort.SliceStable(lighter, func(i, j int) bool { return theme.ToOKLCH(lighter[i]).L < theme.ToOKLCH(lighter[j]).L })
			sort.SliceStable(darker, func(i, j int) bool { return theme.ToOKLCH(darker[i]).L > theme.ToOKLCH(darker[j]).L })
			for _, c := range lighter {
				out[c] = unique(base + "-light")
			}
			for _, c := range darker {
				out[c] = unique(base + "-dark")
			}
		}
		for _, c := range clear {
			out[c] = unique(fmt.Sprintf("%s-a%d", base, alphaPct(c)))
		}
	}
	return out
}

func alphaPct(c theme.Color) int { return int(math.Round(float64(c.A) * 100 / 255)) }

// lightnessStep is the step of Tailwind's scale (in 50s, 50…950) whose
// default ramp lightness is nearest l.
func lightnessStep(l float64) int {
	best, bestD := 50, math.Inf(1)
	for s := 50; s <= 950; s += 50 {
		if d := math.Abs(colour.RampLightness(s) - l); d < bestD {
			best, bestD = s, d
		}
	}
	return best
}

// hueName names an Oklab hue angle (degrees) after the colour a designer
// would call it; the bounds sit between Tailwind CSS v4's scales' hues.
func hueName(h float64) string {
	if h < 0 {
		h += 360
	}
	for _, b := range []struct {
		upTo float64
		name string
	}{
		{10, "pink"}, {40, "red"}, {70, "orange"}, {110, "yellow"}, {135, "lime"}, {170, "green"},
		{200, "teal"}, {235, "cyan"}, {270, "blue"}, {290, "indigo"}, {315, "purple"}, {340, "magenta"},
	} {
		if h < b.upTo {
			return b.name
		}
	}
	return "pink"
}
