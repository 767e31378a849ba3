package chathistory

import (
	"strings"
	"testing"
)

// An exported transcript's suggested file name keeps the title's letters,
// digits, '-' and '_', turns spaces into '-', and is at most 60 characters
// before ".md" (a long first message must not make an unwieldy name).
func TestExportNameKeepsTheTitleShortAndSafe(t *testing.T) {
	id := "01a20000-0000-7000-8000-0000000000a1"
	for title, want := range map[string]string{
		"Harbour night_2 theme!": "Harbour-night_2-theme.md",
		"a/../b: ok?":            "ab-ok.md",
		strings.Repeat("ab", 50): strings.Repeat("ab", 30) + ".md",
		"!!!":                    id + ".md",
		"Zz-09 yY":               "Zz-09-yY.md",
	} {
		if got := ExportName(title, id); got != want {
			t.Errorf("ExportName(%q) = %q, want %q", title, got, want)
		}
	}
}
