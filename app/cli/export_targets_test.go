package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"cdxtheme/core/base16"
	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
)

// `export -h` names every format on its -format line, the targets defined
// as data among them: at least 40.
func TestExportHelpListsEveryFormat(t *testing.T) {
	themeEnv(t)
	_, errOut, _ := runTheme(t, "export", "-h")
	m := regexp.MustCompile(`(?s)-format string\s+one of (.*?), or all`).FindStringSubmatch(errOut)
	if m == nil {
		t.Fatalf("no -format line:\n%s", errOut)
	}
	ids := strings.Split(m[1], ", ")
	if len(ids) < 40 {
		t.Errorf("%d formats, want at least 40: %v", len(ids), ids)
	}
	listed := map[string]bool{}
	for _, id := range ids {
		listed[id] = true
	}
	for _, want := range []string{"vim", "emacs", "jetbrains", "sublime", "xresources", "gnome-terminal", "konsole",
		"xfce4-terminal", "warp", "tilix", "mintty", "fzf", "lazygit", "btop", "k9s", "yazi", "zellij", "starship", "fish",
		"ls-colors", "delta", "obsidian", "firefox", "chrome", "gtk", "slack", "vscode", "kitty"} {
		if !listed[want] {
			t.Errorf("%s is not listed", want)
		}
	}
	for _, mf := range targets.Manifests() {
		if !listed[mf.ID] {
			t.Errorf("target %s is not listed", mf.ID)
		}
	}
	if !strings.Contains(errOut, "-template") {
		t.Error("no -template flag")
	}
}

func TestExportTemplateFolder(t *testing.T) {
	themeEnv(t)
	dir := themeDir(t, theme.ExampleJSON())
	folder, _ := filepath.Abs("../../core/targets/tinted/testdata/tinted-fzf")
	out, errOut, code := runTheme(t, "export", "--template", folder, dir)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := filepath.Join(dir, "export", "template-tinted-fzf", "sh", "base16-harbour-night.sh")
	if !strings.Contains(out, want+"\n") {
		t.Errorf("stdout does not name %s:\n%s", want, out)
	}
	b, err := os.ReadFile(want)
	base0D := base16.Colors(theme.Example(), "base16")["base0D"].Hex()
	if err != nil || !strings.Contains(string(b), "hl:"+base0D) {
		t.Errorf("%s: %v\n%s", want, err, b)
	}
	other := t.TempDir()
	if _, errOut, code := runTheme(t, "export", "--template", folder, "--out", other, dir); code != ExitOK {
		t.Fatalf("--out: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(other, "fish", "base24-harbour-night.fish")); err != nil {
		t.Error(err)
	}
	if _, errOut, code := runTheme(t, "export", "--template", folder, "--format", "vim", dir); code != ExitUsage || !strings.Contains(errOut, "give one") {
		t.Errorf("both flags: exit %d %s", code, errOut)
	}
	if _, errOut, code := runTheme(t, "export", "--template", t.TempDir(), dir); code != ExitError || !strings.Contains(errOut, "templates/config.yaml") {
		t.Errorf("empty folder: exit %d %s", code, errOut)
	}
}
