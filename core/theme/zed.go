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

// zedHighlight is a syntax style: Zed takes a colour, font_style
// (normal/italic/oblique) and font_weight (100–900); it has no underline
// or strikethrough for syntax.
type zedHighlight struct {
	Color      string `json:"color"`
	FontStyle  string `json:"font_style,omitempty"`
	FontWeight int    `json:"font_weight,omitempty"`
}

type zedPlayer struct {
	Cursor     string `json:"cursor"`
	Background string `json:"background"`
	Selection  string `json:"selection"`
}

// zedStyleTable maps roles to Zed's style keys (the keys of Zed's built-in
// One Dark and its theme schema, testdata/vocab/zed-style.txt), in the
// format of vscodeColorTable; "role@0.1" is the role at that opacity, "@0"
// transparent. Zed's status colours each have a tinted ".background" and
// a ".border".
const zedStyleTable = `
ui.background background editor.background editor.gutter.background toolbar.background tab.active_background terminal.background terminal.ansi.background
ui.background@0 border.transparent ghost_element.background scrollbar.track.background panel.focused_border pane.focused_border
ui.surface surface.background elevated_surface.background element.background element.disabled ghost_element.disabled panel.background status_bar.background title_bar.background title_bar.inactive_background tab_bar.background tab.inactive_background editor.subheader.background
ui.border border border.variant border.disabled pane_group.border scrollbar.thumb.border scrollbar.track.border
ui.accent border.focused text.accent icon.accent link_text.hover debugger.accent
ui.selection border.selected element.selected element.active ghost_element.selected ghost_element.active
editor.hover element.hover ghost_element.hover drop_target.background scrollbar.thumb.hover_background
editor.scrollbar scrollbar.thumb.background scrollbar.thumb.active_background
ui.text text icon editor.foreground terminal.foreground terminal.bright_foreground
ui.mutedText text.muted icon.muted text.placeholder icon.placeholder text.disabled icon.disabled
terminal.dimForeground terminal.dim_foreground
editor.findMatchHighlight search.match_background
editor.findMatch search.active_match_background editor.debugger_active_line.background
editor.lineHighlight editor.active_line.background editor.highlighted_line.background
editor.lineNumber editor.line_number
editor.lineNumberActive editor.active_line_number editor.hover_line_number
editor.whitespace editor.invisible
editor.ruler editor.wrap_guide editor.active_wrap_guide
editor.indentGuide editor.indent_guide panel.indent_guide
editor.indentGuideActive editor.indent_guide_active panel.indent_guide_active panel.indent_guide_hover
editor.wordHighlight editor.document_highlight.read_background editor.document_highlight.write_background
editor.bracketMatch editor.document_highlight.bracket_background
diff.added version_control.added created
diff.removed version_control.deleted deleted
diff.changed version_control.modified modified
diff.addedText version_control.word_added
diff.removedText version_control.word_deleted
diff.mergeCurrent version_control.conflict_marker.ours
diff.mergeIncoming version_control.conflict_marker.theirs
diff.mergeBaseHeader version_control.conflict_marker.border
ui.warning version_control.conflict conflict
ui.accent:2 version_control.renamed renamed
ui.mutedText:2 version_control.ignored ignored hidden
diagnostic.error error
diagnostic.warning warning
diagnostic.info info
diagnostic.hint hint
diagnostic.unnecessary unreachable
ui.success success
syntax.comment predictive
diff.added@0.1 created.background
diff.added@0.3 created.border
diff.removed@0.1 deleted.background
diff.removed@0.3 deleted.border
diff.changed@0.1 modified.background
diff.changed@0.3 modified.border
ui.warning@0.1 conflict.background
ui.warning@0.3 conflict.border
ui.accent@0.1 renamed.background
ui.accent@0.3 renamed.border
ui.mutedText@0.1 ignored.background hidden.background
ui.mutedText@0.3 ignored.border hidden.border
diagnostic.error@0.1 error.background
diagnostic.error@0.3 error.border
diagnostic.warning@0.1 warning.background
diagnostic.warning@0.3 warning.border
diagnostic.info@0.1 info.background
diagnostic.info@0.3 info.border
diagnostic.hint@0.1 hint.background
diagnostic.hint@0.3 hint.border
diagnostic.unnecessary@0.1 unreachable.background
diagnostic.unnecessary@0.3 unreachable.border
ui.success@0.1 success.background
ui.success@0.3 success.border
syntax.comment@0.1 predictive.background
syntax.comment@0.3 predictive.border
`

