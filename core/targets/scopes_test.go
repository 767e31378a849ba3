package targets

import (
	"strings"
	"testing"

	"cdxtheme/core/theme"
)

// An imported VS Code theme's own token rules reach Neovim's language
// groups as VS Code applies them: the deepest selector wins, a selector
// with parent scopes only inside them, what a rule leaves unset comes
// from the less specific ones, and a scope no rule names takes the text
// colour, not the role's.
func TestScopeMatchesTokenRulesAsVSCode(t *testing.T) {
	th := theme.Example()
	th.Targets = &theme.TargetOverrides{VSCode: &theme.VSCodeTarget{TokenColors: []byte(`[
		{"scope": "storage.type", "settings": {"foreground": "#110000"}},
		{"scope": ["storage.type.numeric.go", "keyword.control"], "settings": {"foreground": "#220000"}},
		{"scope": "source.python support.type", "settings": {"foreground": "#330000"}},
		{"scope": "support.type", "settings": {"foreground": "#440000", "fontStyle": "italic"}},
		{"scope": "meta.attribute.rust", "settings": {"foreground": "#550000"}},
		{"scope": "string", "settings": {"foreground": "#660000"}},
		{"scope": "string.quoted.docstring", "settings": {"fontStyle": "bold"}},
		{"scope": "entity.name.function", "settings": {"foreground": "#770000"}},
		{"scope": "source.rust entity.name.function", "settings": {"fontStyle": "underline"}}
	]`)}}
	v := newView(th)
	text := Colour{th.Seen(th.Color("ui.text"))}.Hex()
	for _, c := range []struct{ stack, fg, style string }{
		{"source.go storage.type.string.go", "#110000", ""},
		{"source.go storage.type.numeric.go", "#220000", ""},
		{"source.python support.type.python", "#330000", "italic"},
		{"source.ts support.type.primitive.ts", "#440000", "italic"},
		{"source.rust meta.attribute.rust entity.name.type.rust", "#550000", ""},
		{"source.python string.quoted.docstring.multi.python", "#660000", "bold"},
		{"source.rust meta.function.call.rust entity.name.function.rust", "#770000", "underline"},
		{"source.go storage.typed.go", "text", ""},
		{"source.lua", "text", ""},
	} {
		p := v.Scope(c.stack)
		if p == nil {
			t.Fatal("a theme with token rules: Scope is nil")
		}
		fg, want := "", c.fg
		if p.FG != nil {
			fg = p.FG.Hex()
		}
		if want == "text" {
			want = text
		}
		var attrs []string
		for _, a := range p.Attrs() {
			attrs = append(attrs, a.(string))
		}
		if fg != want || strings.Join(attrs, " ") != c.style {
			t.Errorf("%q: fg %q style %q, want %q %q", c.stack, fg, attrs, want, c.style)
		}
	}
	if newView(theme.Example()).Scope("source.go storage.type.go") != nil {
		t.Error("a theme without token rules: Scope is not nil (the roles must stand)")
	}
	// And the export writes it: goType takes the theme's storage.type rule.
	out, err := Render(th, "neovim")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range out {
		if !strings.Contains(string(b), "hl('goType', { fg = '#110000' })") {
			t.Error("the Neovim export does not paint goType with the theme's storage.type rule")
		}
	}
}

// Selects matches a token rule's selector as VS Code does, with the one
// matcher of core/scopes: ">" names a scope's immediate parent.
func TestSelectsReadsTheChildCombinator(t *testing.T) {
	var neovim *Manifest
	for _, m := range Manifests() {
		if m.ID == "neovim" {
			neovim = m
		}
	}
	for sel, want := range map[string]bool{
		"storage.type":                          true,
		"source.go storage.type.numeric":        true,
		"source.go > storage.type.numeric":      true, // goFloats: source.go storage.type.numeric.go
		"meta.block > storage.type.numeric":     false,
		"source.go > meta.x > storage.type.num": false,
		"source.rust storage.type.numeric":      false,
	} {
		if got := neovim.Selects(sel); got != want {
			t.Errorf("Selects(%q) = %v, want %v", sel, got, want)
		}
	}
}

// An imported theme's own token rules are read once, not on every render
// of every target: the live path renders the applied programs' files on
// each settled edit (issue #39). With One Dark Pro's 275 rules, Neovim's
// colorscheme costs at most two allocations per scoped group more than the
// example's, which has none (re-reading the rules on a render cost some
// 8,000); and a .tmTheme's rules cost a few allocations per rule written
// (reading the rules twice per render cost some fourteen).
func TestTokenRulesAreReadOncePerTheme(t *testing.T) {
	themes := movedThemes(t)
	odp, example := themes["onedark-pro"], themes["example"]
	var nvim *Manifest
	for _, m := range Manifests() {
		if m.ID == "neovim" {
			nvim = m
		}
	}
	if nvim == nil {
		t.Fatal("no neovim target")
	}
	render := func(th *theme.Theme, format string) float64 {
		return testing.AllocsPerRun(5, func() {
			if _, err := Render(th, format); err != nil {
				t.Fatal(err)
			}
		})
	}
	scoped := len(nvim.Scopes())
	if extra := render(odp, "neovim") - render(example, "neovim"); extra > float64(2*scoped) {
		t.Errorf("Neovim of One Dark Pro allocates %.0f more than of the example; want at most %d, two per scoped group", extra, 2*scoped)
	}
	rules := len(newView(odp).TextMateRules())
	view := testing.AllocsPerRun(5, func() { newView(odp) })
	perRule := (testing.AllocsPerRun(5, func() { newView(odp).TextMateRules() }) - view) / float64(rules)
	if perRule > 6 {
		t.Errorf("the .tmTheme's %d rules of One Dark Pro allocate %.1f each; want at most 6", rules, perRule)
	}
	t.Logf("neovim scoped groups %d; tmTheme %d rules, %.1f allocations each", scoped, rules, perRule)
}
