package theme

import (
	"fmt"
	"strings"
)

// renderWezTerm writes a WezTerm colour scheme file (TOML with [metadata]
// and [colors]), found by its name once it lies in a colors/ folder.
func renderWezTerm(t *Theme) (map[string][]byte, error) {
	u := t.UI
	var b strings.Builder
	fmt.Fprintf(&b, "# %s — made with CDXTheme.\n", oneLine(t.Name))
	fmt.Fprintf(&b, "# Save in ~/.config/wezterm/colors/ and set config.color_scheme = %s.\n\n", tomlQuote(oneLine(t.Name)))
	b.WriteString("[metadata]\n")
	fmt.Fprintf(&b, "name = %s\n", tomlQuote(oneLine(t.Name)))
	fmt.Fprintf(&b, "author = %s\n", tomlQuote(oneLine(orDefault(t.Author, "CDXTheme"))))
	kv := func(k string, c Color) { fmt.Fprintf(&b, "%s = %q\n", k, t.seen(c).Hex()) }
	list := func(k string, cs []Color) {
		q := make([]string, len(cs))
		for i, c := range cs {
			q[i] = fmt.Sprintf("%q", t.seen(c).Hex())
		}
		fmt.Fprintf(&b, "%s = [%s]\n", k, strings.Join(q, ", "))
	}
	b.WriteString("\n[colors]\n")
	kv("foreground", u.Text)
	kv("background", u.Background)
	kv("cursor_bg", t.Color("terminal.cursor"))
	kv("cursor_border", t.Color("terminal.cursor"))
	kv("cursor_fg", t.Color("terminal.cursorText"))
	kv("selection_bg", u.Selection)
	kv("selection_fg", t.Color("terminal.selectionText"))
	kv("scrollbar_thumb", u.Border)
	kv("split", u.Border)
	kv("compose_cursor", u.Warning)
	list("ansi", t.ANSI[:8])
	list("brights", t.ANSI[8:])
	b.WriteString("\n[colors.tab_bar]\n")
	kv("background", u.Surface)
	kv("inactive_tab_edge", u.Border)
	for _, tab := range []struct {
		name   string
		bg, fg Color
	}{
		{"active_tab", u.Background, u.Text},
		{"inactive_tab", u.Surface, u.MutedText},
		{"inactive_tab_hover", u.Selection, u.Text},
		{"new_tab", u.Surface, u.MutedText},
		{"new_tab_hover", u.Selection, u.Text},
	} {
		fmt.Fprintf(&b, "\n[colors.tab_bar.%s]\n", tab.name)
		kv("bg_color", tab.bg)
		kv("fg_color", tab.fg)
	}
	return map[string][]byte{Slug(t.Name) + ".toml": []byte(b.String())}, nil
}
