package theme

import (
	"bytes"
	"crypto/sha1"
	"encoding/xml"
	"fmt"
	"strings"
)

// renderTmTheme writes a TextMate theme (.tmTheme, an XML property list),
// the format bat, delta, Sublime Text and syntect read. The scope rules are
// the VS Code exporter's, so every program highlights the same tokens the
// same way. Colours are flattened: bat cannot blend alpha.
func renderTmTheme(t *Theme) (map[string][]byte, error) {
	u := t.UI
	c := func(col Color) string { return t.seen(col).Hex() }
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">` + "\n")
	b.WriteString(`<plist version="1.0">` + "\n<dict>\n")
	str := func(indent, k, v string) {
		fmt.Fprintf(&b, "%s<key>%s</key>\n%s<string>%s</string>\n", indent, k, indent, xmlText(v))
	}
	str("\t", "name", t.Name)
	str("\t", "author", orDefault(t.Author, "CDXTheme"))
	str("\t", "colorSpaceName", "sRGB")
	str("\t", "semanticClass", "theme."+t.Appearance+"."+Slug(t.Name))
	str("\t", "uuid", stableUUID(t.Name))
	b.WriteString("\t<key>settings</key>\n\t<array>\n")
	b.WriteString("\t\t<dict>\n\t\t\t<key>settings</key>\n\t\t\t<dict>\n")
	for _, kv := range [][2]string{
		{"background", c(u.Background)},
		{"foreground", c(u.Text)},
		{"caret", c(u.Accent)},
		{"selection", c(u.Selection)},
		{"selectionForeground", c(u.Text)},
		{"lineHighlight", c(u.Surface)},
		{"invisibles", c(u.Border)},
		{"gutter", c(u.Background)},
		{"gutterForeground", c(u.MutedText)},
		{"guide", c(u.Border)},
		{"activeGuide", c(u.MutedText)},
		{"findHighlight", c(u.Warning)},
		{"findHighlightForeground", c(u.Background)},
		{"bracketsForeground", c(u.Accent)},
		{"misspelling", c(u.Error)},
	} {
		str("\t\t\t\t", kv[0], kv[1])
	}
	b.WriteString("\t\t\t</dict>\n\t\t</dict>\n")
	rule := func(name, scope, fg, style string) {
		b.WriteString("\t\t<dict>\n")
		str("\t\t\t", "name", name)
		str("\t\t\t", "scope", scope)
		b.WriteString("\t\t\t<key>settings</key>\n\t\t\t<dict>\n")
		str("\t\t\t\t", "foreground", fg)
		if style != "" {
			str("\t\t\t\t", "fontStyle", style)
		}
		b.WriteString("\t\t\t</dict>\n\t\t</dict>\n")
	}
	for _, s := range vscodeScopes {
		rule(s.label, strings.Join(s.scopes, ", "), c(*t.Syntax.Role(s.role)), s.style)
	}
	rule("Invalid", "invalid", c(u.Error), "")
	rule("Inserted", "markup.inserted", c(u.Success), "")
	rule("Deleted", "markup.deleted", c(u.Error), "")
	rule("Changed", "markup.changed", c(u.Warning), "")
	rule("Heading", "markup.heading", c(u.Accent), "bold")
	b.WriteString("\t</array>\n</dict>\n</plist>\n")
	return map[string][]byte{Slug(t.Name) + ".tmTheme": []byte(b.String())}, nil
}

func xmlText(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// stableUUID derives a UUID (version 5 layout) from the theme name, so a
// re-export keeps the id Sublime Text remembers the theme by.
func stableUUID(name string) string {
	h := sha1.Sum([]byte("cdxtheme:" + name))
	h[6] = h[6]&0x0f | 0x50
	h[8] = h[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}