var zedStyleKeys = parseColorTable(zedStyleTable)

// zedPlayers are the eight collaborator colours: the user's own cursor and
// selection, then one hue each, the selection at 24% opacity.
var zedPlayers = []struct{ cursor, selection string }{
	{"terminal.cursor", "ui.selection"},
	{"ansi.red", ""}, {"ansi.yellow", ""}, {"ansi.magenta", ""}, {"ansi.cyan", ""},
	{"ansi.brightRed", ""}, {"ansi.brightYellow", ""}, {"ansi.green", ""},
}

// zedANSI are Zed's terminal colour key suffixes in ANSI order.
var zedANSI = []string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"}

// zedExtraSyntax are Zed highlight names with no syntax role of their own.
var zedExtraSyntax = []struct{ name, role string }{
	{"hint", "diagnostic.hint"},
	{"predictive", "syntax.comment"},
}

func zedStyle(t *Theme, path string) zedHighlight {
	h := zedHighlight{Color: t.Color(path).String()}
	st := t.Style(path)
	if st.Has("italic") {
		h.FontStyle = "italic"
	}
	if st.Has("bold") {
		h.FontWeight = 700
	}
	return h
}

// zedStyleOf is one theme's style object of a Zed theme family.
func zedStyleOf(t *Theme) map[string]any {
	s := map[string]any{}
	for _, k := range zedStyleKeys {
		s[k.key] = k.paint(t).String()
	}
	for i, n := range zedANSI {
		s["terminal.ansi."+n] = t.Color(ansiPath(i)).String()
		s["terminal.ansi.bright_"+n] = t.Color(ansiPath(i + 8)).String()
		s["terminal.ansi.dim_"+n] = t.Color("terminal.dim" + vscodeANSI[i]).String()
	}
	var players []zedPlayer
	for _, p := range zedPlayers {
		c := t.Color(p.cursor)
		sel := c
		sel.A = uint8(float64(c.A)*0.24 + 0.5)
		if p.selection != "" {
			sel = t.Color(p.selection)
		}
		players = append(players, zedPlayer{Cursor: c.String(), Background: c.String(), Selection: sel.String()})
	}
	s["players"] = players
	var accents []string
	for i := 1; i <= 6; i++ {
		accents = append(accents, t.Color("editor.bracket"+string(rune('0'+i))).String())
	}
	s["accents"] = accents
	syntax := map[string]zedHighlight{}
	for _, m := range syntaxMap {
		for _, name := range m.zed {
			syntax[name] = zedStyle(t, "syntax."+m.role)
		}
	}
	for _, x := range zedExtraSyntax {
		h := zedStyle(t, x.role)
		if x.name == "predictive" {
			h.FontStyle = "italic"
		}
		syntax[x.name] = h
	}
	s["syntax"] = syntax
	applyZedTargets(t, s)
	return s
}

// renderZed is one Zed theme family file holding every theme of the family,
// named after the first.
func renderZed(fam []*Theme) (map[string][]byte, error) {
	t := fam[0]
	author := t.Author
	if author == "" {
		author = "CDXTheme"
	}
	f := zedFamily{Schema: ZedSchema, Name: t.Name, Author: author}
	for _, m := range fam {
		f.Themes = append(f.Themes, zedTheme{Name: m.Name, Appearance: m.Appearance, Style: zedStyleOf(m)})
	}
	b, err := marshalJSON(f)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{Slug(t.Name) + ".json": b}, nil
}
