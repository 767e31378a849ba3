// Package contrast measures a theme's reading pairs (WCAG 2.x ratio and
// APCA Lc of every foreground role on the background it is read on),
// lists those below AA, words the agent's fix prompt, and finds the
// nearest colour at which a role passes (make it pass).
package contrast

import (
	"fmt"
	"math"
	"strings"

	"cdxtheme/core/colour"
	"cdxtheme/core/theme"
)

// WCAG 2.x contrast thresholds.
const (
	AA      = 4.5 // normal text, level AA
	AAA     = 7.0 // normal text, level AAA
	AALarge = 3.0 // large text (and AAA large would be 4.5)
)

// Check is one foreground/background pair measured for contrast. FG and BG
// are the colours as seen (translucent ones composited), so the UI can show
// swatches that match the ratio.
type Check struct {
	FG      string  `json:"fg"`
	BG      string  `json:"bg"`
	FGRole  string  `json:"fgRole"`
	BGRole  string  `json:"bgRole"`
	Ratio   float64 `json:"ratio"` // rounded to 2 decimals; the flags use the exact value
	AA      bool    `json:"aa"`
	AAA     bool    `json:"aaa"`
	AALarge bool    `json:"aaLarge"`
	// APCA is the APCA-W3 Lc of the pair (signed, rounded to 1 decimal).
	APCA float64 `json:"apca"`
	// FGFollows and BGFollows are the palette references the two roles
	// follow ("blue", "blue.600"), "" for a role with its own colour or a
	// derived one: a failing pair is fixed in the palette entry when it
	// is one.
	FGFollows string `json:"fgFollows,omitempty"`
	BGFollows string `json:"bgFollows,omitempty"`
}

// Label names a side of a pair for a reader: the role, and the palette
// reference it follows in brackets ("ui.accent [blue]").
func label(role, follows string) string {
	if follows == "" {
		return role
	}
	return role + " [" + follows + "]"
}

// FGLabel is the foreground role with the palette reference it follows.
func (c Check) FGLabel() string { return label(c.FGRole, c.FGFollows) }

// BGLabel is the background role with the palette reference it follows.
func (c Check) BGLabel() string { return label(c.BGRole, c.BGFollows) }

// Checks measures every pair a reader depends on: UI text roles on the
// background and the surface, every syntax role on the background, text on
// the selection, and the ANSI foreground colours (not black/brightBlack,
// which are mostly used as backgrounds) on the background.
func Checks(t *theme.Theme) []Check {
	bg := t.UI.Background.Over(theme.Color{A: 255}) // a translucent background is seen over black
	surface := t.UI.Surface.Over(bg)
	selection := t.UI.Selection.Over(bg)
	var out []Check
	add := func(fgRole string, fg theme.Color, bgRole string, bgc theme.Color) {
		seen := fg.Over(bgc)
		r := colour.Ratio(seen, bgc)
		out = append(out, Check{
			FG: seen.Hex(), BG: bgc.Hex(), FGRole: fgRole, BGRole: bgRole,
			Ratio: math.Round(r*100) / 100,
			AA:    r >= AA, AAA: r >= AAA, AALarge: r >= AALarge,
			APCA:      math.Round(colour.APCA(seen, bgc)*10) / 10,
			FGFollows: t.Follows(fgRole), BGFollows: t.Follows(bgRole),
		})
	}
	for _, r := range []string{"text", "mutedText", "accent", "error", "warning", "success"} {
		add("ui."+r, *t.UI.Role(r), "ui.background", bg)
		add("ui."+r, *t.UI.Role(r), "ui.surface", surface)
	}
	for _, r := range theme.SyntaxRoles {
		add("syntax."+r, *t.Syntax.Role(r), "ui.background", bg)
	}
	add("ui.text", t.UI.Text, "ui.selection", selection)
	for i, c := range t.ANSI {
		if i == 0 || i == 8 {
			continue
		}
		add("ansi."+theme.ANSINames[i], c, "ui.background", bg)
	}
	// The optional roles: a pair is measured once per colour pair, so a
	// theme that sets none of them reports what version 1 reported plus
	// the pairs their default rules make new (text on the current line,
	// on a diff line, the cursor's text).
	measured := map[[2]string]bool{}
	for _, c := range out {
		measured[[2]string{c.FG, c.BG}] = true
	}
	for _, p := range optionalPairs() {
		bgc := t.Color(p[1]).Over(bg)
		fg := t.Color(p[0])
		if key := [2]string{fg.Over(bgc).Hex(), bgc.Hex()}; !measured[key] {
			measured[key] = true
			add(p[0], fg, p[1], bgc)
		}
	}
	return out
}

// optionalPairs are the reading pairs of the optional roles: foreground
// role on background role.
func optionalPairs() [][2]string {
	pairs := [][2]string{
		{"ui.text", "editor.lineHighlight"},
		{"editor.lineNumber", "editor.gutter"},
		{"editor.lineNumberActive", "editor.gutter"},
		{"editor.inlayHint", "editor.inlayHintBackground"},
		{"ui.text", "editor.findMatch"},
		{"ui.text", "diff.addedLine"},
		{"ui.text", "diff.removedLine"},
		{"ui.text", "diff.changedLine"},
		{"terminal.cursorText", "terminal.cursor"},
		{"terminal.selectionText", "ui.selection"},
		{"terminal.bold", "ui.background"},
		{"terminal.link", "ui.background"},
	}
	for _, r := range []string{"error", "warning", "info", "hint"} {
		pairs = append(pairs, [2]string{"diagnostic." + r, "ui.background"})
	}
	for _, info := range theme.Catalogue() {
		if info.Group == "syntax" && !info.Required {
			pairs = append(pairs, [2]string{info.Path, "ui.background"})
		}
	}
	return pairs
}

// Failures returns the checks below AA.
func Failures(checks []Check) []Check {
	var out []Check
	for _, c := range checks {
		if !c.AA {
			out = append(out, c)
		}
	}
	return out
}

// FixPrompt is the follow-up prompt for "Fix with agent": it lists every
// pair below AA and asks for the smallest change that passes. It is "" when
// nothing fails.
func FixPrompt(checks []Check) string {
	fails := Failures(checks)
	if len(fails) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The contrast check found %d colour pair(s) in %s below WCAG AA (4.5:1):\n\n", len(fails), theme.FileName)
	palette := false
	for _, c := range fails {
		fmt.Fprintf(&b, "- %s %s on %s %s: %.2f:1\n", c.FGLabel(), c.FG, c.BGLabel(), c.BG, c.Ratio)
		palette = palette || c.FGFollows != "" || c.BGFollows != ""
	}
	b.WriteString("\nPlease edit " + theme.FileName + " so every pair above reaches at least 4.5:1. ")
	if palette {
		b.WriteString("A role in [brackets] follows that palette entry: change the entry (every role following it moves with it) or point the role at another entry or ramp step; give a role its own hex only when no entry fits. ")
	}
	b.WriteString("Change the foreground colours first and keep their hue, so the theme keeps its character; ")
	b.WriteString("leave colours that already pass unchanged, and keep the file valid (hex colours #rrggbb, or the names of palette entries).")
	return b.String()
}
