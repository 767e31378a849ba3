package theme

import "cdxtheme/core/colour"

// Anchor is the step a ramp's base colour is: r.At, else the step whose
// default lightness is nearest the base's.
func (r Ramp) Anchor(base Color) int {
	if r.At != 0 {
		return r.At
	}
	return colour.RampAnchor(base, r.StepsOrDefault())
}

// Colors are the ramp's steps generated from its base (colour.Ramp): the
// base is its anchor step exactly.
func (r Ramp) Colors(base Color) map[int]Color {
	return colour.Ramp(base, r.Anchor(base), r.StepsOrDefault())
}
