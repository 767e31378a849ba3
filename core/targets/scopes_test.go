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
