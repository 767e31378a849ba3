package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"cdxtheme/core/theme"
)

// applyEnv gives apply a temporary home and a fake stdin.
func applyEnv(t *testing.T, terminal bool, input string) string {
	t.Helper()
	themeEnv(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	oldIn, oldTerm := confirmIn, stdinIsTerminal
	confirmIn = strings.NewReader(input)
	stdinIsTerminal = func() bool { return terminal }
	t.Cleanup(func() { confirmIn, stdinIsTerminal = oldIn, oldTerm })
	return home
}

func TestApplyWithYes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("kitty is not on Windows")
	}
	home := applyEnv(t, false, "")
	dir := themeDir(t, theme.ExampleJSON())
	installed := filepath.Join(home, ".config", "kitty", "themes", "harbour-night.conf")
	out, errOut, code := runTheme(t, "apply", "--target", "kitty", "--yes", dir)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{installed + " (new)", "installed " + installed, "kitten themes"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(installed); err != nil {
		t.Fatal(err)
	}
	// Again: the plan says the file is replaced and a backup is made.
	out, _, code = runTheme(t, "apply", "--target", "kitty", "--yes", dir)
	if code != ExitOK || !strings.Contains(out, "replaces the existing file") || !strings.Contains(out, "backup    "+installed+".bak-") {
		t.Errorf("second apply: exit %d\n%s", code, out)
	}
}

func TestApplyConfirmation(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("zed paths differ on Windows")
	}
	tests := []struct {
		name      string
		terminal  bool
		input     string
		code      int
		installed bool
		stderr    string
	}{
		{"no terminal, no --yes", false, "y\n", ExitUsage, false, "pass --yes"},
		{"user says yes", true, "y\n", ExitOK, true, "Install? [y/N]"},
		{"user says YES", true, "YES\n", ExitOK, true, ""},
		{"user says no", true, "n\n", ExitCancelled, false, "nothing was written"},
		{"user just presses enter", true, "\n", ExitCancelled, false, "nothing was written"},
		{"stdin closed", true, "", ExitCancelled, false, "nothing was written"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := applyEnv(t, tt.terminal, tt.input)
			dir := themeDir(t, theme.ExampleJSON())
			_, errOut, code := runTheme(t, "apply", "--target", "zed", dir)
			if code != tt.code || !strings.Contains(errOut, tt.stderr) {
				t.Errorf("exit %d (want %d), stderr:\n%s", code, tt.code, errOut)
			}
			_, err := os.Stat(filepath.Join(home, ".config", "zed", "themes", "harbour-night.json"))
			if (err == nil) != tt.installed {
				t.Errorf("installed = %v, want %v", err == nil, tt.installed)
			}
		})
	}
}

func TestApplyWindowsTerminalElsewherePrintsScheme(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("installs for real on Windows")
	}
	home := applyEnv(t, false, "")
	out, errOut, code := runTheme(t, "apply", "--target", "windows-terminal", themeDir(t, theme.ExampleJSON()))
	if code != ExitOK || !strings.Contains(errOut, "settings.json") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `"name": "Harbour Night"`) || !strings.Contains(out, `"brightPurple"`) {
		t.Errorf("scheme not printed:\n%s", out)
	}
	if entries, _ := os.ReadDir(home); len(entries) != 0 {
		t.Errorf("something was written into the home: %v", entries)
	}
}

func TestApplyUsage(t *testing.T) {
	applyEnv(t, true, "y\n")
	dir := themeDir(t, theme.ExampleJSON())
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"apply", dir}, "--target is required"},
		{[]string{"apply", "--target", "emacs", dir}, `unknown target "emacs"`},
		{[]string{"apply", "--target", "zed"}, "want one WORKSPACE"},
	} {
		_, errOut, code := runTheme(t, tt.args...)
		if code != ExitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr:\n%s", tt.args, code, errOut)
		}
	}
	if runtime.GOOS != "darwin" {
		_, errOut, code := runTheme(t, "apply", "--target", "iterm2", "--yes", dir)
		if code != ExitError || !strings.Contains(errOut, "cdxtheme export --format iterm2") {
			t.Errorf("iterm2 off macOS: exit %d, %s", code, errOut)
		}
	}
}
