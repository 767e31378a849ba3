package scopes

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"cdxtheme/core/theme"
)

func rule(scope, fg, style string) TokenRule {
	r := TokenRule{Scope: scope}
	if fg != "" {
		c, _ := theme.ParseColor(fg)
		r.FG = &c
	}
	if style != "-" {
		r.Style = &style
	}
	return r
}

// The matcher answers what VS Code paints: the deepest scope's most
// specific rule, a parent selector outranking none, an unset font style
// taken from the rule of the scope's prefix, an unpainted inner scope
// keeping its outer scope's colour.
func TestTMMatcherResolvesAsVSCode(t *testing.T) {
	def, _ := theme.ParseColor("#eeeeee")
	m := newTMMatcher([]TokenRule{
		rule("keyword", "#ff0000", "bold"),
		rule("keyword.operator", "#00ff00", "-"),
		rule("constant.other", "#0000ff", ""),
		rule("string constant.other.class", "#ffff00", ""),
		rule("string.quoted, string.template", "#00ffff", "italic"),
	}, &def)
	for _, c := range []struct{ stack, fg, style string }{
		{"keyword.operator.assignment.go", "#00ff00", "bold"},
		{"keyword.control.go", "#ff0000", "bold"},
		{"string.quoted.double constant.other.class.range", "#ffff00", ""},
		{"constant.other.class.range", "#0000ff", ""},
		{"string.template.ts meta.unknown.ts", "#00ffff", "italic"},
		{"meta.unknown.ts", "#eeeeee", ""},
	} {
		fg, style := m.resolve(strings.Fields(c.stack))
		if got := strings.ToLower(fg.Hex()); got != c.fg || style != c.style {
			t.Errorf("%s: %s %q, want %s %q", c.stack, got, style, c.fg, c.style)
		}
	}
}

// An imported VS Code theme's own rules reach bat's grammar: Sublime's
// storage.type.rust where a type is expected (u8 in a parameter) takes
// what the theme gives VS Code's entity.name.type.numeric.rust, not what
// its storage.type rule says, and elsewhere (let) what it gives VS Code's
// let; a generated theme's takes the built-in type and keyword roles.
func TestSublimeRulesPaintAsVSCode(t *testing.T) {
	find := func(rs []TokenRule, scope string) TokenRule {
		for _, r := range rs {
			if strings.HasPrefix(r.Scope, "source "+scope+",") || strings.HasPrefix(r.Scope, scope+",") || r.Scope == scope {
				return r
			}
		}
		t.Fatalf("no Sublime rule for %s", scope)
		return TokenRule{}
	}
	b, err := os.ReadFile("../theme/testdata/example.theme.json")
	if err != nil {
		t.Fatal(err)
	}
	th, err := theme.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	r := find(SublimeRules(th), "meta.function.parameters storage.type.rust")
	if r.FG.Hex() != th.Color("syntax.builtinType").Hex() || *r.Style != strings.TrimSpace(string(th.Style("syntax.builtinType"))) {
		t.Errorf("generated: a parameter's storage.type.rust is %s %q, want the built-in type role's %s", r.FG.Hex(), *r.Style, th.Color("syntax.builtinType").Hex())
	}
	r = find(SublimeRules(th), "storage.type.rust")
	if r.FG.Hex() != th.Color("syntax.keyword").Hex() || *r.Style != strings.TrimSpace(string(th.Style("syntax.keyword"))) {
		t.Errorf("generated: storage.type.rust (let) is %s %q, want the keyword role's %s", r.FG.Hex(), *r.Style, th.Color("syntax.keyword").Hex())
	}

	imp := th.Clone()
	imp.Targets = &theme.TargetOverrides{VSCode: &theme.VSCodeTarget{TokenColors: json.RawMessage(`[
		{"scope": "storage.type", "settings": {"foreground": "#aa0000", "fontStyle": "italic"}},
		{"scope": ["entity.name.type", "support.class"], "settings": {"foreground": "#00aa00"}},
		{"scope": "string.quoted.docstring", "settings": {"foreground": "#0000aa", "fontStyle": "bold"}}
	]`)}}
	if fg, style := VSCodeScopeStyle(imp, "source.go", "storage.type.numeric.go"); strings.ToLower(fg.Hex()) != "#aa0000" || style != "italic" {
		t.Errorf("imported: VS Code paints Go's storage.type.numeric.go %s %q, want #aa0000 \"italic\"", fg.Hex(), style)
	}
	rs := SublimeRules(imp)
	for _, c := range []struct{ scope, fg, style string }{
		{"meta.function.parameters storage.type.rust", "#00aa00", ""},
		{"storage.type.rust", "#aa0000", "italic"}, // let: keyword.other.rust storage.type.rust
		{"comment.block.documentation.python", "#0000aa", "bold"},
		{"storage.type.struct.rust", "#aa0000", "italic"}, // keyword.declaration.struct.rust storage.type.rust
		{"variable.parameter.python", strings.ToLower(th.Color("ui.text").Hex()), ""},
	} {
		r := find(rs, c.scope)
		if got := strings.ToLower(r.FG.Hex()); got != c.fg || *r.Style != c.style {
			t.Errorf("imported: %s is %s %q, want %s %q", c.scope, got, *r.Style, c.fg, c.style)
		}
	}
}

