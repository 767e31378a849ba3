package apply

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"cdxtheme/core/install"
	"cdxtheme/core/theme"
)

// exampleWith is the example theme with its background ink replaced.
func exampleWith(t *testing.T, ink string) *theme.Theme {
	t.Helper()
	th, err := theme.Parse(bytes.Replace(theme.ExampleJSON(), []byte(`"ink": "#161a24"`), []byte(`"ink": "`+ink+`"`), 1))
	if err != nil {
		t.Fatal(err)
	}
	return th
}

func applyFor(t *testing.T, th *theme.Theme, target, build string, p install.Paths) InstallPlan {
	t.Helper()
	plan, err := Plan(th, target, p)
	if err != nil {
		t.Fatal(err)
	}
	plan.Build = build
	if _, err := Apply(plan); err != nil {
		t.Fatal(err)
	}
	return plan
}

// A live change rewrites the applied file, and Undo afterwards still puts
// the user's own file back byte for byte.
func TestRefreshFollowsTheBuildAndUndoRestoresTheOriginal(t *testing.T) {
	p := tempPaths(t, "linux")
	path := filepath.Join(p.ConfigHome, "tmux", "themes", "harbour-night.conf")
	mine := []byte("# my own tmux colours\nset -g status-style bg=red\n")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, mine, 0o640); err != nil {
		t.Fatal(err)
	}
	applyFor(t, theme.Example(), "tmux", "b1", p)
	if got := AppliedBy(p, "b1"); len(got) != 1 || got[0] != "tmux" {
		t.Fatalf("AppliedBy(b1) = %v, want [tmux]", got)
	}
	if got := AppliedBy(p, "b2"); len(got) != 0 {
		t.Fatalf("AppliedBy(b2) = %v, want none", got)
	}

	for _, ink := range []string{"#102030", "#203040"} {
		r, err := Refresh(exampleWith(t, ink), "tmux", "b1", p)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Written) != 1 || r.Written[0] != path || r.Primary != path {
			t.Fatalf("refresh wrote %v (primary %q), want %s", r.Written, r.Primary, path)
		}
		b, _ := os.ReadFile(path)
		if !strings.Contains(string(b), ink) {
			t.Fatalf("the applied file does not carry the new colour %s:\n%s", ink, b)
		}
	}
	// Windows has no permission bits to keep.
	if fi, _ := os.Stat(path); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the user's 0640 kept", fi.Mode().Perm())
	}
	// Nothing changed: nothing written.
	if r, err := Refresh(exampleWith(t, "#203040"), "tmux", "b1", p); err != nil || len(r.Written) != 0 {
		t.Fatalf("an unchanged theme rewrote %v (%v)", r.Written, err)
	}
	// Another build's refresh writes nothing.
	if _, err := Refresh(exampleWith(t, "#000000"), "tmux", "b2", p); !errors.Is(err, ErrNotApplied) {
		t.Fatalf("another build's refresh: %v, want ErrNotApplied", err)
	}
	if _, err := UndoApply(p, "tmux"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, mine) {
		t.Fatalf("undo after live changes gave\n%s\nwant the user's original\n%s", b, mine)
	}
	// Undone: live stops.
	if _, err := Refresh(exampleWith(t, "#111111"), "tmux", "b1", p); !errors.Is(err, ErrNotApplied) {
		t.Fatalf("refresh after undo: %v, want ErrNotApplied", err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, mine) {
		t.Fatal("a refresh after undo wrote over the user's file")
	}
}

// A file someone else changed since the apply is theirs: left alone; and
// a renamed theme goes to a file the apply never wrote.
func TestRefreshLeavesAChangedFileAndARenamedTheme(t *testing.T) {
	p := tempPaths(t, "linux")
	plan := applyFor(t, theme.Example(), "kitty", "b1", p)
	path := plan.Files[0].Path
	theirs := []byte("foreground #ffffff\n")
	if err := os.WriteFile(path, theirs, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Refresh(exampleWith(t, "#102030"), "kitty", "b1", p)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Written) != 0 || len(r.Kept) != 1 {
		t.Fatalf("wrote %v kept %v, want the changed file kept", r.Written, r.Kept)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, theirs) {
		t.Fatal("refresh wrote over a file someone changed")
	}

	// A renamed theme goes to another file: missing, nothing written.
	q := tempPaths(t, "linux")
	applyFor(t, theme.Example(), "neovim", "b1", q)
	renamed := exampleWith(t, "#102030")
	renamed.Name = "Harbour Dusk"
	r, err = Refresh(renamed, "neovim", "b1", q)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Written) != 0 || len(r.Missing) != 1 || !strings.HasSuffix(r.Missing[0], "harbour-dusk.lua") {
		t.Fatalf("renamed theme: wrote %v missing %v", r.Written, r.Missing)
	}
}

// A live edit's Refresh reads only the theme's own files, each once: the
// user's settings files (config, kitty.conf, settings.json) are Apply's
// business, not every keystroke's, and what the plan read is not read
// again.
func TestRefreshReadsOnlyTheThemeFilesOnce(t *testing.T) {
	p := tempPaths(t, "linux")
	cfg := filepath.Join(p.ConfigHome, "ghostty", "config")
	os.MkdirAll(filepath.Dir(cfg), 0o755)
	os.WriteFile(cfg, []byte("font-size = 12\ntheme = dracula\n"), 0o644)
	plan, i := settingStep(t, p, "ghostty", cfg, "")
	plan.Build, plan.Change = "b1", []int{i}
	if _, err := Apply(plan); err != nil {
		t.Fatal(err)
	}
	reads := map[string]int{}
	onRead = func(path string) { reads[path]++ }
	defer func() { onRead = nil }()
	res, err := Refresh(exampleWith(t, "#202431"), "ghostty", "b1", p)
	if err != nil || len(res.Written) != 1 {
		t.Fatalf("Refresh: %+v %v, want the theme file rewritten", res, err)
	}
	if reads[cfg] != 0 {
		t.Errorf("Refresh read the settings file %s %d times", cfg, reads[cfg])
	}
	for _, f := range plan.Files {
		if reads[f.Path] != 1 {
			t.Errorf("Refresh read %s %d times, want once", f.Path, reads[f.Path])
		}
	}
}
