package theme

import (
	"fmt"
	"strings"
)

// tmuxAA is the contrast every text style of the fragment reaches: WCAG AA
// for normal text.
const tmuxAA = 4.5

// tmuxStyle is one tmux style option ("fg=…,bg=…[,attr]"). bg is a role;
// text lists the roles the text may take, in the order preferred: the
// first that reaches tmuxAA on bg is used. A signal style (activity,
// bell) paints its text in signal when that reads on bg, else turns it
// into the background under readable text. since is the tmux version
// that added the option: such options are set with -q, which older tmux
// skips instead of failing the whole file.
type tmuxStyle struct {
	option, bg  string
	text        []string
	signal      string
	attr, since string
}

// The text preferences: the designer's muted status text when it reads,
// else the main text, else the background colour (text on a light bar).
var (
	barText  = []string{"ui.mutedText", "ui.text", "ui.background"}
	mainText = []string{"ui.text", "ui.mutedText", "ui.background"}
	onAccent = []string{"editor.accentText", "ui.background", "ui.text"}
	onSelect = []string{"terminal.selectionText", "ui.text", "ui.background"}
)

var tmuxStyles = []tmuxStyle{
	{option: "status-style", bg: "ui.surface", text: barText},
	{option: "status-left-style", bg: "ui.accent", text: onAccent, attr: "bold"},
	{option: "status-right-style", bg: "ui.surface", text: barText},
	{option: "window-status-style", bg: "ui.surface", text: barText},
	{option: "window-status-current-style", bg: "ui.background", text: mainText, attr: "bold"},
	{option: "window-status-last-style", bg: "ui.surface", text: mainText},
	{option: "window-status-activity-style", bg: "ui.surface", text: barText, signal: "ui.warning"},
	{option: "window-status-bell-style", bg: "ui.surface", text: barText, signal: "ui.error", attr: "bold"},
	{option: "message-style", bg: "ui.surface", text: mainText},
	{option: "message-command-style", bg: "ui.surface", text: mainText},
	{option: "mode-style", bg: "ui.selection", text: onSelect},
	{option: "copy-mode-match-style", bg: "editor.findMatchHighlight", text: mainText, since: "3.2"},
	{option: "copy-mode-current-match-style", bg: "editor.findMatch", text: mainText, attr: "bold", since: "3.2"},
	{option: "copy-mode-mark-style", bg: "editor.wordHighlight", text: mainText, since: "3.2"},
	{option: "popup-style", bg: "ui.surface", text: mainText, since: "3.2"},
	{option: "menu-style", bg: "ui.surface", text: mainText, since: "3.4"},
	{option: "menu-selected-style", bg: "ui.selection", text: onSelect, since: "3.4"},
}

// tmuxLines are the options that draw no text: borders and markers.
var tmuxLines = []struct{ option, fg, since string }{
	{"pane-border-style", "ui.border", ""},
	{"pane-active-border-style", "ui.accent", ""},
	{"popup-border-style", "ui.border", "3.2"},
	{"menu-border-style", "ui.border", "3.4"},
}

var tmuxColours = []struct{ option, role string }{
	{"display-panes-colour", "ui.border"},
	{"display-panes-active-colour", "ui.accent"},
	{"clock-mode-colour", "ui.accent"},
}

// tmuxText is the text colour for a background: the first preference
// reaching tmuxAA, else black or white, one of which always does (the
// contrast to one of them is at least 4.58:1).
func tmuxText(t *Theme, bg Color, prefs []string) Color {
	for _, p := range prefs {
		if c := t.seen(t.Color(p)); Ratio(c, bg) >= tmuxAA {
			return c
		}
	}
	return readable(bg, Color{A: 255}, Color{R: 255, G: 255, B: 255, A: 255})
}

// tmuxPair is the fg and bg a style option gets.
func tmuxPair(t *Theme, s tmuxStyle) (fg, bg Color) {
	bg = t.seen(t.Color(s.bg))
	if s.signal != "" {
		sig := t.seen(t.Color(s.signal))
		if Ratio(sig, bg) >= tmuxAA {
			return sig, bg
		}
		return tmuxText(t, sig, mainText), sig
	}
	return tmuxText(t, bg, s.text), bg
}

// renderTmux writes a tmux.conf fragment (tmux 3.0+; the options of later
// versions set quietly) for the status line, windows, messages, copy mode,
// popups, menus and pane borders; load it with source-file.
func renderTmux(t *Theme) (map[string][]byte, error) {
	set := func(since string) string {
		if since != "" {
			return "set -gq"
		}
		return "set -g"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s — made with CDXTheme.\n", oneLine(t.Name))
	fmt.Fprintf(&b, "# Add source-file ~/.config/tmux/%s.conf to tmux.conf.\n", Slug(t.Name))
	b.WriteString("# Every text colour reads at 4.5:1 or more on its background.\n")
	for _, s := range tmuxStyles {
		fg, bg := tmuxPair(t, s)
		v := "fg=" + fg.Hex() + ",bg=" + bg.Hex()
		if s.attr != "" {
			v += "," + s.attr
		}
		fmt.Fprintf(&b, "%s %s \"%s\"\n", set(s.since), s.option, v)
	}
	for _, l := range tmuxLines {
		fmt.Fprintf(&b, "%s %s \"fg=%s\"\n", set(l.since), l.option, t.seen(t.Color(l.fg)).Hex())
	}
	for _, c := range tmuxColours {
		fmt.Fprintf(&b, "set -g %s \"%s\"\n", c.option, t.seen(t.Color(c.role)).Hex())
	}
	return map[string][]byte{Slug(t.Name) + ".conf": []byte(b.String())}, nil
}
