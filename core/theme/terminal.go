package theme

import "strings"

// Terminal formats: none of these programs draws alpha in its palette, so
// every colour is flattened onto the theme background (t.seen).

// oneLine makes a theme name safe for a comment line.
func OneLine(s string) string {
	return strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)), " ")
}

// dimPath is the role path of the faint (SGR 2) form of ANSI colour i
// (0–7).
func DimPath(i int) string {
	n := ANSINames[i]
	return "terminal.dim" + strings.ToUpper(n[:1]) + n[1:]
}
