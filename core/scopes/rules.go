package scopes

import (
	"strings"
	"sync"

	"cdxtheme/core/colour"
	"cdxtheme/core/theme"
)

// Rules are the token rules VS Code gets for one theme, read once: an
// imported theme's own (TokenRules), else the syntax map's; and the
// matcher that resolves scope stacks under them. An exporter reads a
// theme's Rules once per render and asks it everything.
type Rules struct {
	own   bool
	rules []TokenRule
	m     tmMatcher
	// The syntax map's rules and trie are built for t on first use: an
	// exporter that only asks Own (Neovim's, of a theme without rules of
	// its own) never needs them.
	t        *theme.Theme
	fallback sync.Once
}

// Own says whether the rules are the theme's own (targets.vscode.tokenColors).
func (r *Rules) Own() bool { return r.own }

// List is the rules, in the theme's order. It is shared (an import's
// rules are read once for every render of the same tokenColors): read
// it, never change it or what its pointers point at.
func (r *Rules) List() []TokenRule { return r.built().rules }

// Resolve is the foreground and font style VS Code paints a TextMate scope
// stack (outermost first) with under the rules: the text colour and no
// style where no rule paints it.
func (r *Rules) Resolve(stack ...string) (theme.Color, string) { return r.built().m.resolve(stack) }

// built is r with the syntax map's rules and trie built, on the first call.
func (r *Rules) built() *Rules {
	r.fallback.Do(func() {
		if r.own {
			return
		}
		for _, m := range syntaxMap {
			role := "syntax." + m.role
			fg, style := r.t.Color(role), strings.TrimSpace(string(r.t.Style(role)))
			r.rules = append(r.rules, TokenRule{Name: m.label, Scope: strings.Join(m.textmate, ", "), FG: &fg, Style: &style})
		}
		r.m.root = buildTrie(r.rules)
	})
	return r
}

// For reads t's rules. A theme's own rules and their matcher are kept
// for the tokenColors they came from (an imported theme's hundreds of
// rules would otherwise be parsed again on every render of every
// target, and the live path renders on each settled edit); the key is
// the bytes themselves, so a theme changed since, or another value with
// the same rules, can never be given another's.
func For(t *theme.Theme) *Rules {
	def := t.Color("ui.text")
	if t.Targets != nil && t.Targets.VSCode != nil {
		if c, err := colour.ParseLoose(t.Targets.VSCode.Colors["editor.foreground"]); err == nil {
			def = c
		}
		if raw := t.Targets.VSCode.TokenColors; len(raw) > 0 {
			if own := ownRules(raw); own.rules != nil {
				return &Rules{own: true, rules: own.rules, m: tmMatcher{root: own.root, defFG: &def}}
			}
		}
	}
	return &Rules{t: t, m: tmMatcher{defFG: &def}}
}

// compiled is a tokenColors array read: its rules (nil when it is not
// an array of rules) and their trie. Never changed once built.
type compiled struct {
	key   string
	rules []TokenRule
	root  *tmNode
}

// ownCache keeps the last few tokenColors read: a family's two themes,
// and a third and fourth rendered meanwhile (an export, the preview).
var ownCache struct {
	sync.Mutex
	recent []*compiled // most recent first, at most ownCacheSize
}

const ownCacheSize = 4

func ownRules(raw []byte) *compiled {
	ownCache.Lock()
	for i, c := range ownCache.recent {
		if c.key == string(raw) {
			copy(ownCache.recent[1:i+1], ownCache.recent[:i])
			ownCache.recent[0] = c
			ownCache.Unlock()
			return c
		}
	}
	ownCache.Unlock()
	// Built outside the lock: two renders that race may both build it,
	// which costs time, not correctness.
	c := &compiled{key: string(raw), rules: parseTokenRules(raw)}
	if c.rules != nil {
		c.root = buildTrie(c.rules)
	}
	ownCache.Lock()
	if len(ownCache.recent) < ownCacheSize {
		ownCache.recent = append(ownCache.recent, nil)
	}
	copy(ownCache.recent[1:], ownCache.recent)
	ownCache.recent[0] = c
	ownCache.Unlock()
	return c
}
