package targets

import (
	"crypto/sha1"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"cdxtheme/core/base16"
	"cdxtheme/core/colour"
	"cdxtheme/core/scopes"
	"cdxtheme/core/theme"
)

// View is what a target's template sees of one theme: every role, the
// palette, the terminal colours and the base16/base24 slots, each as a
// Colour with its hex, rgb, decimal and OKLCH forms, and the theme's name
// and slug (quote them with the helper for the target's syntax: json,
// toml, yaml, lua, vim, elisp, xml, ini, sh, css, kdl).
type View struct {
	Name        string
	Slug        string
	Appearance  string // "dark" or "light"
	Dark        bool
	Author      string
	Description string
	// SchemeAuthor is the author of the base16/base24 scheme the theme
	// was imported from, "" when none.
	SchemeAuthor string
	// ANSI are the 16 terminal colours, flattened over the background.
	ANSI [16]Colour
	// Palette are the theme's named colours, sorted by name.
	Palette []Named
	// Other is the companion (the other appearance), nil when there is
	// none; Family is the theme then its companion.
	Other  *View
	Family []*View
	t      *theme.Theme
	slots  map[string]theme.Color
	// rules are the token rules VS Code gets for the theme, read on first
	// use and then asked everything (scopes.For): once per render.
	rules *scopes.Rules
}

// Named is a palette entry.
type Named struct {
	Name   string
	Colour Colour
}

func newView(t *theme.Theme) *View {
	v := &View{Name: t.Name, Slug: theme.Slug(t.Name), Appearance: t.Appearance, Dark: t.Appearance == "dark",
		Author: t.Author, Description: t.Description, t: t, slots: base16.Colors(t, "base24")}
	if t.Scheme != nil {
		v.SchemeAuthor = t.Scheme.Author
	}
	for i := range v.ANSI {
		v.ANSI[i] = Colour{t.Seen(t.ANSI[i])}
	}
	names := make([]string, 0, len(t.Palette))
	for k := range t.Palette {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v.Palette = append(v.Palette, Named{k, Colour{t.Palette[k]}})
	}
	return v
}

// CSSPalette is the palette as CSS custom properties: each entry's Name
// its property (cssvar "palette"), leaving out a name with no usable
// characters and a second name that folds to the same property.
func (v *View) CSSPalette() []Named {
	var out []Named
	seen := map[string]bool{}
	for _, p := range v.Palette {
		name := CSSVar("palette", p.Name)
		if name == "--cdx-palette-" || seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, Named{name, p.Colour})
	}
	return out
}

// ITermEntry is one colour of an .itermcolors file: its key, the colour
// space and the components (0–1) as iTerm2 reads them.
type ITermEntry struct {
	Key, Space, R, G, B, A string
}

// ITermColors are the theme's iTerm2 colour entries (the package's ITermColors:
// a kept source colour space, the targets.iterm2 overrides), by key.
func (v *View) ITermColors() []ITermEntry {
	m := ITermColors(v.t)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	out := make([]ITermEntry, len(keys))
	for i, k := range keys {
		c := m[k].Components
		out[i] = ITermEntry{Key: k, Space: m[k].Space, R: f(c[0]), G: f(c[1]), B: f(c[2]), A: f(c[3])}
	}
	return out
}

// TokenRules are an imported VS Code theme's own token rules as TextMate
// rules (scopes.TokenRules), their colours flattened; nil when the theme
// has none (the syntax map's rules stand then).
func (v *View) TokenRules() *Rules {
	if !v.vscodeRules().Own() {
		return nil
	}
	return v.flatRules()
}

// vscodeRules are the theme's rules, read on the first call.
func (v *View) vscodeRules() *scopes.Rules {
	if v.rules == nil {
		v.rules = scopes.For(v.t)
	}
	return v.rules
}

