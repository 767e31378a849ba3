package theme

import (
	"fmt"
	"sort"
	"strings"
)

// helixKey is one Helix theme scope (https://docs.helix-editor.com/themes.html).
// fg/bg/underline name catalogue roles, or a helixOn pair; mods are Helix
// modifiers; font names a syntax role whose font style adds modifiers.
type helixKey struct {
	scope, fg, bg, mods, underline, font string
}

// helixOn marks a text colour chosen for contrast on a background role:
// "on:ui.success" is whichever of ui.background and ui.text reads better on
// ui.success (the statusline mode labels).
const helixOn = "on:"

// helixUI are the editor's ui.* and diagnostic scopes; the syntax scopes
// come from syntaxMap.
var helixUI = []helixKey{
	{scope: "ui.background", bg: "ui.background"},
	{scope: "ui.background.separator", fg: "ui.border"},
	{scope: "ui.text", fg: "ui.text"},
	{scope: "ui.text.focus", fg: "terminal.selectionText", bg: "ui.selection", mods: "bold"},
	{scope: "ui.text.inactive", fg: "ui.mutedText"},
	{scope: "ui.text.info", fg: "ui.text"},
	{scope: "ui.text.directory", fg: "ui.accent"},
	{scope: "ui.cursor", fg: "ui.background", bg: "ui.mutedText"},
	{scope: "ui.cursor.primary", fg: "terminal.cursorText", bg: "terminal.cursor"},
	// Mode cursors (issue #39): normal mode is the theme's cursor, insert
	// and select take the statusline's mode colours below; other cursors
	// stay muted in every mode.
	{scope: "ui.cursor.primary.normal", fg: "terminal.cursorText", bg: "terminal.cursor"},
	{scope: "ui.cursor.primary.insert", fg: helixOn + "ui.success", bg: "ui.success"},
	{scope: "ui.cursor.primary.select", fg: helixOn + "syntax.keyword", bg: "syntax.keyword"},
	{scope: "ui.cursor.normal", fg: "ui.background", bg: "ui.mutedText"},
	{scope: "ui.cursor.insert", fg: "ui.background", bg: "ui.mutedText"},
	{scope: "ui.cursor.select", fg: "ui.background", bg: "ui.mutedText"},
	{scope: "ui.cursor.match", fg: "ui.accent", bg: "editor.bracketMatch", mods: "bold"},
	{scope: "ui.cursorline.primary", bg: "editor.lineHighlight"},
	{scope: "ui.cursorline.secondary", bg: "editor.lineHighlight"},
	{scope: "ui.cursorcolumn.primary", bg: "editor.lineHighlight"},
	{scope: "ui.selection", bg: "editor.inactiveSelection"},
	{scope: "ui.selection.primary", bg: "ui.selection"},
	{scope: "ui.highlight", bg: "editor.wordHighlight"},
	{scope: "ui.gutter", bg: "editor.gutter"},
	{scope: "ui.gutter.selected", bg: "editor.lineHighlight"},
	{scope: "ui.linenr", fg: "editor.lineNumber"},
	{scope: "ui.linenr.selected", fg: "editor.lineNumberActive", mods: "bold"},
	{scope: "ui.statusline", fg: "ui.text", bg: "ui.surface"},
	{scope: "ui.statusline.inactive", fg: "ui.mutedText", bg: "ui.surface"},
	{scope: "ui.statusline.normal", fg: "editor.accentText", bg: "ui.accent", mods: "bold"},
	{scope: "ui.statusline.insert", fg: helixOn + "ui.success", bg: "ui.success", mods: "bold"},
	{scope: "ui.statusline.select", fg: helixOn + "syntax.keyword", bg: "syntax.keyword", mods: "bold"},
	{scope: "ui.statusline.separator", fg: "ui.border", bg: "ui.surface"},
	{scope: "ui.popup", fg: "ui.text", bg: "ui.surface"},
	{scope: "ui.popup.info", fg: "ui.text", bg: "ui.surface"},
	{scope: "ui.window", fg: "ui.border"},
	{scope: "ui.help", fg: "ui.text", bg: "ui.surface"},
	{scope: "ui.menu", fg: "ui.text", bg: "ui.surface"},
	{scope: "ui.menu.selected", fg: "terminal.selectionText", bg: "ui.selection", mods: "bold"},
	{scope: "ui.menu.scroll", fg: "editor.scrollbar", bg: "ui.surface"},
	{scope: "ui.picker.header", fg: "ui.accent", mods: "bold"},
	{scope: "ui.virtual", fg: "editor.whitespace"},
	{scope: "ui.virtual.ruler", bg: "editor.ruler"},
	{scope: "ui.virtual.whitespace", fg: "editor.whitespace"},
	{scope: "ui.virtual.indent-guide", fg: "editor.indentGuide"},
	{scope: "ui.virtual.wrap", fg: "editor.whitespace"},
	{scope: "ui.virtual.inlay-hint", fg: "editor.inlayHint", bg: "editor.inlayHintBackground"},
	{scope: "ui.virtual.inlay-hint.parameter", fg: "editor.inlayHint", bg: "editor.inlayHintBackground"},
	{scope: "ui.virtual.inlay-hint.type", fg: "editor.inlayHint", bg: "editor.inlayHintBackground"},
	{scope: "ui.virtual.jump-label", fg: "editor.accentText", bg: "ui.accent", mods: "bold"},
	{scope: "ui.bufferline", fg: "ui.mutedText", bg: "ui.surface"},
	{scope: "ui.bufferline.active", fg: "ui.text", bg: "ui.background", mods: "bold"},
	{scope: "ui.bufferline.background", bg: "ui.surface"},
	{scope: "special", fg: "ui.accent"},
	{scope: "error", fg: "diagnostic.error"},
	{scope: "warning", fg: "diagnostic.warning"},
	{scope: "info", fg: "diagnostic.info"},
	{scope: "hint", fg: "diagnostic.hint"},
	{scope: "diagnostic.error", underline: "diagnostic.error"},
	{scope: "diagnostic.warning", underline: "diagnostic.warning"},
	{scope: "diagnostic.info", underline: "diagnostic.info"},
	{scope: "diagnostic.hint", underline: "diagnostic.hint"},
	{scope: "diagnostic.unnecessary", fg: "diagnostic.unnecessary"},
	{scope: "diagnostic.deprecated", mods: "crossed_out"},
}

