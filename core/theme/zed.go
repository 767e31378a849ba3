package theme

// ZedSchema is the theme-family schema Zed validates user themes against.
const ZedSchema = "https://zed.dev/schema/themes/v0.2.0.json"

type zedFamily struct {
	Schema string     `json:"$schema"`
	Name   string     `json:"name"`
	Author string     `json:"author"`
	Themes []zedTheme `json:"themes"`
}

type zedTheme struct {
	Name       string         `json:"name"`
	Appearance string         `json:"appearance"`
	Style      map[string]any `json:"style"`
}

type zedHighlight struct {
	Color     string `json:"color"`
	FontStyle string `json:"font_style,omitempty"`
}

type zedPlayer struct {
	Cursor     string `json:"cursor"`
	Background string `json:"background"`
	Selection  string `json:"selection"`
}

// zedANSI are Zed's terminal colour key suffixes in ANSI order.
var zedANSI = []string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"}

// zedSyntax maps Zed's highlight names to our roles.
var zedSyntax = []struct{ zed, role, style string }{
	{"keyword", "keyword", ""},
	{"string", "string", ""},
	{"string.escape", "constant", ""},
	{"comment", "comment", "italic"},
	{"comment.doc", "comment", "italic"},
	{"function", "function", ""},
	{"type", "type", ""},
	{"constructor", "type", ""},
	{"number", "number", ""},
	{"boolean", "constant", ""},
	{"constant", "constant", ""},
	{"variable", "variable", ""},
	{"property", "variable", ""},
	{"operator", "operator", ""},
	{"punctuation", "operator", ""},
}

func renderZed(t *Theme) (map[string][]byte, error) {
	u := t.UI
	s := map[string]any{
		"background":                    u.Background.String(),
		"surface.background":            u.Surface.String(),
		"elevated_surface.background":   u.Surface.String(),
		"panel.background":              u.Surface.String(),
		"status_bar.background":         u.Surface.String(),
		"title_bar.background":          u.Surface.String(),
		"tab_bar.background":            u.Surface.String(),
		"toolbar.background":            u.Background.String(),
		"tab.active_background":         u.Background.String(),
		"tab.inactive_background":       u.Surface.String(),
		"border":                        u.Border.String(),
		"border.variant":                u.Border.String(),
		"border.focused":                u.Accent.String(),
		"element.selected":              u.Selection.String(),
		"element.hover":                 u.Surface.String(),
		"text":                          u.Text.String(),
		"text.muted":                    u.MutedText.String(),
		"text.placeholder":              u.MutedText.String(),
		"text.accent":                   u.Accent.String(),
		"icon":                          u.Text.String(),
		"icon.muted":                    u.MutedText.String(),
		"icon.accent":                   u.Accent.String(),
		"link_text.hover":               u.Accent.String(),
		"editor.background":             u.Background.String(),
		"editor.foreground":             u.Text.String(),
		"editor.gutter.background":      u.Background.String(),
		"editor.active_line.background": u.Surface.String(),
		"editor.line_number":            u.MutedText.String(),
		"editor.active_line_number":     u.Text.String(),
		"error":                         u.Error.String(),
		"warning":                       u.Warning.String(),
		"success":                       u.Success.String(),
		"info":                          u.Accent.String(),
		"created":                       u.Success.String(),
		"modified":                      u.Warning.String(),
		"deleted":                       u.Error.String(),
		"terminal.background":           u.Background.String(),
		"terminal.foreground":           u.Text.String(),
		"players":                       []zedPlayer{{Cursor: u.Accent.String(), Background: u.Accent.String(), Selection: u.Selection.String()}},
	}
	for i, n := range zedANSI {
		s["terminal.ansi."+n] = t.ANSI[i].String()
		s["terminal.ansi.bright_"+n] = t.ANSI[i+8].String()
	}
	syntax := map[string]zedHighlight{}
	for _, m := range zedSyntax {
		syntax[m.zed] = zedHighlight{Color: t.Syntax.Role(m.role).String(), FontStyle: m.style}
	}
	s["syntax"] = syntax
	applyZedTargets(t, s)
	author := t.Author
	if author == "" {
		author = "CDXTheme"
	}
	fam := zedFamily{
		Schema: ZedSchema, Name: t.Name, Author: author,
		Themes: []zedTheme{{Name: t.Name, Appearance: t.Appearance, Style: s}},
	}
	b, err := marshalJSON(fam)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{Slug(t.Name) + ".json": b}, nil
}
