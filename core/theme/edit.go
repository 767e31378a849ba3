package theme

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// PalettePrefix starts the path of a palette entry ("palette.ink").
const PalettePrefix = "palette."

// Pairs returns the contrast checks a role takes part in, as foreground or
// background, in Checks' order.
func Pairs(t *Theme, role string) []Check {
	var out []Check
	for _, c := range Checks(t) {
		if c.FGRole == role || c.BGRole == role {
			out = append(out, c)
		}
	}
	return out
}

// worstRatio is the lowest exact ratio among a role's pairs, +Inf when it
// takes part in none.
func worstRatio(t *Theme, role string) float64 {
	worst := math.Inf(1)
	for _, c := range Pairs(t, role) {
		fg, _ := ParseColor(c.FG)
		bg, _ := ParseColor(c.BG)
		worst = math.Min(worst, Ratio(fg, bg))
	}
	return worst
}

// MakePass is the colour for role nearest its own in OKLCH lightness (hue
// and chroma kept) at which every pair the role takes part in reaches
// target. t is not changed.
func MakePass(t *Theme, role string, target float64) (Color, error) {
	if _, ok := RoleByPath(role); !ok {
		return Color{}, fmt.Errorf("%s: no such colour role", role)
	}
	cur := t.Color(role)
	if len(Pairs(t, role)) == 0 {
		return cur, fmt.Errorf("%s takes part in no contrast pair", role)
	}
	trial := t.Clone()
	c, ok := NearestPassing(cur, target, func(cand Color) float64 {
		trial.Set(role, cand)
		return worstRatio(trial, role)
	})
	if !ok {
		return cur, fmt.Errorf("%s: no lightness reaches %.2f:1 against every colour it is paired with; change those colours first", role, target)
	}
	return c, nil
}

// Clone is a copy of t whose maps are its own, so a trial on it leaves t
// as it was (the arrays and structs are held by value).
func (t *Theme) Clone() *Theme {
	c := *t
	c.Palette = cloneMap(t.Palette)
	c.Roles = cloneMap(t.Roles)
	c.Styles = cloneMap(t.Styles)
	c.Rules = cloneMap(t.Rules)
	c.Spaces = cloneMap(t.Spaces)
	if t.Companion != nil {
		c.Companion = t.Companion.Clone()
	}
	return &c
}

func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return nil
	}
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// SetColor sets the colour at path: a role path ("ui.accent") or a palette
// entry ("palette.ink"). Changing a palette entry changes every role that
// held the entry's old colour too, as a palette is the theme's shared
// colours (a role the document derives follows its rule by itself). It
// returns the paths changed, in document order (palette first). Setting a
// derived role gives it its own colour.
func SetColor(t *Theme, path string, c Color) ([]string, error) {
	if name, ok := strings.CutPrefix(path, PalettePrefix); ok {
		old, ok := t.Palette[name]
		if !ok {
			return nil, fmt.Errorf("%s: no such palette entry", path)
		}
		if old == c {
			return nil, nil
		}
		pal := cloneMap(t.Palette) // a shallow copy of t may share the map
		pal[name] = c
		t.Palette = pal
		changed := []string{path}
		for _, p := range RolePaths() {
			if t.Has(p) && t.Color(p) == old {
				t.Set(p, c)
				changed = append(changed, p)
			}
		}
		return changed, nil
	}
	if _, ok := RoleByPath(path); !ok {
		return nil, fmt.Errorf("%s: no such colour role", path)
	}
	if t.Has(path) && t.Color(path) == c {
		return nil, nil
	}
	t.Set(path, c)
	return []string{path}, nil
}

// PaletteUsers lists the role paths the document sets to the palette
// entry's colour (derived roles follow their rules, not the entry).
func PaletteUsers(t *Theme, name string) []string {
	c, ok := t.Palette[name]
	if !ok {
		return nil
	}
	var out []string
	for _, p := range RolePaths() {
		if t.Has(p) && t.Color(p) == c {
			out = append(out, p)
		}
	}
	return out
}

// Rewrite is t as theme.json text replacing the document old: the fields
// the Theme type holds, plus old's "$schema" line when it had one (the
// editor's hint, not part of the theme).
func Rewrite(old []byte, t *Theme) ([]byte, error) {
	out, err := marshalJSON(t)
	if err != nil {
		return nil, err
	}
	var top struct {
		Schema *string `json:"$schema"`
	}
	if json.Unmarshal(bytes.TrimPrefix(old, []byte("\xef\xbb\xbf")), &top) == nil && top.Schema != nil {
		s, _ := json.Marshal(*top.Schema)
		out = append([]byte("{\n  \"$schema\": "+string(s)+","), out[1:]...)
	}
	return out, nil
}

// Rename gives the theme another name (one line); a companion named after
// the theme ("X" → "X Light") is renamed with it, so the pair stays one
// family. It reports whether anything changed; an empty name changes
// nothing.
func Rename(t *Theme, name string) bool {
	name = oneLine(name)
	if name == "" || name == t.Name {
		return false
	}
	if c := t.Companion; c != nil && c.Name == counterpartName(t.Name, c.Appearance) {
		c.Name = counterpartName(name, c.Appearance)
	}
	t.Name = name
	return true
}
