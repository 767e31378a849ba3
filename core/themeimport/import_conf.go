package themeimport

import (
	"fmt"
	"strconv"
	"strings"

	"cdxtheme/core/colour"
	"cdxtheme/core/theme"
)

// kittyKeys: kitty.conf colour options and the roles they give (the kitty
// exporter writes the same ones).
var kittyKeys = map[string]string{
	"background":              "ui.background",
	"foreground":              "ui.text",
	"selection_background":    "ui.selection",
	"selection_foreground":    "terminal.selectionText",
	"cursor":                  "terminal.cursor",
	"cursor_text_color":       "terminal.cursorText",
	"url_color":               "terminal.link",
	"active_border_color":     "ui.accent",
	"inactive_border_color":   "ui.border",
	"tab_bar_background":      "ui.surface",
	"inactive_tab_foreground": "ui.mutedText",
	"bell_border_color":       "ui.warning",
}

var ghosttyKeys = map[string]string{
	"background":           "ui.background",
	"foreground":           "ui.text",
	"selection-background": "ui.selection",
	"selection-foreground": "terminal.selectionText",
	"cursor-color":         "terminal.cursor",
	"cursor-text":          "terminal.cursorText",
	"bold-color":           "terminal.bold",
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
	i := -1
	for raw := range strings.Lines(text) {
		i++
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
		for l := range strings.Lines(string(data)) {
			if n, ok := strings.CutPrefix(strings.TrimSpace(l), "## name:"); ok {
				b.t.Name = strings.TrimSpace(n)
				break
			}
		}
	}
	colourOf := func(l confLine, key, value string) (theme.Color, error) {
		c, err := colour.ParseLoose(value)
		if err != nil {
			return theme.Color{}, b.errAt(l.line, key, "%v", err)
		}
		return c, nil
	}
	section := ""
	if b.format == "foot" {
		section = footSection(b, lines)
	}
	var skipped []string
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
					skipped = append(skipped, l.key) // the 256-colour cube is not part of a theme
					continue
				}
				c, err := colourOf(l, l.key, l.value)
				if err != nil {
					return err
				}
				b.put(theme.ANSIPath(n), l.key, c)
				continue
			}
			if role, ok := kittyKeys[l.key]; ok {
				if l.value == "none" {
					continue
				}
				c, err := colourOf(l, l.key, l.value)
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
					skipped = append(skipped, fmt.Sprintf("palette %d", n))
					continue
				}
				key := fmt.Sprintf("palette %d", n)
				c, err := colourOf(l, key, strings.TrimSpace(val))
				if err != nil {
					return err
				}
				b.put(theme.ANSIPath(n), key, c)
				continue
			}
			if l.key == "config-file" {
				b.warn("line %d: config-file %s is not followed", l.line, l.value)
				continue
			}
			if role, ok := ghosttyKeys[l.key]; ok {
				c, err := colourOf(l, l.key, l.value)
				if err != nil {
					return err
				}
				b.put(role, l.key, c)
			}
		case "foot":
			if err := footLine(b, l, colourOf, section); err != nil {
				return err
			}
		}
	}
	if b.format != "foot" {
		used := b.used()
		for _, l := range lines {
			if l.key == "palette" || strings.HasPrefix(l.key, "color") && isDigits(l.key[5:]) || used[l.key] {
				continue
			}
			if f := strings.Fields(l.value); len(f) > 0 {
				if _, err := colour.ParseLoose(f[0]); err == nil {
					skipped = append(skipped, l.key)
				}
			}
		}
	}
	b.notCarried(skipped)
	if len(b.mapped) == 0 {
		return b.errAt(0, "", "no %s colour settings (background, foreground, colours 0–15) in this file", b.format)
	}
	return nil
}

// footSection picks the colour section of a foot.ini to import. Current
// foot (1.20+) names them [colors-dark] and [colors-light] and starts in
// the one [main] initial-color-theme names (dark by default); foot 1.13
// has only [colors], which newer foot reads as [colors-dark]. The other
// section is not imported, and the warning says so.
func footSection(b *builder, lines []confLine) string {
	has := map[string]bool{}
	initial := ""
	for _, l := range lines {
		has[l.section] = true
		if (l.section == "" || l.section == "main") && l.key == "initial-color-theme" {
			initial = strings.TrimSpace(l.value)
		}
	}
	pick := ""
	switch {
	case initial == "light" && has["colors-light"]:
		pick = "colors-light"
	case has["colors-dark"]:
		pick = "colors-dark"
	case has["colors"]:
		pick = "colors"
	case has["colors-light"]:
		pick = "colors-light"
	}
	if pick == "colors-light" {
		b.appear = "light"
	}
	for _, other := range []string{"colors", "colors-dark", "colors-light"} {
		if other != pick && has[other] && !(pick == "colors-dark" && other == "colors") {
			b.warn("[%s] is not imported (the theme is one appearance; [%s] was read)", other, pick)
		}
	}
	return pick
}

// footLine reads one line of a foot.ini's colour section (or its
// [cursor] section, where foot 1.13 keeps the cursor colours).
func footLine(b *builder, l confLine, colourOf func(confLine, string, string) (theme.Color, error), section string) error {
	key := "[" + l.section + "] " + l.key
	cursor := func() error {
		f := strings.Fields(l.value)
		if len(f) != 2 {
			return b.errAt(l.line, key, "want two colours (text cursor), got %q", l.value)
		}
		text, err := colourOf(l, key, f[0])
		if err != nil {
			return err
		}
		c, err := colourOf(l, key, f[1])
		if err != nil {
			return err
		}
		b.put("terminal.cursorText", key+" (text)", text)
		b.put("terminal.cursor", key+" (cursor)", c)
		return nil
	}
	switch {
	case l.section == "cursor" && l.key == "color":
		return cursor()
	case l.section != section || section == "":
		return nil // another section: settings, or the other appearance (named in one warning)
	case l.key == "cursor":
		return cursor()
	case strings.HasPrefix(l.key, "regular") || strings.HasPrefix(l.key, "bright") || strings.HasPrefix(l.key, "dim"):
		base, num := 0, strings.TrimPrefix(l.key, "regular")
		if strings.HasPrefix(l.key, "bright") {
			base, num = 8, strings.TrimPrefix(l.key, "bright")
		}
		if strings.HasPrefix(l.key, "dim") {
			base, num = -1, strings.TrimPrefix(l.key, "dim")
		}
		n, err := strconv.Atoi(num)
		if err != nil || n < 0 || n > 7 {
			b.warn("line %d: %s is not a foot colour; not carried", l.line, key)
			return nil
		}
		c, err := colourOf(l, key, footValue(l.value))
		if err != nil {
			return err
		}
		if base < 0 {
			b.put(theme.DimPath(n), key, c)
		} else {
			b.put(theme.ANSIPath(base+n), key, c)
		}
		return nil
	}
	role := map[string]string{
		"background": "ui.background", "foreground": "ui.text", "selection-background": "ui.selection",
		"selection-foreground": "terminal.selectionText", "urls": "terminal.link",
	}[l.key]
	if role == "" {
		b.warn("line %d: %s is not carried (the theme has no role for it)", l.line, key)
		return nil
	}
	c, err := colourOf(l, key, footValue(l.value))
	if err != nil {
		return err
	}
	b.put(role, key, c)
	return nil
}

// footValue drops a trailing "# comment", which tinted-terminal's foot
// files put after each colour.
func footValue(v string) string {
	if i := strings.Index(v, "#"); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v)
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
