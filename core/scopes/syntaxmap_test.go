package scopes

import (
	"strings"
	"testing"

	"cdxtheme/core/theme"
)

// TestSyntaxMapCoversEveryRoleOnce: the one table of token vocabularies
// names every syntax role exactly once, and no role outside the catalogue.
func TestSyntaxMapCoversEveryRoleOnce(t *testing.T) {
	seen := map[string]int{}
	captures := map[string]string{}
	for _, m := range syntaxMap {
		seen[m.role]++
		if _, ok := theme.RoleByPath("syntax." + m.role); !ok {
			t.Errorf("syntaxMap names %q, no syntax role", m.role)
		}
		if len(m.textmate) == 0 {
			t.Errorf("syntax.%s has no TextMate scope", m.role)
		}
		for _, c := range m.captures {
			if prev, dup := captures[c]; dup {
				t.Errorf("capture %s given to both %s and %s", c, prev, m.role)
			}
			captures[c] = m.role
		}
	}
	for _, r := range theme.GroupRoles("syntax") {
		if seen[r] != 1 {
			t.Errorf("syntax.%s appears %d times in syntaxMap, want once", r, seen[r])
		}
	}
	// Every old capture links to a current one of the table.
	for _, m := range syntaxMap {
		for _, o := range m.old {
			_, to, ok := strings.Cut(o, "=")
			if !ok || captures[to] == "" {
				t.Errorf("old capture %q links to %q, which no role has", o, to)
			}
		}
	}
}
