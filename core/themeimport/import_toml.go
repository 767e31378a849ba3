package themeimport

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"cdxtheme/core/colour"
	"cdxtheme/core/theme"
)

// detectTOML: WezTerm keeps its palette in [colors] ansi/brights arrays,
// Alacritty in [colors.normal]/[colors.bright] tables.
func detectTOML(text string) string {
	if lineMatches(text, func(l string) bool {
		return strings.HasPrefix(l, "ansi =") || strings.HasPrefix(l, "ansi=") || strings.HasPrefix(l, "brights")
	}) {
		return "wezterm"
	}
	return "alacritty"
}

// tomlKeyLine finds the line of a dotted key ("colors.primary.background")
// by following [table] headers and "key =" lines; an inline table gives
// the line of its own key. 0 when not found.
func tomlKeyLine(text, dotted string) int {
	table := ""
	best := 0
	i := -1
	for raw := range strings.Lines(text) {
		i++
		l := strings.TrimSpace(raw)
		if strings.HasPrefix(l, "[") {
			table = strings.Trim(strings.TrimSpace(strings.Trim(l, "[]")), `"`)
			if table == dotted {
				best = i + 1
			}
			continue
		}
		k, _, ok := strings.Cut(l, "=")
		if !ok {
			continue
		}
		k = strings.Trim(strings.TrimSpace(k), `"`)
		full := k
		if table != "" {
			full = table + "." + k
		}
		if full == dotted {
			return i + 1
		}
		if strings.HasPrefix(dotted, full+".") {
			best = i + 1
		}
	}
	return best
}

// go-toml looks every new key up among all the keys before it, so 4 MB
// of keys took 11 CPU-minutes. A TOML theme has a few dozen keys (and is
// at most importCaps' 256 KB): a file with more than tomlMaxKeys places
// where a key, table or array can start is refused before it is decoded.
// At the cap the lookups take milliseconds.
const tomlMaxKeys = 5000

func checkTOMLShape(b *builder, data []byte) error {
	// Every key, dotted key part, table and array starts at one of these
	// bytes: counting them over-counts (they may sit in strings or
	// comments), which only makes the cap stricter.
	n := 0
	for i, c := range data {
		switch c {
		case '=', '.', '[', '{':
			if n++; n > tomlMaxKeys {
				return b.errAt(lineAt(data, int64(i)), "", "more than %d keys, tables and arrays; a TOML theme has a few dozen", tomlMaxKeys)
			}
		}
	}
	return nil
}

