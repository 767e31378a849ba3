package theme

import (
	"fmt"
	"strings"
)

// helixKey is one Helix theme scope (https://docs.helix-editor.com/themes.html)
// painted with palette entries named after our roles.
type helixKey struct {
	scope, fg, bg, mods, underline string
}

// helixKeys: the syntax scopes Helix's tree-sitter queries use and the
// editor's ui.* scopes.
var helixKeys = []helixKey{
	{scope: "attribute", fg: "constant"},
	{scope: "type", fg: "type"},
	{scope: "type.builtin", fg: "type"},
	{scope: "constructor", fg: "type"},
	{scope: "constant", fg: "constant"},
	{scope: "constant.numeric", fg: "number"},
	{scope: "constant.character.escape", fg: "constant"},
	{scope: "string", fg: "string"},
	{scope: "comment", fg: "comment", mods: "italic"},
	{scope: "variable", fg: "variable"},
	{scope: "variable.parameter", fg: "variable"},
	{scope: "variable.builtin", fg: "constant"},
	{scope: "variable.other.member", fg: "variable"},
	{scope: "label", fg: "keyword"},
	{scope: "punctuation", fg: "operator"},
	{scope: "keyword", fg: "keyword"},
	{scope: "keyword.control", fg: "keyword"},
	{scope: "operator", fg: "operator"},
	{scope: "function", fg: "function"},
	{scope: "function.builtin", fg: "function"},
	{scope: "function.macro", fg: "constant"},
	{scope: "tag", fg: "function"},
	{scope: "namespace", fg: "type"},
	{scope: "special", fg: "accent"},
	{scope: "markup.heading", fg: "accent", mods: "bold"},
	{scope: "markup.bold", mods: "bold"},
	{scope: "markup.italic", mods: "italic"},
	{scope: "markup.link.url", fg: "accent", mods: "underlined"},
	{scope: "markup.link.text", fg: "string"},
	{scope: "markup.quote", fg: "mutedText"},
	{scope: "markup.raw", fg: "string"},
	{scope: "diff.plus", fg: "success"},
	{scope: "diff.minus", fg: "error"},
	{scope: "diff.delta", fg: "warning"},
	{scope: "ui.background", bg: "background"},
	{scope: "ui.text", fg: "text"},
	{scope: "ui.text.focus", fg: "text", bg: "selection"},
	{scope: "ui.cursor", fg: "background", bg: "mutedText"},
	{scope: "ui.cursor.primary", fg: "background", bg: "accent"},
	{scope: "ui.cursor.match", fg: "accent", mods: "bold"},
	{scope: "ui.cursorline.primary", bg: "surface"},
	{scope: "ui.selection", bg: "selection"},
	{scope: "ui.selection.primary", bg: "selection"},
	{scope: "ui.linenr", fg: "mutedText"},
	{scope: "ui.linenr.selected", fg: "text"},
	{scope: "ui.statusline", fg: "text", bg: "surface"},
	{scope: "ui.statusline.inactive", fg: "mutedText", bg: "surface"},
	{scope: "ui.popup", fg: "text", bg: "surface"},
	{scope: "ui.window", fg: "border"},
	{scope: "ui.help", fg: "text", bg: "surface"},
	{scope: "ui.menu", fg: "text", bg: "surface"},
	{scope: "ui.menu.selected", fg: "text", bg: "selection"},
	{scope: "ui.virtual", fg: "border"},
	{scope: "ui.virtual.ruler", bg: "surface"},
	{scope: "ui.virtual.whitespace", fg: "border"},
	{scope: "ui.virtual.indent-guide", fg: "border"},
	{scope: "ui.bufferline", fg: "mutedText", bg: "surface"},
	{scope: "ui.bufferline.active", fg: "text", bg: "background"},
	{scope: "error", fg: "error"},
	{scope: "warning", fg: "warning"},
	{scope: "info", fg: "accent"},
	{scope: "hint", fg: "mutedText"},
	{scope: "diagnostic.error", underline: "error"},
	{scope: "diagnostic.warning", underline: "warning"},
}

// helixPalette names the palette entries after the roles (ui and syntax
// roles by their own name, ANSI colours by theirs), so a Helix user can
// retune one entry.
func helixPalette(t *Theme) [][2]string {
	var out [][2]string
	for _, r := range UIRoles {
		out = append(out, [2]string{r, t.seen(*t.UI.Role(r)).Hex()})
	}
	for _, r := range SyntaxRoles {
		out = append(out, [2]string{r, t.seen(*t.Syntax.Role(r)).Hex()})
	}
	for i, n := range ANSINames {
		out = append(out, [2]string{n, t.seen(t.ANSI[i]).Hex()})
	}
	return out
}

// renderHelix writes ~/.config/helix/themes/{slug}.toml.
func renderHelix(t *Theme) (map[string][]byte, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s — made with CDXTheme.\n", oneLine(t.Name))
	fmt.Fprintf(&b, "# Save in ~/.config/helix/themes/ and set theme = \"%s\" in config.toml.\n\n", Slug(t.Name))
	for _, k := range helixKeys {
		var parts []string
		if k.fg != "" {
			parts = append(parts, fmt.Sprintf("fg = %q", k.fg))
		}
		if k.bg != "" {
			parts = append(parts, fmt.Sprintf("bg = %q", k.bg))
		}
		if k.mods != "" {
			parts = append(parts, fmt.Sprintf("modifiers = [%q]", k.mods))
		}
		if k.underline != "" {
			parts = append(parts, fmt.Sprintf("underline = { color = %q, style = \"curl\" }", k.underline))
		}
		fmt.Fprintf(&b, "%q = { %s }\n", k.scope, strings.Join(parts, ", "))
	}
	b.WriteString("\n[palette]\n")
	for _, p := range helixPalette(t) {
		fmt.Fprintf(&b, "%s = %q\n", p[0], p[1])
	}
	return map[string][]byte{Slug(t.Name) + ".toml": []byte(b.String())}, nil
}
