package apply

import (
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/install"
	"cdxtheme/core/theme"
)

func TestApplyInstallsTheCompanionBeside(t *testing.T) {
	th := withCompanion(t)
	p := tempPaths(t, "linux")
	for _, target := range []string{"kitty", "neovim", "helix", "tmux"} {
		plan, err := Plan(th, target, p)
		if err != nil {
			t.Fatal(err)
		}
		var bases []string
		for _, f := range plan.Files {
			bases = append(bases, filepath.Base(f.Path))
		}
		joined := strings.Join(bases, " ")
		if !strings.Contains(joined, theme.Slug(th.Companion.Name)) || !strings.Contains(plan.Note, th.Companion.Name) {
			t.Errorf("%s: plan %v, note %q: the light variant is not installed beside", target, bases, plan.Note)
		}
	}
	// Without a companion nothing is added.
	plan, _ := Plan(theme.Example(), "kitty", p)
	if len(plan.Files) != 1 {
		t.Errorf("kitty plan of one theme writes %d files", len(plan.Files))
	}
}

// Every plan lists each file once, a light/dark family included: VS Code's
// extension already holds the variant's file, which was planned a second
// time as an extra beside it, and the dialog's list keyed by path broke.
func TestPlanListsEachFileOnce(t *testing.T) {
	for _, th := range []*theme.Theme{theme.Example(), withCompanion(t)} {
		for _, goos := range []string{"linux", "darwin", "windows"} {
			p := tempPaths(t, goos)
			for _, tg := range install.TargetsFor(goos) {
				plan, err := Plan(th, tg.ID, p)
				if err != nil {
					t.Fatalf("%s on %s: %v", tg.ID, goos, err)
				}
				seen := map[string]bool{}
				for _, f := range plan.Files {
					if seen[f.Path] {
						t.Errorf("%s on %s (companion %v): %s is planned twice", tg.ID, goos, th.Companion != nil, f.Path)
					}
					seen[f.Path] = true
				}
			}
		}
	}
}