// flatRules are vscodeRules' rules, colours flattened.
func (v *View) flatRules() *Rules {
	out := &Rules{}
	for _, r := range v.vscodeRules().List() {
		rv := Rule{Name: r.Name, Scope: r.Scope}
		if r.FG != nil {
			c := Colour{v.t.Seen(*r.FG)}
			rv.FG = &c
		}
		if r.BG != nil {
			c := Colour{v.t.Seen(*r.BG)}
			rv.BG = &c
		}
		if r.Style != nil {
			rv.HasStyle, rv.Style = true, *r.Style
		}
		out.Rules = append(out.Rules, rv)
	}
	return out
}

// SublimeRules are the rules a .tmTheme adds for Sublime's grammars
// (scopes.SublimeRules): each Sublime scope painted as VS Code paints the
// same token under the theme's rules, colours flattened.
func (v *View) SublimeRules() []Rule {
	var out []Rule
	for _, r := range v.vscodeRules().Sublime() {
		rv := Rule{Name: r.Name, Scope: r.Scope, HasStyle: true, Style: *r.Style}
		c := Colour{v.t.Seen(*r.FG)}
		rv.FG = &c
		out = append(out, rv)
	}
	return out
}

// TextMateRules are every scope rule a TextMate-selector colour scheme
// gets, in bat's order of precedence: the theme's rules (an imported VS
// Code theme's own, else the syntax map's, each with its font style set so
// a broader rule's cannot show through), then the rules for Sublime's
// grammars (SublimeRules). The .tmTheme (bat) and the
// .sublime-color-scheme (Sublime Text) both write these and no others, so
// the two programs, which share Sublime's grammars, paint a token alike.
func (v *View) TextMateRules() []Rule {
	// Without rules of its own a theme has the syntax map's, each with
	// its style set (scopes.For).
	out := v.flatRules().Rules
	out = append(out, v.SublimeRules()...)
	for i := range out {
		out[i].Style = textMateFontStyle(out[i].Style)
	}
	return out
}

// SublimeSchemeRules are TextMateRules for Sublime Text, which of two
// rules whose selectors score the same keeps the later one where bat
// (syntect) keeps the earlier: reversed, so each program picks the same
// rule. Order decides nothing else in either (a higher score wins).
func (v *View) SublimeSchemeRules() []Rule {
	rs := v.TextMateRules()
	for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
		rs[i], rs[j] = rs[j], rs[i]
	}
	return rs
}

