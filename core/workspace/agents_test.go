package workspace

import (
	"strings"
	"testing"

	"cdxtheme/core/theme"
)

func TestAgentsMDDescribesTheFormat(t *testing.T) {
	md := AgentsMD()
	for _, list := range [][]string{theme.UIRoles, theme.SyntaxRoles, theme.ANSINames, theme.Appearances} {
		for _, name := range list {
			if !strings.Contains(md, "`"+name+"`") {
				t.Errorf("AGENTS.md does not mention %q", name)
			}
		}
	}
	for _, info := range theme.Catalogue() {
		if !info.Required && (!strings.Contains(md, "`"+info.Path+"`") || !strings.Contains(md, info.RuleText)) {
			t.Errorf("AGENTS.md does not describe the optional role %s and its rule %q", info.Path, info.RuleText)
		}
	}
	for _, want := range []string{"theme.json", "#rrggbb", "4.5:1", "exactly 16", "fontStyle", "derive", "\"version\": 3", "palette first", "\"blue.600\"", "\"accent\": \"tide\""} {
		if !strings.Contains(md, want) {
			t.Errorf("AGENTS.md lacks %q", want)
		}
	}
	// The example in it is a valid theme.
	_, rest, ok := strings.Cut(md, "```json\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("no json example block")
	}
	if _, err := theme.Parse([]byte(example)); err != nil {
		t.Errorf("example in AGENTS.md is invalid: %v", err)
	}
}
