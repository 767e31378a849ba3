package themeimport

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"cdxtheme/core/base16"
	"cdxtheme/core/colour"
	"cdxtheme/core/theme"
)

// detectScheme tells base24 from base16: a "system" key, else the base24
// slots.
func detectScheme(data []byte) string {
	if regexp.MustCompile(`(?m)^\s*system:\s*["']?base24`).Match(data) ||
		regexp.MustCompile(`(?m)^\s*base1[0-7]\s*:`).Match(data) {
		return "base24"
	}
	return "base16"
}

// The ANSI tables are base16ANSI and base24ANSI (base16.go), per base16
// styling.md and base24 styling.md 0.1.3.

// schemeExtra are the roles a slot stands for in the styling spec besides
// the one it carries (schemeSlots), read on import only.
var schemeExtra = []struct{ slot, role string }{
	{"base08", "syntax.variable"},     // "Variables, XML Tags, …"
	{"base09", "syntax.constant"},     // "Integers, Boolean, Constants"
	{"base05", "syntax.operator"},     // "Default Foreground, Caret, Delimiters, Operators"
	{"base0D", "ui.accent"},           // functions and headings: templates' focus and link colour
	{"base0A", "ui.warning"},          // "Search Text Background"; the scheme's yellow
	{"base0B", "ui.success"},          // "Diff Inserted"
	{"base05", "terminal.cursor"},     // "Caret"; tinted-terminal's cursor
	{"base00", "terminal.cursorText"}, // tinted-terminal's cursor text
}

func importScheme(b *builder, data []byte) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			return b.errAt(0, "", "%s", strings.Join(te.Errors, "; "))
		}
		// yaml.v3 says "yaml: line N: …".
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		var line int
		if _, scanErr := fmt.Sscanf(msg, "line %d:", &line); scanErr == nil {
			msg = strings.TrimSpace(msg[strings.Index(msg, ":")+1:])
		}
		return b.errAt(line, "", "invalid YAML: %s", msg)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return b.errAt(1, "", "want a YAML mapping of scheme keys (scheme/name, author, base00 … base0F)")
	}
	top := doc.Content[0]
	field := func(m *yaml.Node, key string) *yaml.Node {
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == key {
				return m.Content[i+1]
			}
		}
		return nil
	}
	str := func(key string) string {
		if n := field(top, key); n != nil && n.Kind == yaml.ScalarNode {
			return n.Value
		}
		return ""
	}
	b.t.Name = str("name")
	if b.t.Name == "" {
		b.t.Name = str("scheme")
	}
	b.t.Author = theme.OneLine(str("author"))
	b.t.Description = theme.OneLine(str("description"))
	switch str("variant") {
	case "dark", "light":
		b.appear = str("variant")
	}
	if s := str("system"); s != "" && s != "base16" && s != "base24" {
		n := field(top, "system")
		return b.errAt(n.Line, "system", "%q is not a scheme system CDXTheme reads (base16, base24)", s)
	}
	// Scheme 0.11 puts the colours under palette:, older files at the top.
	slots, prefix := top, ""
	if p := field(top, "palette"); p != nil {
		if p.Kind != yaml.MappingNode {
			return b.errAt(p.Line, "palette", "want a mapping of base00 … base0F")
		}
		slots, prefix = p, "palette."
	}
	system := b.format
	names := theme.SchemeSlotNames(system)
	colors := map[string]theme.Color{}
	scheme := &theme.Scheme{System: system, Name: b.t.Name, Author: b.t.Author, Slots: map[string]theme.Color{}}
	b.t.Scheme = scheme
	for _, n := range names {
		v := field(slots, n)
		if v == nil {
			// base0A is sometimes written base0a.
			v = field(slots, strings.ToLower(n))
		}
		if v == nil {
			if fb, ok := base16.Base24Fallback(n); ok {
				colors[n] = colors[fb]
				scheme.Slots[n] = colors[fb]
				b.warn("%s%s missing; base24's fallback %s was used", prefix, n, fb)
				continue
			}
			return b.errAt(slots.Line, prefix+n, "missing (a %s scheme needs %s … %s)", system, names[0], names[len(names)-1])
		}
		if v.Kind != yaml.ScalarNode {
			return b.errAt(v.Line, prefix+n, "want a colour like \"1d2021\"")
		}
		c, err := colour.ParseLoose(v.Value)
		if err != nil {
			return b.errAt(v.Line, prefix+n, "%v", err)
		}
		c.A = 255
		colors[n] = c
		scheme.Slots[n] = c
	}
	b.kept = append(b.kept, fmt.Sprintf("scheme.slots: the %d slots of the %s scheme, verbatim", len(names), system))
	table, ansi := base16.Slots(system)
	for _, s := range table {
		b.put(s.Role, prefix+s.Slot, colors[s.Slot])
	}
	for _, s := range schemeExtra {
		b.put(s.role, prefix+s.slot, colors[s.slot])
	}
	for i, slot := range ansi {
		b.put(theme.ANSIPath(i), prefix+slot, colors[slot])
	}
	return nil
}
