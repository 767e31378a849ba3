package targets

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"cdxtheme/core/scopes"
	"cdxtheme/core/theme"
	"github.com/pelletier/go-toml/v2"
)

// A mistyped key in Neovim's group table would be ignored by the template
// and leave a group unpainted (hl('X', {  })) in every theme: each entry
// must name a group and one rule the template knows, and a syntax role
// must exist.
func TestNeovimGroupsTableHasOnlyRulesTheTemplateReads(t *testing.T) {
	b, err := os.ReadFile("templates/neovim/groups.toml")
	if err != nil {
		t.Fatal(err)
	}
	var d map[string][]map[string]any
	if err := toml.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	syntax := theme.GroupRoles("syntax")
	known := []string{"name", "link", "syntax", "fg", "bg", "sp", "style", "scope"}
	names := map[string]bool{}
	n := 0
	for section, groups := range d {
		for _, g := range groups {
			n++
			name, _ := g["name"].(string)
			if section == "families" {
				name = fmt.Sprint(g["prefix"], "*", g["suffix"])
			}
			if name == "" || names[name] {
				t.Errorf("%s: %v: no name, or a name set twice", section, g)
			}
			names[name] = true
			for k := range g {
				if section == "splits" && (k == "filetype" || k == "kind" || k == "args") ||
					section == "families" && (k == "syntaxes" || k == "prefix" || k == "suffix") {
					continue
				}
				if !slices.Contains(known, k) {
					t.Errorf("%s %s: unknown key %q", section, name, k)
				}
			}
			_, link := g["link"]
			if link && len(g) != 2 {
				t.Errorf("%s %s: a link takes nothing else", section, name)
			}
			if !link && g["kind"] != "cluster" && g["syntax"] == nil && g["fg"] == nil && g["bg"] == nil && g["sp"] == nil && g["style"] == nil {
				t.Errorf("%s %s: no rule", section, name)
			}
			// A scope is read only for a theme with its own token rules;
			// every other theme takes the role.
			if _, ok := g["scope"]; ok && g["syntax"] == nil && g["fg"] == nil {
				t.Errorf("%s %s: a scope without the role other themes take", section, name)
			}
			if r, ok := g["syntax"].(string); ok && !slices.Contains(syntax, r) {
				t.Errorf("%s %s: no syntax role %q", section, name, r)
			}
		}
	}
	if n < 500 {
		t.Errorf("%d groups in the table", n)
	}
}

// A language group's role and its scope must be one token kind: for a
// theme without token rules of its own, the role colour the group takes
// must be the colour the VS Code export paints the scope with, or Neovim
// and VS Code disagree on those tokens (checked with the example theme,
// whose roles have distinct colours where it matters).
func TestNeovimGroupScopesAgreeWithTheirRoles(t *testing.T) {
	b, err := os.ReadFile("templates/neovim/groups.toml")
	if err != nil {
		t.Fatal(err)
	}
	var d map[string][]map[string]any
	if err := toml.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("../theme/testdata/example.theme.json")
	if err != nil {
		t.Fatal(err)
	}
	th, err := theme.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Render(th, "vscode")
	if err != nil {
		t.Fatal(err)
	}
	var vs struct {
		TokenColors json.RawMessage `json:"tokenColors"`
	}
	for name, f := range out {
		if strings.HasSuffix(name, "-color-theme.json") {
			if err := json.Unmarshal(f, &vs); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(vs.TokenColors) == 0 {
		t.Fatal("the VS Code export has no tokenColors")
	}
	withRules := *th
	withRules.Targets = &theme.TargetOverrides{VSCode: &theme.VSCodeTarget{TokenColors: vs.TokenColors}}
	rules, plain := newView(&withRules), newView(th)
	n := 0
	for section, groups := range d {
		for _, g := range groups {
			scope, _ := g["scope"].(string)
			role, _ := g["fg"].(string)
			if r, ok := g["syntax"].(string); ok {
				role = "syntax." + r
			}
			if scope == "" {
				continue
			}
			n++
			want, err := plain.Hex(role)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := plain.Hex("ui.text")
			if p := rules.Scope(scope); p != nil && p.FG != nil {
				got = p.FG.Hex()
			}
			if got != want {
				t.Errorf("%s %v: role %s is %s, VS Code paints %q %s", section, g["name"], role, want, scope, got)
			}
		}
	}
	if n < 100 {
		t.Errorf("%d groups with a scope", n)
	}
}

// The Neovim colorscheme sets the 0.10 tree-sitter captures of every
// syntax role (core/scopes' syntax map) in the role's colour, and the
// pre-0.10 names as links to them.
func TestNeovimSetsEachSyntaxRolesCaptures(t *testing.T) {
	th := theme.Example()
	files, err := Render(th, "neovim")
	if err != nil {
		t.Fatal(err)
	}
	hl := regexp.MustCompile(`^\s*hl\('([^']+)', \{ (.*) \}\)$`)
	set := map[string]string{}
	for _, line := range strings.Split(string(files["colors/"+theme.Slug(th.Name)+".lua"]), "\n") {
		if m := hl.FindStringSubmatch(line); m != nil {
			set[strings.ToLower(m[1])] = m[2]
		}
	}
	for _, m := range scopes.SyntaxMap() {
		want := "fg = '" + th.Seen(th.Color("syntax."+m.Role)).Hex() + "'"
		for _, c := range m.Captures {
			if d, ok := set[strings.ToLower(c)]; !ok || !strings.HasPrefix(d, want) {
				t.Errorf("capture %s = %q, want %s", c, d, want)
			}
		}
		for _, o := range m.Old {
			old, cur, _ := strings.Cut(o, "=")
			if d := set[strings.ToLower(old)]; d != "link = '"+cur+"'" {
				t.Errorf("old capture %s = %q, want a link to %s", old, d, cur)
			}
		}
	}
}
