package theme

import (
	"fmt"
	"strings"
)

// footHex is foot's colour form: six hex digits, no '#'.
func footHex(t *Theme, c Color) string { return t.seen(c).Hex()[1:] }

// renderFoot writes a foot.ini fragment ([cursor] and [colors]) for foot
// 1.13+, included from foot.ini with include=.
func renderFoot(t *Theme) (map[string][]byte, error) {
	u := t.UI
	h := func(c Color) string { return footHex(t, c) }
	var b strings.Builder
	fmt.Fprintf(&b, "# %s — made with CDXTheme.\n", oneLine(t.Name))
	fmt.Fprintf(&b, "# Add include=~/.config/foot/%s.ini to foot.ini.\n\n", Slug(t.Name))
	b.WriteString("[cursor]\n")
	fmt.Fprintf(&b, "color=%s %s\n", h(t.Color("terminal.cursorText")), h(t.Color("terminal.cursor")))
	b.WriteString("\n[colors]\n")
	fmt.Fprintf(&b, "foreground=%s\n", h(u.Text))
	fmt.Fprintf(&b, "background=%s\n", h(u.Background))
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&b, "regular%d=%s\n", i, h(t.ANSI[i]))
	}
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&b, "bright%d=%s\n", i, h(t.ANSI[i+8]))
	}
	fmt.Fprintf(&b, "selection-foreground=%s\n", h(t.Color("terminal.selectionText")))
	fmt.Fprintf(&b, "selection-background=%s\n", h(u.Selection))
	fmt.Fprintf(&b, "urls=%s\n", h(t.Color("terminal.link")))
	fmt.Fprintf(&b, "jump-labels=%s %s\n", h(u.Background), h(u.Warning))
	fmt.Fprintf(&b, "scrollback-indicator=%s %s\n", h(u.Background), h(u.Accent))
	return map[string][]byte{Slug(t.Name) + ".ini": []byte(b.String())}, nil
}
