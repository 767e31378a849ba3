package cli

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/theme"
	"cdxtheme/core/workspace"
)

func TestImportCreatesBuild(t *testing.T) {
	themeEnv(t)
	src := filepath.Join("..", "..", "core", "theme", "testdata", "import", "nightfall-color-theme.json")
	out, errOut, code := runTheme(t, "import", src, "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		ID, Path, Format, Name string
		Mapped                 []struct{ Role, From string }
		Derived                []struct {
			Role, Rule string
			From       []string
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	ws, err := workspace.Open(workspace.Root(), res.ID)
	if err != nil || ws.Dir != res.Path || ws.Title != "Nightfall" {
		t.Fatalf("workspace %+v (%v), result %+v", ws, err, res)
	}
	b, err := os.ReadFile(filepath.Join(res.Path, theme.FileName))
	if err != nil {
		t.Fatal(err)
	}
	th, err := theme.Parse(b)
	if err != nil {
		t.Fatalf("the imported theme.json is invalid: %v", err)
	}
	if th.UI.Background.Hex() != "#1a1b26" || th.Syntax.Keyword.Hex() != "#bb9af7" {
		t.Errorf("theme = %+v", th)
	}
	if len(res.Mapped)+len(res.Derived) != len(theme.RolePaths()) {
		t.Errorf("%d mapped + %d derived, want all %d roles accounted for", len(res.Mapped), len(res.Derived), len(theme.RolePaths()))
	}
	for _, d := range res.Derived {
		if d.Rule == "" {
			t.Errorf("derived %s has no rule", d.Role)
		}
	}
}

func TestImportPrintsIDAndName(t *testing.T) {
	themeEnv(t)
	src := filepath.Join("..", "..", "core", "theme", "testdata", "import", "gruvbox-dark-hard.yaml")
	out, errOut, code := runTheme(t, "import", "--name", "Campfire", src)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	id := strings.TrimSpace(out)
	ws, err := workspace.Open(workspace.Root(), id)
	if err != nil || ws.Title != "Campfire" {
		t.Fatalf("stdout %q: %+v %v", out, ws, err)
	}
	if !strings.Contains(errOut, "base16") || !strings.Contains(errOut, "derived") {
		t.Errorf("stderr summary %q", errOut)
	}
}

func TestImportBadInput(t *testing.T) {
	data := themeEnv(t)
	bad := filepath.Join(t.TempDir(), "broken.toml")
	os.WriteFile(bad, []byte("[colors.primary]\nbackground = \"#00000\"\n"), 0o644)
	_, errOut, code := runTheme(t, "import", bad)
	if code != ExitError || !strings.Contains(errOut, "broken.toml:2: colors.primary.background:") {
		t.Errorf("exit %d, stderr %q: want the file, line and key", code, errOut)
	}
	if entries, _ := os.ReadDir(filepath.Join(data, "theme_builder")); len(entries) != 0 {
		t.Errorf("a failed import left %d workspaces", len(entries))
	}
	if _, _, code := runTheme(t, "import"); code != ExitUsage {
		t.Errorf("no FILE: exit %d, want %d", code, ExitUsage)
	}
	// The OS's own words for a missing file ("no such file or directory",
	// on Windows "The system cannot find the file specified.").
	missing := filepath.Join(t.TempDir(), "missing.json")
	_, statErr := os.Stat(missing)
	var pe *fs.PathError
	if !errors.As(statErr, &pe) {
		t.Fatalf("stat of a missing file: %v", statErr)
	}
	if _, errOut, code := runTheme(t, "import", missing); code != ExitError || !strings.Contains(errOut, pe.Err.Error()) || !strings.Contains(errOut, "missing.json") {
		t.Errorf("missing file: exit %d %q", code, errOut)
	}
}

// TestImportOverrides: a VS Code theme's keys no role carries are kept in
// theme.json (and listed in "kept"); --no-overrides leaves them out and
// names each in "warnings".
func TestImportOverrides(t *testing.T) {
	themeEnv(t)
	src := filepath.Join("..", "..", "core", "theme", "testdata", "oracle", "vscode", "catppuccin-mocha.json")
	type result struct {
		Path           string
		Warnings, Kept []string
	}
	run := func(args ...string) (result, *theme.Theme) {
		out, errOut, code := runTheme(t, append([]string{"import", "--json", src}, args...)...)
		if code != ExitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var res result
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(res.Path, theme.FileName))
		if err != nil {
			t.Fatal(err)
		}
		th, err := theme.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		return res, th
	}
	res, th := run()
	if th.Targets == nil || th.Targets.VSCode == nil || len(th.Targets.VSCode.Colors) < 150 || len(th.Targets.VSCode.TokenColors) == 0 {
		t.Fatalf("targets.vscode not kept: %+v", th.Targets)
	}
	if !strings.Contains(strings.Join(res.Kept, "\n"), "targets.vscode") {
		t.Errorf("kept = %v", res.Kept)
	}
	res, th = run("--no-overrides")
	if th.Targets != nil {
		t.Errorf("--no-overrides kept %+v", th.Targets)
	}
	warned := strings.Join(res.Warnings, "\n")
	for _, k := range []string{`colors."activityBar.background" is not carried`, "tokenColors[0] ", "semanticTokenColors.enumMember is not carried"} {
		if !strings.Contains(warned, k) {
			t.Errorf("--no-overrides: %q not in warnings", k)
		}
	}
}
