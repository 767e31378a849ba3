package theme

import (
	"encoding/json"
	"fmt"
)

// Scheme is a tinted-theming base16 or base24 palette kept verbatim as it
// was imported (theme.json "scheme"), so a scheme comes back from the
// base16/base24 export exactly as it went in: the slots no role carries
// (base06, base0F, base10, base11) are not re-derived, and a slot whose
// role the designer has since changed follows the role.
type Scheme struct {
	System string           `json:"system"`
	Name   string           `json:"name,omitempty"`
	Author string           `json:"author,omitempty"`
	Slots  map[string]Color `json:"slots"`
}

// SchemeSystems are the scheme systems a theme can carry.
var SchemeSystems = []string{"base16", "base24"}

func (d *decoder) scheme(raw json.RawMessage) *Scheme {
	obj := d.object("scheme", raw)
	if obj == nil {
		return nil
	}
	s := &Scheme{}
	d.unknown("scheme", obj, []string{"system", "name", "author", "slots"})
	if v, ok := obj["system"]; ok {
		s.System = d.str("scheme.system", v)
		if !d.failedAt("scheme.system") && !contains(SchemeSystems, s.System) {
			d.add("scheme.system", "%q is not one of %s", s.System, quoteList(SchemeSystems))
		}
	} else {
		d.add("scheme.system", "required")
	}
	if v, ok := obj["name"]; ok {
		s.Name = d.str("scheme.name", v)
	}
	if v, ok := obj["author"]; ok {
		s.Author = d.str("scheme.author", v)
	}
	v, ok := obj["slots"]
	if !ok {
		d.add("scheme.slots", "required")
		return s
	}
	slots := d.object("scheme.slots", v)
	if slots == nil {
		return s
	}
	names := SchemeSlotNames("base16")
	if s.System == "base24" {
		names = SchemeSlotNames("base24")
	}
	s.Slots = make(map[string]Color, len(names))
	for _, n := range names {
		v, ok := slots[n]
		if !ok {
			d.add("scheme.slots."+n, "required (a %s scheme has %s … %s)", s.System, names[0], names[len(names)-1])
			continue
		}
		if c, ok := d.color("scheme.slots."+n, v); ok {
			if !c.Opaque() {
				d.add("scheme.slots."+n, "scheme slots are opaque (want #rrggbb)")
				continue
			}
			s.Slots[n] = c
		}
	}
	d.unknown("scheme.slots", slots, names)
	return s
}

// schemeNames are the slot names of a system in file order.
func SchemeSlotNames(system string) []string {
	n := 16
	if system == "base24" {
		n = 24
	}
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("base%02X", i)
	}
	return out
}
