package theme

import (
	"fmt"
	"strings"
	"unicode"
)

// CSSVar is the custom property name for a group and a camelCase role,
// e.g. ("ui", "mutedText") → "--cdx-ui-muted-text".
func CSSVar(group, role string) string {
	var b strings.Builder
	b.WriteString("--cdx-" + group + "-")
	dash := false
	for _, r := range role {
		switch {
		case r < 128 && (unicode.IsLower(r) || unicode.IsDigit(r)):
			if dash {
				b.WriteByte('-')
				dash = false
			}
			b.WriteRune(r)
		case r < 128 && unicode.IsUpper(r):
			if b.Len() > len("--cdx-"+group+"-") {
				b.WriteByte('-')
			}
			b.WriteRune(unicode.ToLower(r))
			dash = false
		default:
			dash = b.Len() > len("--cdx-"+group+"-")
		}
	}
	return b.String()
}

// renderCSS keeps translucent colours as #rrggbbaa: browsers draw alpha.
func renderCSS(t *Theme) (map[string][]byte, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "/* %s — made with CDXTheme. */\n", strings.ReplaceAll(oneLine(t.Name), "*/", "* /"))
	b.WriteString(":root {\n")
	fmt.Fprintf(&b, "  color-scheme: %s;\n", t.Appearance)
	line := func(name string, c Color) { fmt.Fprintf(&b, "  %s: %s;\n", name, c) }
	for _, r := range UIRoles {
		line(CSSVar("ui", r), *t.UI.Role(r))
	}
	for _, r := range SyntaxRoles {
		line(CSSVar("syntax", r), *t.Syntax.Role(r))
	}
	for i, n := range ANSINames {
		line(CSSVar("ansi", n), t.ANSI[i])
	}
	seen := map[string]bool{}
	for _, k := range sortedKeys(t.Palette) {
		name := CSSVar("palette", k)
		if name == "--cdx-palette-" || seen[name] {
			continue // a palette name with no usable characters, or a clash after folding
		}
		seen[name] = true
		line(name, t.Palette[k])
	}
	b.WriteString("}\n")
	return map[string][]byte{Slug(t.Name) + ".css": []byte(b.String())}, nil
}
