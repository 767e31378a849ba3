package themeimport

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"cdxtheme/core/colour"
	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
)

// tmuxCorpus is every theme the tests carry: the samples, the reference
// projects' schemes and the published VS Code themes, imported.
func tmuxCorpus(t *testing.T) map[string]*theme.Theme {
	t.Helper()
	out := sampleThemes(t)
	var paths []string
	for _, g := range []string{model + "/oracle/vscode/*.json", model + "/oracle/iterm2-color-schemes/schemes/*",
		model + "/oracle/tinted/schemes/*/*.yaml", model + "/import/*"} {
		m, _ := filepath.Glob(g)
		paths = append(paths, m...)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		im, err := Import(filepath.Base(p), b)
		if err != nil {
			continue // not a theme file (settings.json holds no colours)
		}
		out[p] = im.Theme
	}
	if len(out) < 20 {
		t.Fatalf("only %d themes to check", len(out))
	}
	return out
}

var tmuxSet = regexp.MustCompile(`(?m)^set -gq? (\S+) "fg=(#[0-9a-f]{6}),bg=(#[0-9a-f]{6})`)

func TestTmuxStatusReadable(t *testing.T) {
	worst, before := 21.0, 21.0
	corpus := tmuxCorpus(t)
	for name, th := range corpus {
		files, err := targets.Render(th, "tmux")
		if err != nil {
			t.Fatal(err)
		}
		styles := map[string]bool{}
		for _, m := range tmuxSet.FindAllStringSubmatch(string(files[theme.Slug(th.Name)+".conf"]), -1) {
			fg, _ := theme.ParseColor(m[2])
			bg, _ := theme.ParseColor(m[3])
			r := colour.Ratio(fg, bg)
			if r < 4.5 {
				t.Errorf("%s: %s %s on %s is %.2f:1, want at least 4.5:1", name, m[1], m[2], m[3], r)
			}
			if m[1] == "status-style" {
				worst = math.Min(worst, r)
			}
			styles[m[1]] = true
		}
		for _, o := range []string{"status-style", "status-left-style", "window-status-current-style", "message-style",
			"message-command-style", "mode-style", "copy-mode-match-style", "copy-mode-current-match-style"} {
			if !styles[o] {
				t.Errorf("%s: no %s", name, o)
			}
		}
		// What the status bar had before: muted text on the surface.
		before = math.Min(before, colour.Ratio(th.Seen(th.UI.MutedText), th.Seen(th.UI.Surface)))
	}
	t.Logf("tmux status bar: lowest contrast %.2f:1 over %d themes (muted text on surface: %.2f:1)", worst, len(corpus), before)
}
