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
	// Again: the file holds the theme already, so nothing is written or backed up.
	out, _, code = runTheme(t, "apply", "--target", "kitty", "--yes", dir)
	if code != ExitOK || !strings.Contains(out, "holds this theme already") || !strings.Contains(out, "unchanged "+installed) || strings.Contains(out, "backup ") {
		t.Errorf("identical apply: exit %d\n%s", code, out)
	}
	// The user's own version is replaced with a backup in the data folder,
	// and --undo puts it back.
	mine := []byte("# mine\n")
	os.WriteFile(installed, mine, 0o640)
	os.Chmod(installed, 0o640)
	out, _, code = runTheme(t, "apply", "--target", "kitty", "--yes", dir)
	store := filepath.Join(os.Getenv("CDXTHEME_DATA_DIR"), "applied", "kitty")
	if code != ExitOK || !strings.Contains(out, "replaces the existing file") || !strings.Contains(out, "backup    "+store) ||
		!strings.Contains(out, "cdxtheme apply --undo --target kitty") {
		t.Errorf("apply over the user's file: exit %d\n%s", code, out)
	}
	out, errOut, code = runTheme(t, "apply", "--undo", "--target", "kitty")
	if code != ExitOK || !strings.Contains(out, "restored "+installed) {
		t.Fatalf("undo: exit %d\n%s%s", code, out, errOut)
	}
	b, _ := os.ReadFile(installed)
	fi, _ := os.Stat(installed)
	if string(b) != string(mine) || fi.Mode().Perm() != 0o640 {
		t.Errorf("after undo: %q %v, want the user's file and mode", b, fi.Mode().Perm())
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
		{[]string{"apply", "--target", "notepad", dir}, `unknown target "notepad"`},
		{[]string{"apply", "--target", "zed"}, "want one WORKSPACE"},
		{[]string{"apply", "--undo", "--target", "zed", dir}, "--undo takes no WORKSPACE"},
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
