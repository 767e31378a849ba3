package theme

import (
	"math"
	"strings"

	"cdxtheme/core/colour"
)

// Ref returns a pointer to the colour at a role path, nil if unknown.
func (t *Theme) Ref(path string) *Color {
	group, role, ok := strings.Cut(path, ".")
	if !ok {
		return nil
	}
	switch group {
	case "ui":
		return t.UI.Role(role)
	case "syntax":
		return t.Syntax.Role(role)
	case "ansi":
		for i, n := range ANSINames {
			if n == role {
				return &t.ANSI[i]
			}
		}
	}
	return nil
}

// ansiPath is the role path of ANSI colour i.
func ANSIPath(i int) string { return "ansi." + ANSINames[i] }

// Color is the colour of any role of the catalogue as the theme paints it:
// the document's own value, else the role's rule (the document's, else the
// catalogue default) applied to its inputs. An unknown path is the zero
// colour.
func (t *Theme) Color(path string) Color { return t.resolver().get(path) }

// resolver computes derived colours once each: a rule's inputs are shared by
// many roles (a chain of rules each reading the ones before it), so walking
// the rule graph without remembering would take time exponential in its
// length (issue #36: 40 rules never finished).
type resolver struct {
	t    *Theme
	done map[string]Color
	busy map[string]bool
}

func (t *Theme) resolver() *resolver {
	return &resolver{t: t, done: map[string]Color{}, busy: map[string]bool{}}
}

func (r *resolver) get(path string) Color {
	t := r.t
	if p := t.Ref(path); p != nil {
		return *p
	}
	if c, ok := t.Roles[path]; ok {
		return c
	}
	if c, ok := r.done[path]; ok {
		return c
	}
	rule, ok := t.RuleFor(path)
	// Parse refuses cycles; busy guards themes built in code, where a loop
	// paints the zero colour instead of recursing without end.
	if !ok || r.busy[path] {
		return Color{}
	}
	r.busy[path] = true
	c := rule.apply(r.get, t.seen)
	delete(r.busy, path)
	r.done[path] = c
	return c
}

// RuleFor is the rule that derives an optional role: the document's own
// (its "derive" object), else the catalogue default. ok is false for a
// required or unknown role.
func (t *Theme) RuleFor(path string) (Rule, bool) {
	if r, ok := t.Rules[path]; ok {
		return r, true
	}
	info, ok := RoleByPath(path)
	if !ok || info.Rule == nil {
		return Rule{}, false
	}
	return *info.Rule, true
}

// Has reports whether the document sets a role itself (required roles
// always; optional ones when given a colour rather than derived).
func (t *Theme) Has(path string) bool {
	if t.Ref(path) != nil {
		return true
	}
	_, ok := t.Roles[path]
	return ok
}

// Set gives a role its own colour: a required role's field, or an optional
// role's own value (it is no longer derived); a role that followed a
// palette entry no longer does (Detach). It reports false for a path
// outside the catalogue.
func (t *Theme) Set(path string, c Color) bool {
	if !t.put(path, c) {
		return false
	}
	t.Detach(path)
	return true
}

// Style is a syntax role's font style: the document's, else the
// catalogue default.
func (t *Theme) Style(path string) FontStyle {
	if s, ok := t.Styles[path]; ok {
		return s
	}
	info, _ := RoleByPath(path)
	return info.FontStyle
}

// RoleValue is one role as a theme paints it, for a colour editor.
type RoleValue struct {
	Path string `json:"path"`
	// Color is what exporters use, #rrggbb or #rrggbbaa.
	Color string `json:"color"`
	// Set is true when the document gives the colour itself; otherwise
	// Rule (in words: RuleText) derived it.
	Set      bool      `json:"set"`
	Rule     *Rule     `json:"rule,omitempty"`
	RuleText string    `json:"ruleText,omitempty"`
	Custom   bool      `json:"custom"` // the rule is the document's own, not the default
	Style    FontStyle `json:"fontStyle,omitempty"`
	// Follows is the palette reference the role follows ("blue",
	// "blue.600"), "" when it holds its own colour or is derived.
	Follows string `json:"follows,omitempty"`
}

// Values lists every role of the catalogue as the theme paints it.
func (t *Theme) Values() []RoleValue {
	out := make([]RoleValue, 0, len(catalogueRoles))
	res := t.resolver()
	for _, info := range catalogueRoles {
		v := RoleValue{Path: info.Path, Color: res.get(info.Path).String(), Set: t.Has(info.Path), Follows: t.Follows(info.Path)}
		if !v.Set {
			if r, ok := t.RuleFor(info.Path); ok {
				v.Rule, v.RuleText = &r, r.String()
				_, v.Custom = t.Rules[info.Path]
			}
		}
		if info.Styled {
			v.Style = t.Style(info.Path)
		}
		out = append(out, v)
	}
	return out
}

// Resolved maps every role path to the colour the theme paints it with.
func (t *Theme) Resolved() map[string]string {
	out := make(map[string]string, len(catalogueRoles))
	res := t.resolver()
	for _, info := range catalogueRoles {
		out[info.Path] = res.get(info.Path).String()
	}
	return out
}

// Changed lists the role paths the documents a and b give differently —
// a colour, whether it is set or derived, the palette entry it follows,
// its rule or its font style — in document order; a nil theme differs
// everywhere. A derived role whose
// inputs changed is not listed: its input is.
func Changed(a, b *Theme) []string {
	var out []string
	for _, info := range catalogueRoles {
		p := info.Path
		if a == nil || b == nil || a.Has(p) != b.Has(p) || a.Has(p) && a.Color(p) != b.Color(p) || a.Follows(p) != b.Follows(p) ||
			!a.Has(p) && a.ruleOrZero(p) != b.ruleOrZero(p) || info.Styled && a.Style(p) != b.Style(p) {
			out = append(out, p)
		}
	}
	return out
}

func (t *Theme) ruleOrZero(p string) Rule { r, _ := t.RuleFor(p); return r }

// Mix blends a toward b by f (0 keeps a, 1 gives b), channel by channel
// in sRGB, as designers' "mix" tools do; the result is opaque.
func Mix(a, b Color, f float64) Color {
	ch := func(x, y uint8) uint8 {
		return uint8(math.Round(float64(x)*(1-f) + float64(y)*f))
	}
	return Color{R: ch(a.R, b.R), G: ch(a.G, b.G), B: ch(a.B, b.B), A: 255}
}

// IsDark reports whether a background reads as dark (relative luminance
// below the mid-point where black and white text contrast equally).
func IsDark(bg Color) bool { return colour.Luminance(bg.Over(Color{A: 255})) < 0.179 }