// Issue #39: VS Code's Rust grammar (Shiki's) scopes `let` keyword.other.rust
// storage.type.rust, `const` before a NAME storage.type.rust alone, and the
// primitives entity.name.type.numeric/primitive.rust; Neovim paints let and
// const as keywords (rustKeyword, rustStorage) and u8 as a built-in type.
// VS Code and the preview paint them the same way; bat, whose Sublime
// grammar calls all of them storage.type.rust, paints that as the keyword
// and, where the grammar expects a type (a parameter, a generic
// argument, a field), as the built-in type.
func TestRustKeywordsAndPrimitivesAsNeovim(t *testing.T) {
	th := theme.Example()
	kw, bt := th.Color("syntax.keyword"), th.Color("syntax.builtinType")
	if kw == bt {
		t.Fatal("the example's keyword and built-in type share a colour; the test cannot tell them apart")
	}
	for _, c := range []struct {
		token string
		stack []string
		want  theme.Color
	}{
		{"let", []string{"source.rust", "keyword.other.rust storage.type.rust"}, kw},
		{"const NAME", []string{"source.rust", "storage.type.rust"}, kw},
		{"const", []string{"source.rust", "storage.modifier.rust"}, kw},
		{"u8", []string{"source.rust", "entity.name.type.numeric.rust"}, bt},
		{"str", []string{"source.rust", "entity.name.type.primitive.rust"}, bt},
	} {
		var stack []string
		for _, s := range c.stack {
			stack = append(stack, strings.Fields(s)...)
		}
		if got, _ := VSCodeScopeStyle(th, stack...); got != c.want {
			t.Errorf("VS Code paints Rust's %s %s, want %s", c.token, got.Hex(), c.want.Hex())
		}
	}
	var base, typed bool
	for _, r := range SublimeRules(th) {
		switch {
		case strings.HasPrefix(r.Scope, "source storage.type.rust,"):
			base = true
			if r.FG == nil || *r.FG != kw {
				t.Errorf("bat's storage.type.rust (let, const) is not the keyword %s: %+v", kw.Hex(), r)
			}
		case strings.Contains(r.Scope, "meta.function.parameters storage.type.rust"):
			typed = true
			if r.FG == nil || *r.FG != bt {
				t.Errorf("bat's storage.type.rust in a type position (u8) is not the built-in type %s: %+v", bt.Hex(), r)
			}
		}
	}
	if !base || !typed {
		t.Errorf("no Sublime rule for storage.type.rust (%v) or for it in a type position (%v)", base, typed)
	}
}
