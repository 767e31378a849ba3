package scopes

import (
	"sort"
	"strings"

	"cdxtheme/core/theme"
)

// tmMatcher answers which foreground and font style VS Code gives a
// TextMate scope stack under a list of token rules. It follows
// vscode-textmate's theme resolution (theme.ts: the rules sorted by scope,
// inserted into a trie keyed on the selector's last scope, a rule's unset
// fields taken from the rule of its scope's prefix; a stack resolved scope
// by scope from the outermost, each scope's most specific rule whose parent
// selectors match setting what it sets), so what it answers is what VS
// Code (and Shiki, the preview) paints.
type tmMatcher struct {
	root  *tmNode
	defFG *theme.Color
}

// tmStyle is a rule's or a resolution's settings; nil where unset.
type tmStyle struct {
	fg    *theme.Color
	style *string
}

func (s tmStyle) over(o tmStyle) tmStyle {
	if s.fg == nil {
		s.fg = o.fg
	}
	if s.style == nil {
		s.style = o.style
	}
	return s
}

type tmTrieRule struct {
	depth   int
	parents []string // innermost first, as vscode-textmate keeps them
	tmStyle
}

// tmNode is a trie node. vscode-textmate copies a parent's rules with
// parent selectors into each child it makes; here a child points at its
// parent instead and holds only the rules inserted at it, which override
// an inherited rule of the same parents. The result is the same (a
// parent's rules all precede its children's in the sorted insertion), but
// a theme of n "p a" and n "a.cK" rules costs O(n), not n² copies.
type tmNode struct {
	main     tmTrieRule
	up       *tmNode
	withPar  []tmTrieRule // inserted here; see rules for the inherited ones
	children map[string]*tmNode
}

// rules is the node's rules with parent selectors, inherited ones
// included, in the order vscode-textmate's copies hold them (it breaks
// ties of specificity): the parent's, each replaced where this node
// overrides it, then the ones new here.
func (n *tmNode) rules() []tmTrieRule {
	var chain []*tmNode
	for a := n; a != nil; a = a.up {
		chain = append(chain, a)
	}
	var out []tmTrieRule
	at := map[string]int{} // parents → index in out
	for i := len(chain) - 1; i >= 0; i-- {
		for _, r := range chain[i].withPar {
			k := strings.Join(r.parents, "\x00")
			if j, ok := at[k]; ok {
				out[j] = r
				continue
			}
			at[k] = len(out)
			out = append(out, r)
		}
	}
	return out
}

func newTMMatcher(rules []TokenRule, defFG *theme.Color) *tmMatcher {
	type parsed struct {
		scope   string
		parents []string
		idx     int
		tmStyle
	}
	var ps []parsed
	for i, r := range rules {
		for _, sel := range strings.Split(r.Scope, ",") {
			segs := strings.Fields(sel)
			if len(segs) == 0 {
				continue
			}
			p := parsed{scope: segs[len(segs)-1], idx: i, tmStyle: tmStyle{fg: r.FG}}
			if r.Style != nil {
				s := normFontStyle(*r.Style)
				p.style = &s
			}
			for j := len(segs) - 2; j >= 0; j-- {
				p.parents = append(p.parents, segs[j])
			}
			ps = append(ps, p)
		}
	}
	sort.SliceStable(ps, func(a, b int) bool {
		if ps[a].scope != ps[b].scope {
			return ps[a].scope < ps[b].scope
		}
		if c := strArrCmp(ps[a].parents, ps[b].parents); c != 0 {
			return c < 0
		}
		return ps[a].idx < ps[b].idx
	})
	m := &tmMatcher{root: &tmNode{}, defFG: defFG}
	for _, p := range ps {
		m.root.insert(0, p.scope, p.parents, p.tmStyle)
	}
	return m
}

