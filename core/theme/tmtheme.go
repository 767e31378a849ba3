package theme

import (
	"bytes"
	"crypto/sha1"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"strings"
)

// renderTmTheme writes a TextMate theme (.tmTheme, an XML property list),
// the format bat, delta, Sublime Text and syntect read. The scope rules are
// the VS Code exporter's, so every program highlights the same tokens the
// same way. Colours are flattened: bat cannot blend alpha.
func renderTmTheme(t *Theme) (map[string][]byte, error) {
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
	for _, g := range tmThemeSettings {
		str("\t\t\t\t", g.key, c(t.Color(g.role)))
	}
	b.WriteString("\t\t\t</dict>\n\t\t</dict>\n")
	if rules := importedTokenRules(t); rules != nil {
		// An imported VS Code theme's own token rules replace the
		// generated ones there (targets.vscode.tokenColors); bat and
		// Sublime get the same rules, so they paint what VS Code paints.
		for _, r := range rules {
			b.WriteString("\t\t<dict>\n")
			if r.name != "" {
				str("\t\t\t", "name", r.name)
			}
			str("\t\t\t", "scope", r.scope)
			b.WriteString("\t\t\t<key>settings</key>\n\t\t\t<dict>\n")
			if r.fg != nil {
				str("\t\t\t\t", "foreground", c(*r.fg))
			}
			if r.bg != nil {
				str("\t\t\t\t", "background", c(*r.bg))
			}
			if r.style != nil {
				str("\t\t\t\t", "fontStyle", *r.style)
			}
			b.WriteString("\t\t\t</dict>\n\t\t</dict>\n")
		}
		b.WriteString("\t</array>\n</dict>\n</plist>\n")
		return map[string][]byte{Slug(t.Name) + ".tmTheme": []byte(b.String())}, nil
	}
	for _, m := range syntaxMap {
		path := "syntax." + m.role
		b.WriteString("\t\t<dict>\n")
		str("\t\t\t", "name", m.label)
		str("\t\t\t", "scope", strings.Join(m.textmate, ", "))
		b.WriteString("\t\t\t<key>settings</key>\n\t\t\t<dict>\n")
		str("\t\t\t\t", "foreground", c(t.Color(path)))
		// Always written, "" too: TextMate inherits an unset font style
		// from a less specific rule (a bold "keyword" would make
		// "keyword.operator" bold).
		str("\t\t\t\t", "fontStyle", string(t.Style(path)))
		b.WriteString("\t\t\t</dict>\n\t\t</dict>\n")
	}
	b.WriteString("\t</array>\n</dict>\n</plist>\n")
	return map[string][]byte{Slug(t.Name) + ".tmTheme": []byte(b.String())}, nil
}

// tmThemeSettings are the global settings of a TextMate / Sublime Text
// colour scheme (Sublime's "Color Schemes" reference lists them), by role.
var tmThemeSettings = []struct{ key, role string }{
	{"background", "ui.background"},
	{"foreground", "ui.text"},
	{"caret", "terminal.cursor"},
	{"selection", "ui.selection"},
	{"selectionForeground", "terminal.selectionText"},
	{"inactiveSelection", "editor.inactiveSelection"},
	{"lineHighlight", "editor.lineHighlight"},
	{"invisibles", "editor.whitespace"},
	{"gutter", "editor.gutter"},
	{"gutterForeground", "editor.lineNumber"},
	{"gutterForegroundHighlight", "editor.lineNumberActive"},
	{"guide", "editor.indentGuide"},
	{"activeGuide", "editor.indentGuideActive"},
	{"stackGuide", "editor.indentGuide"},
	{"rulers", "editor.ruler"},
	{"findHighlight", "editor.findMatch"},
	{"findHighlightForeground", "ui.text"},
	{"highlight", "editor.wordHighlight"},
	{"bracketsForeground", "editor.bracket1"},
	{"bracketContentsForeground", "editor.bracket2"},
	{"tagsForeground", "syntax.tag"},
	{"misspelling", "diagnostic.error"},
	{"accent", "ui.accent"},
	{"shadow", "editor.shadow"},
	{"line_diff_added", "diff.added"},
	{"line_diff_modified", "diff.changed"},
	{"line_diff_deleted", "diff.removed"},
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

// tokenRule is one TextMate scope rule of an imported VS Code theme.
type tokenRule struct {
	name, scope string
	fg, bg      *Color
	style       *string
}

// importedTokenRules reads targets.vscode.tokenColors as TextMate rules;
// nil when the theme has none. A rule without a scope (VS Code's global
// default) or without a colour or style is left out, and so is a colour
// that does not parse: the role colours stand there.
func importedTokenRules(t *Theme) []tokenRule {
	if t.Targets == nil || t.Targets.VSCode == nil || len(t.Targets.VSCode.TokenColors) == 0 {
		return nil
	}
	var items []struct {
		Name     string          `json:"name"`
		Scope    json.RawMessage `json:"scope"`
		Settings struct {
			Foreground *string `json:"foreground"`
			Background *string `json:"background"`
			FontStyle  *string `json:"fontStyle"`
		} `json:"settings"`
	}
	if json.Unmarshal(t.Targets.VSCode.TokenColors, &items) != nil {
		return nil
	}
	var out []tokenRule
	for _, it := range items {
		var scope string
		if json.Unmarshal(it.Scope, &scope) != nil {
			var list []string
			if json.Unmarshal(it.Scope, &list) != nil {
				continue
			}
			scope = strings.Join(list, ", ")
		}
		if strings.TrimSpace(scope) == "" {
			continue
		}
		r := tokenRule{name: it.Name, scope: scope, style: it.Settings.FontStyle}
		if it.Settings.Foreground != nil {
			if c, err := parseLooseColor(*it.Settings.Foreground); err == nil {
				r.fg = &c
			}
		}
		if it.Settings.Background != nil {
			if c, err := parseLooseColor(*it.Settings.Background); err == nil {
				r.bg = &c
			}
		}
		if r.fg == nil && r.bg == nil && r.style == nil {
			continue
		}
		out = append(out, r)
	}
	if out == nil {
		return []tokenRule{}
	}
	return out
}
