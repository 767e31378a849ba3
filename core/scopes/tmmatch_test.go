package scopes

import (
	"strings"
	"testing"

	"cdxtheme/core/theme"
)

// ">" in a rule's selector is VS Code's child combinator
// (vscode-textmate's _scopePathMatchesParentScopes): the scope after it
// must be the immediate parent of the one before it, where a space lets
// any number of scopes sit between. A selector that ends its parents with
// ">" (one that starts with it) matches nothing.
func TestChildCombinatorNamesTheImmediateParent(t *testing.T) {
	def, _ := theme.ParseColor("#eeeeee")
	m := newTMMatcher([]TokenRule{
		rule("string", "#111111", ""),
		rule("meta.call > string", "#222222", ""),
		rule("source.x > meta.block > string.quoted", "#333333", ""),
		rule("> comment", "#444444", ""),
		rule("meta.block meta.inner > constant", "#555555", ""),
	}, &def)
	for _, c := range []struct{ stack, fg string }{
		{"source.x meta.call string.quoted", "#222222"},           // meta.call is string's parent
		{"source.x meta.call meta.args string.quoted", "#111111"}, // meta.args sits between: not a child
		{"source.x meta.block string.quoted", "#333333"},
		{"source.x meta.outer meta.block string.quoted", "#111111"}, // meta.block's parent is not source.x
		{"source.x comment", "#eeeeee"},
		{"meta.block meta.other meta.inner constant", "#555555"}, // a space: meta.block anywhere outside
		{"meta.block meta.inner meta.other constant", "#eeeeee"},
	} {
		if fg, _ := m.resolve(strings.Fields(c.stack)); strings.ToLower(fg.Hex()) != c.fg {
			t.Errorf("%s: %s, want %s", c.stack, strings.ToLower(fg.Hex()), c.fg)
		}
	}
}

// The rules are sorted once, when the matcher is built: resolving a
// stack allocates nothing, however many rules a scope has (an imported
// theme's thousands, asked about each of Neovim's language groups).
func TestResolvingAStackAllocatesNothing(t *testing.T) {
	th := theme.Example()
	m := &For(th).built().m
	stack := strings.Fields("source.python meta.function-call.arguments.python variable.parameter.function-call.python")
	if n := testing.AllocsPerRun(100, func() { m.resolve(stack) }); n != 0 {
		t.Errorf("resolving a stack allocates %.0f times; want the rules sorted once, when built", n)
	}
}

// newTMMatcher is a matcher of rules with the text colour defFG.
func newTMMatcher(rules []TokenRule, defFG *theme.Color) *tmMatcher {
	return &tmMatcher{root: buildTrie(rules), defFG: defFG}
}
