package targets

import (
	"os"
	"slices"
	"testing"

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
	known := []string{"name", "link", "syntax", "fg", "bg", "sp", "style"}
	names := map[string]bool{}
	n := 0
	for section, groups := range d {
		for _, g := range groups {
			n++
			name, _ := g["name"].(string)
			if name == "" || names[name] {
				t.Errorf("%s: %v: no name, or a name set twice", section, g)
			}
			names[name] = true
			for k := range g {
				if section == "splits" && (k == "filetype" || k == "kind" || k == "args") {
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
			if !link && g["syntax"] == nil && g["fg"] == nil && g["bg"] == nil && g["sp"] == nil && g["style"] == nil {
				t.Errorf("%s %s: no rule", section, name)
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