func importTOML(b *builder, data []byte) error {
	if err := checkTOMLShape(b, data); err != nil {
		return err
	}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, _ := de.Position()
			return b.errAt(row, strings.Join(de.Key(), "."), "invalid TOML: %s", de.Error())
		}
		return b.errAt(0, "", "invalid TOML: %v", err)
	}
	text := string(data)
	lookup := func(dotted string) (any, bool) {
		var cur any = doc
		for _, part := range strings.Split(dotted, ".") {
			m, ok := cur.(map[string]any)
			if !ok {
				return nil, false
			}
			if cur, ok = m[part]; !ok {
				return nil, false
			}
		}
		return cur, true
	}
	colourOf := func(dotted string, v any) (theme.Color, error) {
		s, ok := v.(string)
		if !ok {
			return theme.Color{}, b.errAt(tomlKeyLine(text, dotted), dotted, "want a colour string like \"#1e1e2e\", got %T", v)
		}
		c, err := colour.ParseLoose(s)
		if err != nil {
			return theme.Color{}, b.errAt(tomlKeyLine(text, dotted), dotted, "%v", err)
		}
		return c, nil
	}
	// put reads one key; Alacritty's "CellForeground"/"CellBackground"
	// mean "the cell's own colour", not a colour of the theme.
	put := func(dotted, role string) error {
		v, ok := lookup(dotted)
		if !ok {
			return nil
		}
		if s, isStr := v.(string); isStr && strings.HasPrefix(s, "Cell") {
			b.warn("%s is %q (follows the text), so %s was derived", dotted, s, role)
			return nil
		}
		c, err := colourOf(dotted, v)
		if err != nil {
			return err
		}
		b.put(role, dotted, c)
		return nil
	}
	defer func() { b.notCarried(unusedTOML(doc, b.used())) }()
	if b.format == "wezterm" {
		if name, ok := lookup("metadata.name"); ok {
			b.t.Name, _ = name.(string)
		}
		if a, ok := lookup("metadata.author"); ok {
			s, _ := a.(string)
			b.t.Author = theme.OneLine(s)
		}
		for _, k := range []struct{ key, role string }{
			{"colors.background", "ui.background"}, {"colors.foreground", "ui.text"},
			{"colors.cursor_bg", "terminal.cursor"}, {"colors.cursor_border", "terminal.cursor"},
			{"colors.cursor_fg", "terminal.cursorText"}, {"colors.selection_bg", "ui.selection"},
			{"colors.selection_fg", "terminal.selectionText"},
			{"colors.split", "ui.border"}, {"colors.tab_bar.background", "ui.surface"},
			{"colors.tab_bar.inactive_tab.fg_color", "ui.mutedText"}, {"colors.compose_cursor", "ui.warning"},
		} {
			if err := put(k.key, k.role); err != nil {
				return err
			}
		}
		for _, arr := range []struct {
			key  string
			base int
		}{{"colors.ansi", 0}, {"colors.brights", 8}} {
			v, ok := lookup(arr.key)
			if !ok {
				continue
			}
			list, ok := v.([]any)
			if !ok || len(list) > 8 {
				return b.errAt(tomlKeyLine(text, arr.key), arr.key, "want an array of 8 colours")
			}
			for i, el := range list {
				key := fmt.Sprintf("%s[%d]", arr.key, i)
				s, isStr := el.(string)
				if !isStr {
					return b.errAt(tomlKeyLine(text, arr.key), key, "want a colour string, got %T", el)
				}
				c, err := colour.ParseLoose(s)
				if err != nil {
					return b.errAt(tomlKeyLine(text, arr.key), key, "%v", err)
				}
				b.put(theme.ANSIPath(arr.base+i), key, c)
			}
		}
		return nil
	}
	for _, k := range []struct{ key, role string }{
		{"colors.primary.background", "ui.background"}, {"colors.primary.foreground", "ui.text"},
		{"colors.primary.dim_foreground", "terminal.dimForeground"}, {"colors.primary.bright_foreground", "terminal.bold"},
		{"colors.cursor.cursor", "terminal.cursor"}, {"colors.cursor.text", "terminal.cursorText"},
		{"colors.selection.background", "ui.selection"}, {"colors.selection.text", "terminal.selectionText"},
	} {
		if err := put(k.key, k.role); err != nil {
			return err
		}
	}
	for i, n := range theme.ZedANSI {
		if err := put("colors.normal."+n, theme.ANSIPath(i)); err != nil {
			return err
		}
		if err := put("colors.bright."+n, theme.ANSIPath(i+8)); err != nil {
			return err
		}
		if err := put("colors.dim."+n, theme.DimPath(i)); err != nil {
			return err
		}
	}
	if len(b.mapped) == 0 {
		return b.errAt(0, "colors", "no Alacritty colours ([colors.primary], [colors.normal], …) in this file")
	}
	return nil
}

// unusedTOML lists the colour values of a TOML theme (below "colors") no
// role was read from, by dotted key. A theme's colours sit at most four
// deep (colors.tab_bar.active_tab.bg_color); the walk stops at eight, so
// thousands of nested arrays do not build a path per level.
func unusedTOML(doc map[string]any, used map[string]bool) []string {
	var out []string
	var walk func(path string, v any, depth int)
	walk = func(path string, v any, depth int) {
		if depth > 8 {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				walk(path+"."+k, x[k], depth+1)
			}
		case []any:
			for i, el := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), el, depth+1)
			}
		case string:
			if _, err := colour.ParseLoose(x); err == nil && !used[path] {
				out = append(out, path)
			}
		}
	}
	if c, ok := doc["colors"]; ok {
		walk("colors", c, 0)
	}
	return out
}
