package targets_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/apply"
	"cdxtheme/core/install"
	"cdxtheme/core/targets"
)

func paths(home, goos string) install.Paths {
	return install.Paths{Home: home, ConfigHome: filepath.Join(home, ".config"), AppData: filepath.Join(home, "AppData", "Roaming"),
		LocalAppData: filepath.Join(home, "AppData", "Local"), GOOS: goos, Store: filepath.Join(home, "store")}
}

// Every target that installs into a config folder installs there on each
// system it runs on (both appearances, each file holding what Export
// writes), and Undo takes the files away again.
func TestApplyAndUndoEveryInstallableTarget(t *testing.T) {
	th := targets.Family(t)
	n := 0
	for _, mf := range targets.Manifests() {
		if mf.Install == nil {
			continue
		}
		n++
		files, err := targets.Render(th, mf.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, goos := range []string{"linux", "darwin", "windows"} {
			tg := install.Target{}
			for _, x := range install.Targets {
				if x.ID == mf.ID {
					tg = x
				}
			}
			if !tg.RunsOn(goos) {
				continue
			}
			t.Run(mf.ID+"/"+goos, func(t *testing.T) {
				home := t.TempDir()
				p := paths(home, goos)
				plan, err := apply.Plan(th, mf.ID, p)
				if err != nil {
					t.Fatal(err)
				}
				if len(plan.Files) != 2 {
					var names []string
					for _, f := range plan.Files {
						names = append(names, f.Path)
					}
					t.Fatalf("plan installs %d files, want the theme and its companion: %v", len(names), names)
				}
				if plan.Note == "" {
					t.Error("no note: the user is not told how to switch to it")
				}
				in, err := apply.Apply(plan)
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range in.Installed {
					if !strings.HasPrefix(f, home) {
						t.Errorf("%s is outside the home", f)
					}
					b, _ := os.ReadFile(f)
					found := false
					for _, want := range files {
						found = found || bytes.Equal(b, want)
					}
					if !found {
						t.Errorf("%s does not hold what Export writes", f)
					}
				}
				u, err := apply.UndoApply(p, mf.ID)
				if err != nil || len(u.Removed) != 2 {
					t.Fatalf("undo: %v %+v", err, u)
				}
				for _, f := range in.Installed {
					if _, err := os.Stat(f); !os.IsNotExist(err) {
						t.Errorf("%s still there after undo", f)
					}
				}
			})
		}
	}
	if n < 19 { // every target with a config folder of its own
		t.Errorf("%d installable targets", n)
	}
}

// Installed where Apply puts it, the theme is found by the program with no
// other set-up than the steps Apply prints: Vim finds ~/.vim/colors,
// fish its themes folder.
func TestAppliedVimAndFishThemesAreFoundByTheirPrograms(t *testing.T) {
	t.Run("vim", func(t *testing.T) {
		t.Parallel()
		bin := targets.Program(t, "vim", "vim")
		home := t.TempDir()
		th := targets.Family(t)
		plan, err := apply.Plan(th, "vim", paths(home, "linux"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := apply.Apply(plan); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(home, "probe.vim"), []byte(targets.VimProbe+"\n"), 0o644)
		// The step Apply prints: `colorscheme SLUG` in ~/.vimrc.
		var vimrc string
		for _, s := range plan.Steps {
			if s.Kind == "line" {
				vimrc = s.Text
			}
		}
		os.WriteFile(filepath.Join(home, ".vimrc"), []byte(vimrc+"\n"), 0o644)
		_, stderr, err := targets.Run(t, home, nil, bin, "-N", "-u", filepath.Join(home, ".vimrc"), "-i", "NONE", "-es", "-c", "source probe.vim", "-c", "qa!")
		b, rerr := os.ReadFile(filepath.Join(home, "probe.json"))
		if err != nil || rerr != nil || !strings.Contains(string(b), `"harbour-night"`) || !strings.Contains(string(b), targets.Hex(t, th, "ui.background")) {
			t.Errorf("vim with the applied vimrc line: %v %v %s\n%s", err, rerr, b, stderr)
		}
	})
	t.Run("fish", func(t *testing.T) {
		t.Parallel()
		bin := targets.Program(t, "fish", "fish")
		home := t.TempDir()
		th := targets.Family(t)
		p := paths(home, "linux")
		p.ConfigHome = filepath.Join(home, "config") // run's XDG_CONFIG_HOME
		plan, err := apply.Plan(th, "fish", p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := apply.Apply(plan); err != nil {
			t.Fatal(err)
		}
		out, stderr, err := targets.Run(t, home, nil, bin, "--no-config", "-c", "fish_config theme choose harbour-night; and echo $fish_color_keyword")
		if err != nil || out != targets.Hex(t, th, "syntax.keyword")[1:]+"\n" {
			t.Errorf("fish: %q %v %s", out, err, stderr)
		}
	})
}
