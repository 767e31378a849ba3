package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"cdxtheme/core/theme"
	"cdxtheme/internal/testrig/testbin"
)

// The built binary, as users run it: without --settings the plan says what
// it would change in config.toml and leaves it alone; with --settings the
// one top-level theme line changes, and --undo puts the file back byte for
// byte.
func TestApplySettingsFlagEndToEnd(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Helix's config is under %APPDATA% there; the Unix layout is tested here")
	}
	bin := testbin.CLI(t)
	home := t.TempDir()
	ws := themeDir(t, theme.ExampleJSON())
	env := append(os.Environ(), "HOME="+home, "USERPROFILE="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"CDXTHEME_DATA_DIR="+t.TempDir(), "CDXTHEME_CONFIG_DIR="+t.TempDir())
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("cdxtheme %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	cfg := filepath.Join(home, ".config", "helix", "config.toml")
	os.MkdirAll(filepath.Dir(cfg), 0o755)
	orig := "theme = \"onedark\"\n\n[editor]\ntheme = \"unrelated\"\n"
	if err := os.WriteFile(cfg, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}

	out := run("apply", "--target", "helix", "--yes", ws)
	if !strings.Contains(out, "  change in "+cfg+`: theme = "onedark" -> theme = "harbour-night" (pass --settings to do it)`) {
		t.Errorf("the plan does not say what --settings would change:\n%s", out)
	}
	if got, _ := os.ReadFile(cfg); string(got) != orig {
		t.Fatalf("config.toml changed without --settings:\n%s", got)
	}
	run("apply", "--undo", "--target", "helix")

	out = run("apply", "--target", "helix", "--yes", "--settings", ws)
	if !strings.Contains(out, "installed "+cfg) {
		t.Errorf("config.toml is not among the files written:\n%s", out)
	}
	got, _ := os.ReadFile(cfg)
	if want := strings.Replace(orig, "onedark", "harbour-night", 1); string(got) != want {
		t.Fatalf("config.toml:\n%s\nwant:\n%s", got, want)
	}
	var m struct {
		Theme  string
		Editor struct{ Theme string }
	}
	if err := toml.Unmarshal(got, &m); err != nil || m.Theme != "harbour-night" || m.Editor.Theme != "unrelated" {
		t.Errorf("config.toml reads %+v, %v", m, err)
	}
	if fi, _ := os.Stat(cfg); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's own 0600", fi.Mode().Perm())
	}
	// Applying again: the setting holds already, nothing to change.
	if out = run("apply", "--target", "helix", "--yes", "--settings", ws); !strings.Contains(out, "  already set in "+cfg+`: theme = "harbour-night"`) {
		t.Errorf("a second apply does not say the setting holds:\n%s", out)
	}
	run("apply", "--undo", "--target", "helix")
	if got, _ := os.ReadFile(cfg); string(got) != orig {
		t.Errorf("--undo left config.toml as:\n%s", got)
	}
}
