package theme

import (
	"fmt"
	"strconv"
	"strings"
)

// kittyKeys: kitty.conf colour options and the roles they give (the kitty
// exporter writes the same ones).
var kittyKeys = map[string]string{
	"background":              "ui.background",
	"foreground":              "ui.text",
	"selection_background":    "ui.selection",
	"cursor":                  "ui.accent",
	"inactive_border_color":   "ui.border",
	"tab_bar_background":      "ui.surface",
	"inactive_tab_foreground": "ui.mutedText",
	"bell_border_color":       "ui.warning",
}

var ghosttyKeys = map[string]string{
	"background":           "ui.background",
	"foreground":           "ui.text",
	"selection-background": "ui.selection",
	"cursor-color":         "ui.accent",
}

// confLine is one "key value" (kitty) or "key = value" (Ghostty, foot)
// line of a config file.
type confLine struct {
	section, key, value string
	line                int
}

func confLines(text, format string) []confLine {
	var out []confLine
	section := ""
	for i, raw := range strings.Split(text, "\n") {
		l := strings.TrimSpace(raw)
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, ";") {
			continue
		}
		if format == "foot" && strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") {
			section = strings.TrimSpace(l[1 : len(l)-1])
			continue
		}
		var k, v string
		if format == "kitty" {
			f := strings.Fields(l)
			if len(f) < 2 {
				continue
			}
			k, v = f[0], strings.Join(f[1:], " ")
		} else {
			var ok bool
			k, v, ok = strings.Cut(l, "=")
			if !ok {
				continue
			}
		}
		out = append(out, confLine{section: section, key: strings.TrimSpace(k), value: strings.Trim(strings.TrimSpace(v), `"`), line: i + 1})
	}
	return out
}

func importConf(b *builder, data []byte) error {
	lines := confLines(string(data), b.format)
	if b.format == "kitty" {
		// kitty themes name themselves in a "## name:" header (kitten themes).
		for _, l := range strings.Split(string(data), "\n") {
			if n, ok := strings.CutPrefix(strings.TrimSpace(l), "## name:"); ok {
				b.t.Name = strings.TrimSpace(n)
				break
			}
		}
	}
	colour := func(l confLine, key, value string) (Color, error) {
		c, err := parseLooseColor(value)
		if err != nil {
			return Color{}, b.errAt(l.line, key, "%v", err)
		}
		return c, nil
	}
	for _, l := range lines {
		switch b.format {
		case "kitty":
			if l.key == "include" || l.key == "globinclude" {
				b.warn("line %d: %s %s is not followed", l.line, l.key, l.value)
				continue
			}
			if strings.HasPrefix(l.key, "color") {
				n, err := strconv.Atoi(strings.TrimPrefix(l.key, "color"))
				if err != nil || n < 0 || n > 255 {
					continue
				}
				if n > 15 {
					continue // the 256-colour cube is not part of a theme
				}
				c, err := colour(l, l.key, l.value)
				if err != nil {
					return err
				}
				b.put(ansiPath(n), l.key, c)
				continue
			}
			if role, ok := kittyKeys[l.key]; ok {
				if l.value == "none" {
					continue
				}
				c, err := colour(l, l.key, l.value)
				if err != nil {
					return err
				}
				b.put(role, l.key, c)
			}
		case "ghostty":
			if l.key == "palette" {
				idx, val, ok := strings.Cut(l.value, "=")
				n, err := strconv.Atoi(strings.TrimSpace(idx))
				if !ok || err != nil || n < 0 || n > 255 {
					return b.errAt(l.line, "palette", "want N=#rrggbb, got %q", l.value)
				}
				if n > 15 {
					continue
				}
				key := fmt.Sprintf("palette %d", n)
				c, err := colour(l, key, strings.TrimSpace(val))
				if err != nil {
					return err
				}
				b.put(ansiPath(n), key, c)
				continue
			}
			if l.key == "config-file" {
				b.warn("line %d: config-file %s is not followed", l.line, l.value)
				continue
			}
			if role, ok := ghosttyKeys[l.key]; ok {
				c, err := colour(l, l.key, l.value)
				if err != nil {
					return err
				}
				b.put(role, l.key, c)
			}
		case "foot":
			key := "[" + l.section + "] " + l.key
			switch {
			case l.section == "cursor" && l.key == "color":
				f := strings.Fields(l.value)
				if len(f) != 2 {
					return b.errAt(l.line, key, "want two colours (text cursor), got %q", l.value)
				}
				c, err := colour(l, key, f[1])
				if err != nil {
					return err
				}
				b.put("ui.accent", key+" (cursor)", c)
			case l.section != "colors":
			case strings.HasPrefix(l.key, "regular") || strings.HasPrefix(l.key, "bright"):
				base, num := 0, strings.TrimPrefix(l.key, "regular")
				if strings.HasPrefix(l.key, "bright") {
					base, num = 8, strings.TrimPrefix(l.key, "bright")
				}
				n, err := strconv.Atoi(num)
				if err != nil || n < 0 || n > 7 {
					continue
				}
				c, err := colour(l, key, l.value)
				if err != nil {
					return err
				}
				b.put(ansiPath(base+n), key, c)
			default:
				role := map[string]string{"background": "ui.background", "foreground": "ui.text", "selection-background": "ui.selection"}[l.key]
				if role == "" {
					continue
				}
				c, err := colour(l, key, l.value)
				if err != nil {
					return err
				}
				b.put(role, key, c)
			}
		}
	}
	if len(b.mapped) == 0 {
		return b.errAt(0, "", "no %s colour settings (background, foreground, colours 0–15) in this file", b.format)
	}
	return nil
}
