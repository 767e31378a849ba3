package scopes

import (
	"fmt"
	"runtime"
	"testing"

	"cdxtheme/core/theme"
)

// A theme of n rules "pK a" (parent selectors under one scope) and n rules
// "a.cK.e" (n children of that scope) made vscode-textmate's matcher copy
// every parent rule into every child: n² copies, some 19 GB for a
// theme.json at its size limit, on each Neovim, Vim, bat or Sublime
// render. The trie now shares them; the matcher's memory stays linear
// and it still answers as before.
func TestHostileTokenRulesKeepTheMatcherSmall(t *testing.T) {
	const n = 2000
	fg := &theme.Color{R: 1, G: 2, B: 3, A: 255}
	other := &theme.Color{R: 9, G: 9, B: 9, A: 255}
	var rules []TokenRule
	for k := range n {
		rules = append(rules, TokenRule{Scope: fmt.Sprintf("p%d a", k), FG: fg})
	}
	for k := range n {
		rules = append(rules, TokenRule{Scope: fmt.Sprintf("a.c%d.e", k), FG: other})
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m := newTMMatcher(rules, nil)
	runtime.ReadMemStats(&after)
	// Linear: some 200 bytes a rule at most; the n² copies took 210 MB.
	if got := after.TotalAlloc - before.TotalAlloc; got > 20<<20 {
		t.Errorf("building the matcher of %d hostile rules allocated %d MB; want it linear (< 20 MB)", 2*n, got>>20)
	}
	// An inherited parent rule still wins where its parent is on the stack.
	if c, _ := m.resolve([]string{"p7", "a.c3"}); c != *fg {
		t.Errorf("a.c3 under p7 = %v; want the inherited rule's %v", c, *fg)
	}
	if c, _ := m.resolve([]string{"p7", "a.c3.e"}); c != *other {
		t.Errorf("a.c3.e under p7 = %v; want its own, deeper rule's %v", c, *other)
	}
}