func (n *tmNode) insert(depth int, scope string, parents []string, s tmStyle) {
	if scope == "" {
		if parents == nil {
			n.main.depth = depth
			n.main.tmStyle = s.over(n.main.tmStyle)
			return
		}
		for i := range n.withPar {
			if strArrCmp(n.withPar[i].parents, parents) == 0 {
				n.withPar[i].depth = depth
				n.withPar[i].tmStyle = s.over(n.withPar[i].tmStyle)
				return
			}
		}
		for a := n.up; a != nil; a = a.up { // an inherited rule: overridden here
			for _, r := range a.withPar {
				if strArrCmp(r.parents, parents) == 0 {
					n.withPar = append(n.withPar, tmTrieRule{depth: depth, parents: parents, tmStyle: s.over(r.tmStyle)})
					return
				}
			}
		}
		n.withPar = append(n.withPar, tmTrieRule{depth: depth, parents: parents, tmStyle: s.over(n.main.tmStyle)})
		return
	}
	head, tail, _ := strings.Cut(scope, ".")
	if n.children == nil {
		n.children = map[string]*tmNode{}
	}
	c := n.children[head]
	if c == nil {
		c = &tmNode{main: n.main, up: n}
		n.children[head] = c
	}
	c.insert(depth+1, tail, parents, s)
}

func (n *tmNode) match(scope string) []tmTrieRule {
	if scope != "" {
		head, tail, _ := strings.Cut(scope, ".")
		if c := n.children[head]; c != nil {
			return c.match(tail)
		}
	}
	rules := append(n.rules(), n.main)
	sort.SliceStable(rules, func(i, j int) bool { return cmpSpecificity(rules[i], rules[j]) < 0 })
	return rules
}

func cmpSpecificity(a, b tmTrieRule) int {
	if a.depth != b.depth {
		return b.depth - a.depth
	}
	i, j := 0, 0
	for {
		if i < len(a.parents) && a.parents[i] == ">" {
			i++
		}
		if j < len(b.parents) && b.parents[j] == ">" {
			j++
		}
		if i >= len(a.parents) || j >= len(b.parents) {
			break
		}
		if d := len(b.parents[j]) - len(a.parents[i]); d != 0 {
			return d
		}
		i++
		j++
	}
	return len(b.parents) - len(a.parents)
}

// resolve is the foreground and font style of the innermost scope of
// stack (outermost first); the default foreground and no style where no
// rule sets them.
func (m *tmMatcher) resolve(stack []string) (theme.Color, string) {
	var cur tmStyle
	for i := range stack {
		for _, r := range m.root.match(stack[i]) {
			if parentsMatch(stack[:i], r.parents) {
				cur = r.tmStyle.over(cur)
				break
			}
		}
	}
	fg := theme.Color{}
	if m.defFG != nil {
		fg = *m.defFG
	}
	if cur.fg != nil {
		fg = *cur.fg
	}
	style := ""
	if cur.style != nil {
		style = *cur.style
	}
	return fg, style
}

// parentsMatch: each parent selector (innermost first) matches a scope of
// path, in order from the inside out.
func parentsMatch(path []string, parents []string) bool {
	k := 0
	for i := len(path) - 1; i >= 0 && k < len(parents); i-- {
		if parents[k] == ">" {
			k++
			if k == len(parents) {
				break
			}
		}
		if scopeHasPrefix(path[i], parents[k]) {
			k++
		}
	}
	return k >= len(parents)
}

// scopeHasPrefix: scope is sel or starts with sel and a dot.
func scopeHasPrefix(scope, sel string) bool {
	return scope == sel || strings.HasPrefix(scope, sel) && len(scope) > len(sel) && scope[len(sel)] == '.'
}

func strArrCmp(a, b []string) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	case len(a) != len(b):
		return len(a) - len(b)
	}
	for i := range a {
		if c := strings.Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

// normFontStyle keeps the words of a fontStyle VS Code knows, in order.
func normFontStyle(s string) string {
	var out []string
	for _, w := range strings.Fields(s) {
		switch w {
		case "bold", "italic", "underline", "strikethrough":
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}
