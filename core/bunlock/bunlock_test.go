package bunlock

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The lockfile Bun 1.4.5 wrote for @agentclientprotocol/codex-acp@2.6.0:
// only the packages Bun downloads on this machine are kept, aliases are
// followed to the package they name.
func TestParseBunLock(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "agent", "testdata", "codex-acp-2.6.0.bun.lock"))
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	var specs []string
	for _, p := range pkgs {
		specs = append(specs, p.Name+"@"+p.Version)
	}
	for _, want := range []string{"@agentclientprotocol/codex-acp@2.6.0", "@openai/codex@0.166.0", "zod@4.6.7"} {
		if !slices.Contains(specs, want) {
			t.Errorf("%s missing from %v", want, specs)
		}
	}
	platform := 0
	for _, s := range specs {
		if s == "@openai/codex@0.166.0-"+OS()+"-"+CPU() {
			platform++
		} else if len(s) > len("@openai/codex@0.166.0-") && s[:len("@openai/codex@0.166.0-")] == "@openai/codex@0.166.0-" {
			t.Errorf("%s is for another machine", s)
		}
	}
	if OS() == "linux" && CPU() == "x64" && platform != 1 {
		t.Errorf("the linux-x64 codex binary package is listed %d times", platform)
	}
	if len(specs) != 30-5 {
		t.Errorf("%d packages, want 25 (30 less the 5 other platforms): %v", len(specs), specs)
	}
}

func TestFits(t *testing.T) {
	for _, tt := range []struct {
		v    any
		have string
		want bool
	}{
		{nil, "linux", true},
		{"linux", "linux", true},
		{"darwin", "linux", false},
		{[]any{"darwin", "linux"}, "linux", true},
		{[]any{"!win32"}, "linux", true},
		{[]any{"!linux"}, "linux", false},
	} {
		if got := fits(tt.v, tt.have); got != tt.want {
			t.Errorf("fits(%v, %s) = %v", tt.v, tt.have, got)
		}
	}
}
