package targets

import (
	"fmt"
	"slices"
	"strings"

	"cdxtheme/core/scopes"
)

// Highlight is one entry of a highlight-group table (Neovim's
// groups.toml) resolved against the theme: what the template writes for
// the group, nothing left to look up. Resolving ~1,100 groups in template
// code took ~30 ms and ~178k allocations a render (now ~5 ms, ~20k),
// and the colorscheme is rendered again on every live change (issue #39).
type Highlight struct {
	Name string
	// Link is the group it follows ("" when none); nothing else is set
	// then.
	Link string
	// FG, BG and SP are "#rrggbb", flattened over the background; ""
	// where the entry sets none.
	FG, BG, SP string
	// Attrs are the font styles to turn on, each once: an imported
	// theme's token rule's for the entry's scope, else the entry's style
	// list then its syntax role's font style.
	Attrs []string
}

// Highlights resolves a group table's entries (a data section: a list of
// tables, or one table), by the rules groups.toml documents: link;
// syntax (the role's colour and font style); fg, bg, sp (a role's
// colour); style (booleans, before the role's font style); scope (what an
// imported VS Code theme's own token rules paint it, when it has them).
func (v *View) Highlights(entries any) ([]*Highlight, error) {
	var list []any
	switch e := entries.(type) {
	case []any:
		list = e
	case map[string]any:
		list = []any{e}
	default:
		return nil, fmt.Errorf("highlights: %T is not a group table", entries)
	}
	out := make([]*Highlight, 0, len(list))
	for _, x := range list {
		g, ok := x.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("highlights: %v is not a group", x)
		}
		h, err := v.highlight(g)
		if err != nil {
			return nil, err
		}
		out = append(out, &h)
	}
	return out, nil
}

func (v *View) highlight(g map[string]any) (Highlight, error) {
	str := func(k string) string { s, _ := g[k].(string); return s }
	h := Highlight{Name: str("name"), Link: str("link")}
	if h.Link != "" {
		return h, nil
	}
	fg, font := str("fg"), ""
	if s := str("syntax"); s != "" {
		fg = "syntax." + s
		font = fg
	}
	var painted *Painted
	if s := str("scope"); s != "" {
		painted = v.Scope(s)
	}
	hex := func(role string) (string, error) {
		if role == "" {
			return "", nil
		}
		c, err := v.C(role)
		if err != nil {
			return "", fmt.Errorf("group %s: %w", h.Name, err)
		}
		return c.Hex(), nil
	}
	var err error
	if painted != nil {
		if painted.FG != nil {
			h.FG = painted.FG.Hex()
		}
		for _, a := range painted.Attrs() {
			h.Attrs = append(h.Attrs, a.(string))
		}
		font = ""
	} else if h.FG, err = hex(fg); err != nil {
		return h, err
	}
	if h.BG, err = hex(str("bg")); err != nil {
		return h, err
	}
	if h.SP, err = hex(str("sp")); err != nil {
		return h, err
	}
	if s := str("style"); s != "" {
		h.Attrs = append(h.Attrs, strings.Split(s, ",")...)
	}
	if font != "" {
		h.Attrs = append(h.Attrs, strings.Fields(v.Style(font))...)
	}
	// Each once, "" dropped: the attrs are a Lua table's keys.
	h.Attrs = slices.DeleteFunc(h.Attrs, func(s string) bool { return s == "" })
	for i := 0; i < len(h.Attrs); i++ {
		if slices.Contains(h.Attrs[:i], h.Attrs[i]) {
			h.Attrs = slices.Delete(h.Attrs, i, i+1)
			i--
		}
	}
	return h, nil
}

// syntaxGroups are the syntax map's names in one of its vocabularies
// ("Vim" groups, tree-sitter "Captures") as group table entries, each
// painted by its row's syntax role: {name, syntax}.
func syntaxGroups(vocabulary string) ([]any, error) {
	var out []any
	for _, s := range scopes.SyntaxMap() {
		var names []string
		switch vocabulary {
		case "Vim":
			names = s.Vim
		case "Captures":
			names = s.Captures
		default:
			return nil, fmt.Errorf("syntaxGroups: no vocabulary %q (Vim, Captures)", vocabulary)
		}
		for _, n := range names {
			out = append(out, map[string]any{"name": n, "syntax": s.Role})
		}
	}
	return out, nil
}
