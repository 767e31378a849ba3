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
	key     string   // parents joined: the rule of a parent this one overrides
	// seq is where the rule stands in the list vscode-textmate's copies
	// hold (an override takes the place of the rule it overrides), which
	// breaks ties of specificity.
	seq int
	tmStyle
}

// tmNode is a trie node. vscode-textmate copies a parent's rules with
// parent selectors into each child it makes; here a child points at its
// parent instead and holds only the rules inserted at it, which override
// an inherited rule of the same parents. The result is the same (a
// parent's rules all precede its children's in the sorted insertion), but
// a theme of n "p a" and n "a.cK" rules costs O(n), not n² copies.
type tmNode struct {
	depth    int
	main     tmTrieRule
	up       *tmNode
	withPar  []tmTrieRule   // inserted here, most specific first once built (sortRules)
	index    map[string]int // key → its rule in withPar
	children map[string]*tmNode
}

// Selector is one TextMate selector of a token rule ("source.python
// support.type", "meta.call > string") read as VS Code reads a theme's
// (vscode-textmate's parseTheme): the scope it paints and the parent
// selectors, innermost first, ">" among them standing before a selector
// that must be the immediate parent.
type Selector struct {
	Scope   string
	parents []string
}

// ParseSelector reads one selector (no commas); ok is false for an empty one.
func ParseSelector(sel string) (s Selector, ok bool) {
	segs := strings.Fields(sel)
	if len(segs) == 0 {
		return Selector{}, false
	}
	s.Scope = segs[len(segs)-1]
	for j := len(segs) - 2; j >= 0; j-- {
		s.parents = append(s.parents, segs[j])
	}
	return s, true
}

// Paints says whether the selector applies to the innermost scope of
// stack (outermost first), as VS Code decides it.
func (s Selector) Paints(stack []string) bool {
	n := len(stack)
	return n > 0 && scopeHasPrefix(stack[n-1], s.Scope) && parentsMatch(stack[:n-1], s.parents)
}

// buildTrie builds the trie once per rule set: rules sorted as
// vscode-textmate sorts them, each node's own rules then in the order
// resolve tries them, so resolving a stack sorts and allocates nothing.
func buildTrie(rules []TokenRule) *tmNode {
	type parsed struct {
		Selector
		idx int
		tmStyle
	}
	var ps []parsed
	for i, r := range rules {
		for _, sel := range strings.Split(r.Scope, ",") {
			s, ok := ParseSelector(sel)
			if !ok {
				continue
			}
			p := parsed{Selector: s, idx: i, tmStyle: tmStyle{fg: r.FG}}
			if r.Style != nil {
				st := normFontStyle(*r.Style)
				p.style = &st
			}
			ps = append(ps, p)
		}
	}
	sort.SliceStable(ps, func(a, b int) bool {
		if ps[a].Scope != ps[b].Scope {
			return ps[a].Scope < ps[b].Scope
		}
		if c := strArrCmp(ps[a].parents, ps[b].parents); c != 0 {
			return c < 0
		}
		return ps[a].idx < ps[b].idx
	})
	root := &tmNode{}
	seq := 0
	for _, p := range ps {
		root.insert(p.Scope, p.parents, p.tmStyle, &seq)
	}
	root.sortRules()
	return root
}

func (n *tmNode) insert(scope string, parents []string, s tmStyle, seq *int) {
	if scope == "" {
		if parents == nil {
			n.main.depth = n.depth
			n.main.tmStyle = s.over(n.main.tmStyle)
			return
		}
		key := strings.Join(parents, "\x00")
		if i, ok := n.index[key]; ok {
			n.withPar[i].tmStyle = s.over(n.withPar[i].tmStyle)
			return
		}
		r := tmTrieRule{depth: n.depth, parents: parents, key: key, seq: *seq, tmStyle: s.over(n.main.tmStyle)}
		for a := n.up; a != nil; a = a.up { // an inherited rule: overridden here, in its place
			if i, ok := a.index[key]; ok {
				r.seq, r.tmStyle = a.withPar[i].seq, s.over(a.withPar[i].tmStyle)
				break
			}
		}
		*seq++
		if n.index == nil {
			n.index = map[string]int{}
		}
		n.index[key] = len(n.withPar)
		n.withPar = append(n.withPar, r)
		return
	}
	head, tail, _ := strings.Cut(scope, ".")
	if n.children == nil {
		n.children = map[string]*tmNode{}
	}
	c := n.children[head]
	if c == nil {
		c = &tmNode{depth: n.depth + 1, main: n.main, up: n}
		n.children[head] = c
	}
	c.insert(tail, parents, s, seq)
}

// sortRules puts each node's own rules in the order vscode-textmate's
// sorted copies hold them: by specificity (all are of the node's depth),
// ties by their place in the list. The index follows.
func (n *tmNode) sortRules() {
	sort.SliceStable(n.withPar, func(i, j int) bool {
		if c := cmpSpecificity(n.withPar[i], n.withPar[j]); c != 0 {
			return c < 0
		}
		return n.withPar[i].seq < n.withPar[j].seq
	})
	for i, r := range n.withPar {
		n.index[r.key] = i
	}
	for _, c := range n.children {
		c.sortRules()
	}
}

// find is the node of scope's longest prefix in the trie.
func (n *tmNode) find(scope string) *tmNode {
	for scope != "" {
		head, tail, _ := strings.Cut(scope, ".")
		c := n.children[head]
		if c == nil {
			break
		}
		n, scope = c, tail
	}
	return n
}

// first is the style of n's most specific rule whose parent selectors
// match path, trying the rules in the order vscode-textmate's sorted copy
// holds them: deeper rules first (n's own, then each ancestor's, less
// those a deeper node overrides), the rule without parents after the rules
// of its depth. It always finds one: that rule has no parents to match.
func (n *tmNode) first(path []string) tmStyle {
	for a := n; a != nil; a = a.up {
		for _, r := range a.withPar {
			if !n.overriddenBelow(a, r.key) && parentsMatch(path, r.parents) {
				return r.tmStyle
			}
		}
		if a.depth <= n.main.depth {
			break
		}
	}
	return n.main.tmStyle
}

// overriddenBelow says whether a node of n's chain below a holds a rule of
// key, which replaces a's in n's list.
func (n *tmNode) overriddenBelow(a *tmNode, key string) bool {
	for b := n; b != a; b = b.up {
		if _, ok := b.index[key]; ok {
			return true
		}
	}
	return false
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
		cur = m.root.find(stack[i]).first(stack[:i]).over(cur)
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

// parentsMatch says whether the parent selectors (innermost first) sit in
// path (outermost first) as vscode-textmate's
// _scopePathMatchesParentScopes decides: each selector matches a scope
// further out than the last one matched, the nearest that fits; one
// after ">" must match the very next scope out; a ">" with nothing after
// it matches nothing.
func parentsMatch(path []string, parents []string) bool {
	i := len(path) - 1
	for k := 0; k < len(parents); k++ {
		sel, child := parents[k], false
		if sel == ">" {
			if k == len(parents)-1 {
				return false
			}
			k++
			sel, child = parents[k], true
		}
		for i >= 0 && !scopeHasPrefix(path[i], sel) {
			if child {
				return false
			}
			i--
		}
		if i < 0 {
			return false
		}
		i--
	}
	return true
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