// helixMods are the Helix modifiers of our font style words.
var helixMods = map[string]string{"bold": "bold", "italic": "italic", "underline": "underlined", "strikethrough": "crossed_out"}

// helixKeys are every scope the export writes: the ui list, then each
// syntax role's Helix scopes (syntaxMap) in its colour and font style.
func helixKeys() []helixKey {
	out := append([]helixKey(nil), helixUI...)
	for _, m := range syntaxMap {
		for _, s := range m.helix {
			out = append(out, helixKey{scope: s, fg: "syntax." + m.role, font: "syntax." + m.role})
		}
	}
	return out
}

// helixName is a role's palette entry: the role's own name for ui,
// syntax and ANSI colours (as earlier exports named them), group_name for
// the others, whose names repeat across groups (diff.changed,
// syntax.changed); on_<name> for a contrast-chosen text colour.
func helixName(path string) string {
	if on, ok := strings.CutPrefix(path, helixOn); ok {
		return "on_" + helixName(on)
	}
	group, role, _ := strings.Cut(path, ".")
	switch group {
	case "ui", "syntax", "ansi":
		return role
	}
	return group + "_" + role
}

// helixColor is the colour a palette entry holds.
func helixColor(t *Theme, path string) Color {
	if on, ok := strings.CutPrefix(path, helixOn); ok {
		bg := t.seen(t.Color(on))
		return readable(bg, t.seen(t.UI.Background), t.seen(t.UI.Text))
	}
	return t.seen(t.Color(path))
}

// helixPalette names every ui, syntax and ANSI colour (so a Helix user can
// retune one entry) and every other role a key uses.
func helixPalette(t *Theme, keys []helixKey) [][2]string {
	var paths []string
	for _, g := range []string{"ui", "syntax"} {
		for _, r := range GroupRoles(g) {
			paths = append(paths, g+"."+r)
		}
	}
	for _, n := range ANSINames {
		paths = append(paths, "ansi."+n)
	}
	have := map[string]bool{}
	for _, p := range paths {
		have[p] = true
	}
	var extra []string
	for _, k := range keys {
		for _, p := range []string{k.fg, k.bg, k.underline} {
			if p != "" && !have[p] {
				have[p] = true
				extra = append(extra, p)
			}
		}
	}
	sort.Strings(extra)
	var out [][2]string
	for _, p := range append(paths, extra...) {
		out = append(out, [2]string{helixName(p), helixColor(t, p).Hex()})
	}
	return out
}

// renderHelix writes ~/.config/helix/themes/{slug}.toml.
func renderHelix(t *Theme) (map[string][]byte, error) {
	keys := helixKeys()
	var b strings.Builder
	fmt.Fprintf(&b, "# %s — made with CDXTheme.\n", oneLine(t.Name))
	fmt.Fprintf(&b, "# Save in ~/.config/helix/themes/ and set theme = \"%s\" in config.toml.\n\n", Slug(t.Name))
	for _, k := range keys {
		var parts []string
		if k.fg != "" {
			parts = append(parts, fmt.Sprintf("fg = %q", helixName(k.fg)))
		}
		if k.bg != "" {
			parts = append(parts, fmt.Sprintf("bg = %q", helixName(k.bg)))
		}
		var mods []string
		if k.mods != "" {
			mods = strings.Split(k.mods, ",")
		}
		if k.font != "" {
			for _, w := range strings.Fields(string(t.Style(k.font))) {
				mods = append(mods, helixMods[w])
			}
		}
		if len(mods) > 0 {
			q := make([]string, len(mods))
			for i, m := range mods {
				q[i] = fmt.Sprintf("%q", m)
			}
			parts = append(parts, "modifiers = ["+strings.Join(q, ", ")+"]")
		}
		if k.underline != "" {
			parts = append(parts, fmt.Sprintf("underline = { color = %q, style = \"curl\" }", helixName(k.underline)))
		}
		fmt.Fprintf(&b, "%q = { %s }\n", k.scope, strings.Join(parts, ", "))
	}
	b.WriteString("\n[palette]\n")
	for _, p := range helixPalette(t, keys) {
		fmt.Fprintf(&b, "%s = %q\n", p[0], p[1])
	}
	return map[string][]byte{Slug(t.Name) + ".toml": []byte(b.String())}, nil
}