// textMateFontStyle keeps the words of a font style that bat and Sublime
// Text know: bat (syntect) drops a whole rule whose fontStyle has another
// word (VS Code's "strikethrough"), colour and all. "" stays "", which
// sets no style rather than leaving a broader rule's.
func textMateFontStyle(s string) string {
	var out []string
	for _, w := range strings.Fields(s) {
		switch w {
		case "bold", "italic", "underline":
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// Rules are TokenRules' rules (possibly none).
type Rules struct{ Rules []Rule }

// Rule is one TextMate scope rule; FG and BG are nil where it sets none.
type Rule struct {
	Name, Scope string
	FG, BG      *Colour
	HasStyle    bool
	Style       string
}

// familyViews are the views of a family, each knowing the other.
func familyViews(fam []*theme.Theme) []*View {
	vs := make([]*View, len(fam))
	for i, t := range fam {
		vs[i] = newView(t)
	}
	for i, v := range vs {
		v.Family = vs
		if len(vs) == 2 {
			v.Other = vs[1-i]
		}
	}
	return vs
}

// C is a role ("ui.background", "syntax.keyword", "ansi.red",
// "editor.lineHighlight") as it is seen on the background: flattened, for
// programs that cannot draw alpha. An unknown role fails the render.
func (v *View) C(path string) (Colour, error) {
	c, err := v.Raw(path)
	if err != nil {
		return c, err
	}
	return Colour{v.t.Seen(c.c)}, nil
}

// Hex is C(path).Hex: "#rrggbb".
func (v *View) Hex(path string) (string, error) {
	c, err := v.C(path)
	return c.Hex(), err
}

// Raw is a role with its alpha kept, for programs that draw it (CSS).
func (v *View) Raw(path string) (Colour, error) {
	if _, ok := theme.RoleByPath(path); !ok {
		return Colour{}, fmt.Errorf("no role %q", path)
	}
	return Colour{v.t.Color(path)}, nil
}

// Base is a base16/base24 slot ("base00" … "base0F", "base10" … "base17"),
// as the scheme exports write it.
func (v *View) Base(slot string) (Colour, error) {
	c, ok := v.slots[slot]
	if !ok {
		return Colour{}, fmt.Errorf("no slot %q", slot)
	}
	return Colour{c}, nil
}

// Style is a syntax role's font style: "", "bold", "italic", "bold italic", …
func (v *View) Style(path string) string { return strings.TrimSpace(string(v.t.Style(path))) }

// Bold and Italic say whether the role's font style has them.
func (v *View) Bold(path string) bool   { return strings.Contains(v.Style(path), "bold") }
func (v *View) Italic(path string) bool { return strings.Contains(v.Style(path), "italic") }

// Colour is one colour in the forms targets write it.
type Colour struct{ c theme.Color }

// Hex is "#rrggbb" (alpha dropped).
func (c Colour) Hex() string { return c.c.Hex() }

// Bare is "rrggbb", upper-case free.
func (c Colour) Bare() string { return c.c.Hex()[1:] }

// HexA is "#rrggbbaa" always; CSS is "#rrggbb" or "#rrggbbaa" when translucent.
func (c Colour) HexA() string { return fmt.Sprintf("#%02x%02x%02x%02x", c.c.R, c.c.G, c.c.B, c.c.A) }
func (c Colour) CSS() string  { return c.c.String() }

// R, G, B, A are 0–255.
func (c Colour) R() int { return int(c.c.R) }
func (c Colour) G() int { return int(c.c.G) }
func (c Colour) B() int { return int(c.c.B) }
func (c Colour) A() int { return int(c.c.A) }

// RGB is "r,g,b" (0–255), RGBSpace "r g b", RGB16 "rrrr/gggg/bbbb" (X11's rgb: form).
func (c Colour) RGB() string      { return fmt.Sprintf("%d,%d,%d", c.c.R, c.c.G, c.c.B) }
func (c Colour) RGBSpace() string { return fmt.Sprintf("%d %d %d", c.c.R, c.c.G, c.c.B) }
func (c Colour) RGB16() string {
	return fmt.Sprintf("%04x/%04x/%04x", int(c.c.R)*257, int(c.c.G)*257, int(c.c.B)*257)
}

// DecR, DecG, DecB are 0–1 with four decimals; Alpha is 0–1 likewise.
func (c Colour) DecR() string  { return dec(c.c.R) }
func (c Colour) DecG() string  { return dec(c.c.G) }
func (c Colour) DecB() string  { return dec(c.c.B) }
func (c Colour) Alpha() string { return dec(c.c.A) }

func dec(v uint8) string { return fmt.Sprintf("%.4f", float64(v)/255) }

// OKLCH is CSS's "oklch(L C H)".
func (c Colour) OKLCH() string {
	o := theme.ToOKLCH(c.c)
	h := o.H
	if math.IsNaN(h) {
		h = 0
	}
	return fmt.Sprintf("oklch(%.4f %.4f %.2f)", o.L, o.C, h)
}

// Ratio is the WCAG contrast ratio of c and o (1–21).
func (c Colour) Ratio(o Colour) float64 { return colour.Ratio(c.c, o.c) }

// Readable is the first of roles (role paths, or lists of them as a data
// file holds them) whose colour, flattened, reaches min contrast on bg;
// else black or white, whichever reads better on bg (one of them always
// reaches 4.58:1).
func (v *View) Readable(bg Colour, min float64, roles ...any) (Colour, error) {
	var paths []string
	for _, r := range roles {
		switch r := r.(type) {
		case string:
			paths = append(paths, r)
		case []any:
			for _, x := range r {
				s, ok := x.(string)
				if !ok {
					return Colour{}, fmt.Errorf("readable: %v is not a role", x)
				}
				paths = append(paths, s)
			}
		default:
			return Colour{}, fmt.Errorf("readable: %v is not a role", r)
		}
	}
	for _, r := range paths {
		c, err := v.C(r)
		if err != nil {
			return c, err
		}
		if c.Ratio(bg) >= min {
			return c, nil
		}
	}
	black, white := Colour{theme.Color{A: 255}}, Colour{theme.Color{R: 255, G: 255, B: 255, A: 255}}
	if black.Ratio(bg) >= white.Ratio(bg) {
		return black, nil
	}
	return white, nil
}

// Fade is c with its opacity scaled by f (rounded; 0 is transparent).
func (c Colour) Fade(f float64) Colour {
	c.c.A = uint8(math.Round(float64(c.c.A) * f))
	return c
}

// MarshalJSON writes the colour as CSS does (#rrggbb, #rrggbbaa).
func (c Colour) MarshalJSON() ([]byte, error) { return json.Marshal(c.c.String()) }

// VSCodeOverrides are the theme's targets.vscode overrides, nil when it
// has none.
func (v *View) VSCodeOverrides() *theme.VSCodeTarget {
	if v.t.Targets == nil {
		return nil
	}
	return v.t.Targets.VSCode
}

// ZedOverrides are the theme's targets.zed style keys, raw JSON, by key.
func (v *View) ZedOverrides() map[string]json.RawMessage {
	if v.t.Targets == nil || v.t.Targets.Zed == nil {
		return nil
	}
	return v.t.Targets.Zed.Style
}

// Pick is whichever of a and b reads better on c (a when they tie).
func (c Colour) Pick(a, b Colour) Colour {
	if a.Ratio(c) >= b.Ratio(c) {
		return a
	}
	return b
}

// Over is c flattened on bg.
func (c Colour) Over(bg Colour) Colour { return Colour{c.c.Over(bg.c)} }

// Mix is c mixed with o, f of the way to o.
func (c Colour) Mix(o Colour, f float64) Colour { return Colour{theme.Mix(c.c, o.c, f)} }

// Xterm is the nearest of the xterm 256-colour palette's cube and grey
// ramp (16–255), for terminals without true colour (Vim's ctermfg).
func (c Colour) Xterm() int {
	levels := []int{0, 95, 135, 175, 215, 255}
	near := func(v uint8) int {
		best := 0
		for i, l := range levels {
			if abs(int(v)-l) < abs(int(v)-levels[best]) {
				best = i
			}
		}
		return best
	}
	r, g, b := near(c.c.R), near(c.c.G), near(c.c.B)
	cube := 16 + 36*r + 6*g + b
	dist := func(x, y, z int) int {
		dr, dg, db := int(c.c.R)-x, int(c.c.G)-y, int(c.c.B)-z
		return dr*dr + dg*dg + db*db
	}
	best, bestD := cube, dist(levels[r], levels[g], levels[b])
	for i := 0; i < 24; i++ {
		v := 8 + 10*i
		if d := dist(v, v, v); d < bestD {
			best, bestD = 232+i, d
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Vim is a role's font style as a Vim attribute list ("bold,italic"),
// "NONE" for plain text.
func (v *View) Vim(path string) string {
	s := strings.Fields(v.Style(path))
	if len(s) == 0 {
		return "NONE"
	}
	return strings.Join(s, ",")
}

// Jet is a role's font style as a JetBrains FONT_TYPE: "" plain, 1 bold,
// 2 italic, 3 both.
func (v *View) Jet(path string) string {
	switch b, i := v.Bold(path), v.Italic(path); {
	case b && i:
		return "3"
	case b:
		return "1"
	case i:
		return "2"
	}
	return ""
}

// UUID is a stable UUID for the theme (from its slug), for programs that
// name profiles by one (GNOME Terminal).
func (v *View) UUID() string {
	h := sha1.Sum([]byte("cdxtheme:" + v.Slug))
	h[6] = h[6]&0x0f | 0x50 // version 5
	h[8] = h[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}
