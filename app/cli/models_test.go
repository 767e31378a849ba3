package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/settings"
	"cdxtheme/internal/testrig/fixtures"
)

const (
	sampleNewID = fixtures.SessionNew // codex 0.166 rollout
	sampleOldID = fixtures.SessionOld // codex 0.137 rollout
)

// codexTestHome copies the real sample Codex home into a temp dir, so
// nothing can touch the originals.
func codexTestHome(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	if err := fixtures.CopyCodexHome(dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

// runCodexCLI runs a subcommand through Run with CODEX_HOME set and an
// empty settings dir, like a user's shell would.
func runCodexCLI(t *testing.T, codexHome string, args ...string) (string, string, int) {
	t.Helper()
	t.Setenv("CODEX_HOME", codexHome)
	t.Setenv("CDXTHEME_CONFIG_DIR", t.TempDir())
	if os.Getenv("CDXTHEME_CACHE_DIR") == "" || os.Getenv("CDXTHEME_DATA_DIR") == "" {
		t.Setenv("CDXTHEME_CACHE_DIR", t.TempDir())
		t.Setenv("CDXTHEME_DATA_DIR", t.TempDir())
	}
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), code
}

// runWithSettings calls a subcommand with a settings override for the home.
func runWithSettings(t *testing.T, run func(context.Context, *Env, []string) int, codexHome string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{Stdout: &out, Stderr: &errb, Settings: settings.Settings{CodexHome: codexHome}}
	code := run(context.Background(), env, args)
	return out.String(), errb.String(), code
}

func TestModelsJSON(t *testing.T) {
	home := codexTestHome(t)
	missing := filepath.Join(t.TempDir(), "absent")
	tests := []struct {
		name       string
		home       string
		wantSource string
		wantFirst  string
		wantHint   bool
	}{
		{"real cache", home, "cache", "gpt-6.1-sol", false},
		{"missing CODEX_HOME", missing, "fallback", "gpt-5.5", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runCodexCLI(t, tt.home, "models", "--json")
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var v struct {
				Current string `json:"current"`
				Source  string `json:"source"`
				Hint    string `json:"hint"`
				Models  []struct {
					ID, Name, Description, DefaultReasoningLevel string
					ReasoningLevels                              []struct{ Effort, Description string }
				} `json:"models"`
			}
			if err := json.Unmarshal([]byte(stdout), &v); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, stdout)
			}
			if v.Source != tt.wantSource || len(v.Models) == 0 || v.Models[0].ID != tt.wantFirst || v.Current != "gpt-5.5" && tt.wantSource == "cache" {
				t.Errorf("got %+v", v)
			}
			if (v.Hint != "") != tt.wantHint {
				t.Errorf("hint = %q", v.Hint)
			}
			for _, m := range v.Models {
				if m.ID == "codex-auto-review" {
					t.Error("hidden model listed")
				}
				if len(m.ReasoningLevels) == 0 || m.ReasoningLevels[0].Effort == "" {
					t.Errorf("%s has no reasoning levels", m.ID)
				}
			}
		})
	}
}

func TestModelsText(t *testing.T) {
	stdout, _, code := runCodexCLI(t, codexTestHome(t), "models")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	for _, w := range []string{"gpt-6.1-sol", "GPT-6-Luna", "low*", "→", "gpt-5.5", "source: cache"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("missing %q in:\n%s", w, stdout)
		}
	}
}

func TestModelsSettingsOverrideWins(t *testing.T) {
	t.Setenv("CODEX_HOME", filepath.Join(t.TempDir(), "absent"))
	stdout, _, code := runWithSettings(t, runModels, codexTestHome(t), "--json")
	if code != ExitOK || !strings.Contains(stdout, `"source": "cache"`) {
		t.Errorf("exit %d, settings' codex home ignored:\n%s", code, stdout)
	}
}

func TestModelsUsage(t *testing.T) {
	for _, args := range [][]string{{"models", "extra"}, {"models", "--bogus"}} {
		_, stderr, code := runCodexCLI(t, t.TempDir(), args...)
		if code != ExitUsage || !strings.Contains(stderr, "usage: cdxtheme models") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}
