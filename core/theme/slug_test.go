package theme

import (
	"strings"
	"testing"
)

func TestSlug(t *testing.T) {
	tests := map[string]string{
		"Harbour Night":           "harbour-night",
		"Paper & Ink <Light>":     "paper-ink-light",
		"  --Neon__Dreams 2077!":  "neon-dreams-2077",
		"Ünïcödé":                 "n-c-d",
		"日本":                      "theme",
		"../../etc/passwd":        "etc-passwd",
		"":                        "theme",
		strings.Repeat("ab ", 40): strings.TrimRight(strings.Repeat("ab-", 22)[:64], "-"),
	}
	for in, want := range tests {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}
