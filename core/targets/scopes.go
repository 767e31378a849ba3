package targets

import (
	"sort"
	"strings"

	"cdxtheme/core/theme"
)

// Painted is what an imported VS Code theme's own token rules give one
// TextMate scope stack, matched the way VS Code matches them: FG is nil
// when no rule colours it (VS Code draws the text colour), Style is ""
// with HasStyle false when no rule sets a font style.
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

// Scope is what the theme's own token rules (theme.TokenRules) paint the
// scope stack with ("source.go storage.type.numeric.go", outermost
// first), so a program whose tokens are not TextMate scopes (Neovim's
// syntax groups) still paints a token as VS Code does. nil when the theme
// has no token rules: the syntax roles stand then.
func (v *View) Scope(stack string) *Painted {
	if v.rules == nil {
		v.rules = []scopeRule{}
		v.ruleIndex = map[string][]int{}
		for i, r := range theme.TokenRules(v.t) {
			for _, sel := range strings.Split(r.Scope, ",") {
				segs := strings.Fields(sel)
				if len(segs) == 0 {
					continue
				}
				sr := scopeRule{order: i, scope: segs[len(segs)-1], depth: strings.Count(segs[len(segs)-1], ".") + 1, style: r.Style}
				for k := len(segs) - 2; k >= 0; k-- {
					sr.parents = append(sr.parents, segs[k])
				}
				if r.FG != nil {
					c := Colour{v.t.Seen(*r.FG)}
					sr.fg = &c
				}
				first, _, _ := strings.Cut(sr.scope, ".")
				v.ruleIndex[first] = append(v.ruleIndex[first], len(v.rules))
				v.rules = append(v.rules, sr)
			}
		}
	}
	if len(v.rules) == 0 {
		return nil
	}
	p := &Painted{}
	scopes := strings.Fields(stack)
	for i, s := range scopes {
		fg, style := v.matchScope(s, scopes[:i])
		if fg != nil {
			p.FG = fg
		}
		if style != nil {
			p.HasStyle, p.Style = true, *style
		}
	}
	return p
}

// scopeRule is one selector of a token rule: its last scope, the scopes
// it must sit in (innermost first) and what it sets.
type scopeRule struct {
	order   int
	scope   string
	depth   int
	parents []string
	fg      *Colour
	style   *string
}

// matchScope is vscode-textmate's choice for one scope pushed inside
// outer: among the rules whose scope is a prefix of it, the deepest one
// (then the one with the most parent scopes, then the later one) whose
// parents match; what it leaves unset comes from the most specific plain
// rule (the trie's main rule it was cloned from), then from outer scopes.
func (v *View) matchScope(scope string, outer []string) (*Colour, *string) {
	var mainFG *Colour
	var mainStyle *string
	mainFGDepth, mainStyleDepth := -1, -1
	var best *scopeRule
	first, _, _ := strings.Cut(scope, ".")
	for _, i := range v.ruleIndex[first] { // a prefix shares the first name
		r := &v.rules[i]
		if !scopePrefix(scope, r.scope) {
			continue
		}
		if len(r.parents) == 0 {
			if r.fg != nil && r.depth >= mainFGDepth {
				mainFG, mainFGDepth = r.fg, r.depth
			}
			if r.style != nil && r.depth >= mainStyleDepth {
				mainStyle, mainStyleDepth = r.style, r.depth
			}
		}
		if !parentsMatch(r.parents, outer) {
			continue
		}
		if best == nil || r.depth > best.depth || r.depth == best.depth && len(r.parents) >= len(best.parents) {
			best = r
		}
	}
	if best == nil {
		return nil, nil
	}
	if len(best.parents) == 0 {
		return mainFG, mainStyle
	}
	fg, style := best.fg, best.style
	if fg == nil && mainFGDepth >= 0 && mainFGDepth <= best.depth {
		fg = mainFG
	}
	if style == nil && mainStyleDepth >= 0 && mainStyleDepth <= best.depth {
		style = mainStyle
	}
	return fg, style
}

// scopePrefix says whether sel names scope or a scope it is inside of
// ("storage.type" names "storage.type.go", not "storage.typed").
func scopePrefix(scope, sel string) bool {
	return scope == sel || strings.HasPrefix(scope, sel) && scope[len(sel)] == '.'
}

// parentsMatch says whether the parents (innermost first) sit, in order,
// among the outer scopes (outermost first).
func parentsMatch(parents, outer []string) bool {
	k := len(outer) - 1
	for _, p := range parents {
		for k >= 0 && !scopePrefix(outer[k], p) {
			k--
		}
		if k < 0 {
			return false
		}
		k--
	}
	return true
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
	})
	return m.scopes
}

// Selects says whether a token rule's selector ("storage.type",
// "source.python support.type") names a scope of one of Scopes' stacks
// as VS Code matches it: its last scope a prefix of one of the stack's,
// its others of outer ones, in order. A plain selector costs one map
// look-up (an import may hold thousands of rules).
func (m *Manifest) Selects(selector string) bool {
	m.Scopes()
	if !strings.ContainsAny(selector, " \t") {
		return m.scopeNames[selector]
	}
	segs := strings.Fields(selector)
	if len(segs) == 0 || !m.scopeNames[segs[len(segs)-1]] {
		return false
	}
	var parents []string
	for k := len(segs) - 2; k >= 0; k-- {
		parents = append(parents, segs[k])
	}
	for _, stack := range m.scopes {
		scopes := strings.Fields(stack)
		for i, s := range scopes {
			if scopePrefix(s, segs[len(segs)-1]) && parentsMatch(parents, scopes[:i]) {
				return true
			}
		}
	}
	return false
}
