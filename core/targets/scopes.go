package targets

import (
	"sort"
	"strings"

	"cdxtheme/core/scopes"
)

// Painted is what an imported VS Code theme's own token rules give one
// TextMate scope stack, matched the way VS Code matches them: FG is the
// text colour when no rule colours it, Style is "" with HasStyle false
// when no rule sets a font style.
type Painted struct {
	FG       *Colour
	HasStyle bool
	Style    string // "italic", "bold underline", … as the rule writes it
}

// Attrs are Style's font styles a Neovim highlight takes ("bold",
// "italic", "underline", "strikethrough"), each once.
func (p *Painted) Attrs() []any {
	var out []any
	seen := map[string]bool{}
	for _, f := range strings.Fields(p.Style) {
		if (f == "bold" || f == "italic" || f == "underline" || f == "strikethrough") && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// Scope is what the theme's own token rules (scopes.TokenRules) paint the
// scope stack with ("source.go storage.type.numeric.go", outermost
// first), as VS Code resolves it (scopes.Rules.Resolve: the text
// colour where no rule paints it), so a program whose tokens are not
// TextMate scopes (Neovim's syntax groups) still paints a token as VS Code
// does. nil when the theme has no token rules: the syntax roles stand then.
func (v *View) Scope(stack string) *Painted {
	if !v.vscodeRules().Own() {
		return nil
	}
	fg, style := v.rules.Resolve(strings.Fields(stack)...)
	c := Colour{v.t.Seen(fg)}
	return &Painted{FG: &c, HasStyle: style != "", Style: style}
}

// Scopes are the TextMate scope stacks the target's groups are painted by
// when a theme has token rules of its own (the "scope" of its data's
// entries: Neovim's language groups), sorted, each once; none for a
// target that colours by role only.
func (m *Manifest) Scopes() []string {
	m.scopesOnce.Do(func() {
		seen := map[string]bool{}
		m.scopeNames = map[string]bool{}
		for _, section := range m.data {
			entries, _ := section.([]any)
			for _, e := range entries {
				g, _ := e.(map[string]any)
				s, ok := g["scope"].(string)
				if !ok || seen[s] {
					continue
				}
				seen[s] = true
				m.scopes = append(m.scopes, s)
				for _, name := range strings.Fields(s) {
					for i := range name {
						if name[i] == '.' {
							m.scopeNames[name[:i]] = true
						}
					}
					m.scopeNames[name] = true
				}
			}
		}
		sort.Strings(m.scopes)
		for _, s := range m.scopes {
			m.stacks = append(m.stacks, strings.Fields(s))
		}
	})
	return m.scopes
}

// Selects says whether a token rule's selector ("storage.type",
// "source.python support.type", "source.go > storage.type") paints a
// scope of one of Scopes' stacks, matched by core/scopes as VS Code
// matches it. A plain selector costs one map look-up (an import may hold
// thousands of rules).
func (m *Manifest) Selects(selector string) bool {
	m.Scopes()
	if !strings.ContainsAny(selector, " \t") {
		return m.scopeNames[selector]
	}
	sel, ok := scopes.ParseSelector(selector)
	if !ok || !m.scopeNames[sel.Scope] {
		return false
	}
	for _, stack := range m.stacks {
		for i := range stack {
			if sel.Paints(stack[:i+1]) {
				return true
			}
		}
	}
	return false
}
