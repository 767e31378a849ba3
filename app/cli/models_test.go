package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cdxtheme/core/settings"
)

const (
	sampleNewID = "01a2360f-02d3-7551-b339-f4d167fb91c8" // codex 0.166 rollout
	sampleOldID = "01a23612-9865-7550-b5c4-b34cfa49d258" // codex 0.137 rollout
)

// codexTestHome copies core/codexhome's real sample home into a temp dir
// (so nothing can touch the originals) and pins the rollouts' mtimes.
func codexTestHome(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "core", "codexhome", "testdata", "home")
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(target, b, 0o644); err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), "rollout-") {
			m, _ := time.Parse(time.RFC3339, "2026-12-02T09:30:00Z")
			return os.Chtimes(target, m, m)
		}
		return nil
	})
	if err != nil {
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
