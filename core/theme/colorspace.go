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
