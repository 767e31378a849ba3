package theme

import (
	"encoding/json"
	"fmt"
	"math"
)

// SourceColor is a colour as its source file gave it, in the colour space
// it was given in (theme.json "spaces", keyed by role path, and
// targets.iterm2). The role holds the sRGB colour the designer sees;
// SRGB is what Components converted to on import, so an exporter that
// can write the original space (iTerm2) writes Components back only while
// the role still equals SRGB, i.e. the designer has not changed it.
type SourceColor struct {
	// Space is iTerm2's name for it: "P3" (Display P3), "Calibrated"
	// (generic RGB) or "sRGB".
	Space string `json:"space"`
	// Components are red, green, blue and alpha, 0–1, as written.
	Components []float64 `json:"components"`
	SRGB       Color     `json:"srgb"`
}

// ColorSpaces are the values of SourceColor.Space.
var ColorSpaces = []string{"P3", "Calibrated", "sRGB"}

// toSRGB converts components in a colour space to an sRGB colour.
//
// Display P3 goes through linear light with the P3→sRGB matrix of
// iTerm2-Color-Schemes' tools/gen.py (commit 4cbae62), clamped there, and
// rounds half to even as that generator (Python's round) does, so an
// imported scheme matches the files it generated exactly.
//
// Calibrated (iTerm2's NSCalibratedRGB, generic RGB; a colour without a
// "Color Space" key is calibrated, NSColor+iTerm.h: "Optional, defaults to
// calibrated") is taken numerically as sRGB. That is what the same
// generator does for every calibrated scheme it publishes, and generic RGB
// differs from sRGB by a few units per channel at most on the colours
// themes use; the importer says so in a warning, and the original
// components and label are kept, so the iTerm2 export writes them back and
// iTerm2 shows the colour exactly as before.
func toSRGB(space string, r, g, b, a float64) Color {
	if space == "P3" {
		r, g, b = p3ToSRGB(r, g, b)
	}
	to8 := func(f float64) uint8 { return uint8(math.RoundToEven(math.Min(1, math.Max(0, f)) * 255)) }
	return Color{R: to8(r), G: to8(g), B: to8(b), A: to8(a)}
}

func p3ToSRGB(r, g, b float64) (float64, float64, float64) {
	lin := func(c float64) float64 {
		if c < 0.04045 {
			return c / 12.92
		}
		return math.Pow((c+0.055)/1.055, 2.4)
	}
	gamma := func(c float64) float64 {
		c = math.Max(0, math.Min(1, c))
		if c < 0.0031308 {
			return 12.92 * c
		}
		return 1.055*math.Pow(c, 1/2.4) - 0.055
	}
	lr, lg, lb := lin(r), lin(g), lin(b)
	return gamma(1.22494018*lr - 0.22469880*lg - 0.00012973*lb),
		gamma(-0.04205631*lr + 1.04203282*lg - 0.00000601*lb),
		gamma(-0.01963755*lr - 0.07862814*lg + 1.09826365*lb)
}

func (d *decoder) sourceColor(path string, raw json.RawMessage) (SourceColor, bool) {
	obj := d.object(path, raw)
	if obj == nil {
		return SourceColor{}, false
	}
	d.unknown(path, obj, []string{"space", "components", "srgb"})
	var s SourceColor
	n := len(d.probs)
	if v, ok := obj["space"]; ok {
		s.Space = d.str(path+".space", v)
		if !d.failedAt(path+".space") && !contains(ColorSpaces, s.Space) {
			d.add(path+".space", "%q is not one of %s", s.Space, quoteList(ColorSpaces))
		}
	} else {
		d.add(path+".space", "required")
	}
	if v, ok := obj["components"]; ok {
		if err := json.Unmarshal(v, &s.Components); err != nil || len(s.Components) != 4 {
			d.add(path+".components", "want [red, green, blue, alpha], four numbers 0–1")
		}
		for i, c := range s.Components {
			if c < 0 || c > 1 || math.IsNaN(c) {
				d.add(fmt.Sprintf("%s.components[%d]", path, i), "%v is outside 0–1", c)
			}
		}
	} else {
		d.add(path+".components", "required")
	}
	if v, ok := obj["srgb"]; ok {
		s.SRGB, _ = d.color(path+".srgb", v)
	} else {
		d.add(path+".srgb", "required")
	}
	return s, len(d.probs) == n
}

func (d *decoder) spaces(raw json.RawMessage) map[string]SourceColor {
	obj := d.object("spaces", raw)
	if obj == nil {
		return nil
	}
	out := make(map[string]SourceColor, len(obj))
	paths := RolePaths()
	for _, k := range sortedKeys(obj) {
		if !contains(paths, k) {
			if s := suggest(k, paths); s != "" {
				d.add("spaces."+k, "not a role path (did you mean %q?)", s)
			} else {
				d.add("spaces."+k, "not a role path such as \"ui.background\" or \"ansi.red\"")
			}
			continue
		}
		if s, ok := d.sourceColor("spaces."+k, obj[k]); ok {
			out[k] = s
		}
	}
	return out
}
