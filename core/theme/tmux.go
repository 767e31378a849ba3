package theme

import (
	"fmt"
	"strings"
)

// tmuxStyles are the tmux 3.x options a theme sets: a style option takes
// "fg=…,bg=…[,attr]", a colour option a single colour.
var tmuxStyles = []struct {
	option, fg, bg, attr string
}{
	{"status-style", "ui.mutedText", "ui.surface", ""},
	{"status-left-style", "ui.background", "ui.accent", "bold"},
	{"status-right-style", "ui.mutedText", "ui.surface", ""},
	{"window-status-style", "ui.mutedText", "ui.surface", ""},
	{"window-status-current-style", "ui.text", "ui.background", "bold"},
	{"window-status-activity-style", "ui.warning", "ui.surface", ""},
	{"window-status-bell-style", "ui.error", "ui.surface", "bold"},
	{"pane-border-style", "ui.border", "", ""},
	{"pane-active-border-style", "ui.accent", "", ""},
	{"message-style", "ui.text", "ui.surface", ""},
	{"message-command-style", "ui.text", "ui.surface", ""},
	{"mode-style", "ui.text", "ui.selection", ""},
}

var tmuxColours = []struct{ option, role string }{
	{"display-panes-colour", "ui.border"},
	{"display-panes-active-colour", "ui.accent"},
	{"clock-mode-colour", "ui.accent"},
}

// renderTmux writes a tmux.conf fragment (tmux 3.0+) for the status line,
// borders, messages and copy mode; load it with source-file.
func renderTmux(t *Theme) (map[string][]byte, error) {
	col := func(role string) string { return t.seen(t.Color(role)).Hex() }
	var b strings.Builder
	fmt.Fprintf(&b, "# %s — made with CDXTheme.\n", oneLine(t.Name))
	fmt.Fprintf(&b, "# Add source-file ~/.config/tmux/%s.conf to tmux.conf.\n", Slug(t.Name))
	for _, s := range tmuxStyles {
		var parts []string
		if s.fg != "" {
			parts = append(parts, "fg="+col(s.fg))
		}
		if s.bg != "" {
			parts = append(parts, "bg="+col(s.bg))
		}
		if s.attr != "" {
			parts = append(parts, s.attr)
		}
		fmt.Fprintf(&b, "set -g %s \"%s\"\n", s.option, strings.Join(parts, ","))
	}
	for _, c := range tmuxColours {
		fmt.Fprintf(&b, "set -g %s \"%s\"\n", c.option, col(c.role))
	}
	return map[string][]byte{Slug(t.Name) + ".conf": []byte(b.String())}, nil
}
