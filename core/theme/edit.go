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
	ref := t.Ref(role)
	if ref == nil {
		return Color{}, fmt.Errorf("%s: no such colour role", role)
	}
	if len(Pairs(t, role)) == 0 {
		return *ref, fmt.Errorf("%s takes part in no contrast pair", role)
	}
	trial := *t
	c, ok := NearestPassing(*ref, target, func(cand Color) float64 {
		*trial.Ref(role) = cand
		return worstRatio(&trial, role)
	})
	if !ok {
		return *ref, fmt.Errorf("%s: no lightness reaches %.2f:1 against every colour it is paired with; change those colours first", role, target)
	}
	return c, nil
}

// Ref on a copy of a Theme must not reach the original's arrays and
// structs: Theme holds them by value, so a shallow copy is independent,
// except for Palette, which SetColor copies before changing it.

// SetColor sets the colour at path: a role path ("ui.accent") or a palette
// entry ("palette.ink"). Changing a palette entry changes every role that
// held the entry's old colour too, as a palette is the theme's shared
// colours. It returns the paths changed, in document order (palette first).
func SetColor(t *Theme, path string, c Color) ([]string, error) {
	if name, ok := strings.CutPrefix(path, PalettePrefix); ok {
		old, ok := t.Palette[name]
		if !ok {
			return nil, fmt.Errorf("%s: no such palette entry", path)
		}
		if old == c {
			return nil, nil
		}
		pal := make(map[string]Color, len(t.Palette))
		for k, v := range t.Palette {
			pal[k] = v
		}
		pal[name] = c
		t.Palette = pal
		changed := []string{path}
		for _, p := range RolePaths() {
			if r := t.Ref(p); *r == old {
				*r = c
				changed = append(changed, p)
			}
		}
		return changed, nil
	}
	ref := t.Ref(path)
	if ref == nil {
		return nil, fmt.Errorf("%s: no such colour role", path)
	}
	if *ref == c {
		return nil, nil
	}
	*ref = c
	return []string{path}, nil
}

// PaletteUsers lists the role paths whose colour is the palette entry's.
func PaletteUsers(t *Theme, name string) []string {
	c, ok := t.Palette[name]
	if !ok {
		return nil
	}
	var out []string
	for _, p := range RolePaths() {
		if *t.Ref(p) == c {
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
