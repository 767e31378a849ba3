package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"cdxtheme/core/companion"
	"cdxtheme/core/contrast"
	"cdxtheme/core/handedit"
	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
	"cdxtheme/core/workspace"
)

// runTheme runs a subcommand through Run with private settings and data
// dirs, as a user's shell would.
func runTheme(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), code
}

// themeEnv isolates the settings and data dirs and returns the data dir.
func themeEnv(t *testing.T) string {
	t.Helper()
	t.Setenv("CDXTHEME_CONFIG_DIR", t.TempDir())
	data := t.TempDir()
	t.Setenv("CDXTHEME_DATA_DIR", data)
	return data
}

// themeDir makes a folder with theme.json holding doc.
func themeDir(t *testing.T, doc []byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, theme.FileName), doc, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestExportOneFormat(t *testing.T) {
	themeEnv(t)
	dir := themeDir(t, theme.ExampleJSON())
	out, errOut, code := runTheme(t, "export", "--format", "kitty", dir)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := filepath.Join(dir, "export", "kitty", "harbour-night.conf")
	if strings.TrimSpace(out) != want {
		t.Errorf("stdout %q, want the written path %s", out, want)
	}
	b, err := os.ReadFile(want)
	if err != nil || !bytes.Contains(b, []byte("background               #161a24")) {
		t.Errorf("written file: %v\n%s", err, b)
	}
}

func TestExportAllByWorkspaceID(t *testing.T) {
	themeEnv(t)
	m, err := workspace.Create(workspace.Root(), "harbour", "")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(m.Dir, theme.FileName), theme.ExampleJSON(), 0o644)
	outDir := t.TempDir()
	// Flags after the workspace work too.
	out, errOut, code := runTheme(t, "export", m.ID, "--format", "all", "--out", outDir)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := 0
	for _, f := range targets.Formats {
		want += len(f.Files)
	}
	if len(lines) != want { // every file each format names
		t.Errorf("printed %d paths:\n%s", len(lines), out)
	}
	for _, l := range lines {
		if _, err := os.Stat(l); err != nil {
			t.Errorf("printed path not written: %v", err)
		}
	}
	for _, f := range targets.FormatIDs() {
		if _, err := os.Stat(filepath.Join(outDir, f)); err != nil {
			t.Errorf("no folder for %s: %v", f, err)
		}
	}
}

func TestExportErrors(t *testing.T) {
	themeEnv(t)
	broken := themeDir(t, []byte(`{"name": "x", "appearance": "dim", "ui": {}, "syntax": {}, "ansi": []}`))
	good := themeDir(t, theme.ExampleJSON())
	empty := t.TempDir()
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"invalid theme lists every problem", []string{"export", "--format", "zed", broken}, ExitError, []string{
			"not a valid theme (21 problems)", `appearance: "dim" is not one of "dark", "light"`,
			"ui.background: required", "syntax.operator: required", "ansi: want 16 colours, got 0"}},
		{"no theme yet", []string{"export", "--format", "zed", empty}, ExitError, []string{"does not exist yet"}},
		{"not a workspace", []string{"export", "--format", "zed", "no-such-thing"}, ExitError, []string{"neither a folder nor a workspace id"}},
		{"unknown workspace id", []string{"export", "--format", "zed", "20260101-000000-abcdef"}, ExitError, []string{"no such workspace"}},
		{"unknown format", []string{"export", "--format", "notepad", good}, ExitUsage, []string{`unknown format "notepad"`, "windows-terminal"}},
		{"no format", []string{"export", good}, ExitUsage, []string{"--format is required"}},
		{"no workspace", []string{"export", "--format", "css"}, ExitUsage, []string{"want one WORKSPACE"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runTheme(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, errOut)
			}
			for _, w := range tt.stderr {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
			if out != "" {
				t.Errorf("stdout on failure: %q", out)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(broken, "export")); err == nil {
		t.Error("an invalid theme was exported")
	}
}

func TestCheck(t *testing.T) {
	themeEnv(t)
	pairs := len(contrast.Checks(theme.Example()))
	out, errOut, code := runTheme(t, "check", themeDir(t, theme.ExampleJSON()))
	if code != ExitOK || !strings.Contains(out, fmt.Sprintf("All %d pairs pass AA", pairs)) || strings.Contains(out, "FAIL") {
		t.Errorf("passing theme: exit %d\n%s%s", code, out, errOut)
	}

	var m map[string]any
	json.Unmarshal(theme.ExampleJSON(), &m)
	m["ui"].(map[string]any)["mutedText"] = "#4a4f5c"
	doc, _ := json.Marshal(m)
	dir := themeDir(t, doc)
	out, _, code = runTheme(t, "check", dir)
	if code != ExitError {
		t.Errorf("failing theme exit %d, want 1", code)
	}
	var fails []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "FAIL") {
			fails = append(fails, l)
		}
	}
	// mutedText on background and surface, and the inlay hints derived from it.
	if len(fails) != 3 || !strings.Contains(fails[0], "ui.mutedText") || !strings.Contains(fails[0], "#4a4f5c") || !strings.Contains(fails[2], "editor.inlayHint") {
		t.Errorf("FAIL lines = %q", fails)
	}
	if !strings.Contains(out, fmt.Sprintf("3 of %d pairs fail AA", pairs)) || !strings.Contains(out, "Please edit theme.json") {
		t.Errorf("summary/fix prompt missing:\n%s", out)
	}

	out, _, code = runTheme(t, "check", "--json", dir)
	var res struct {
		Theme    string
		Failures int
		Checks   []contrast.Check
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("--json output: %v\n%s", err, out)
	}
	if code != ExitError || res.Theme != "Harbour Night" || res.Failures != 3 || len(res.Checks) != pairs {
		t.Errorf("--json: exit %d, %+v", code, res)
	}

	// A failing role that follows a palette entry is named with it, so the
	// fix goes to the entry.
	m["version"] = 3
	m["palette"].(map[string]any)["dim"] = "#4a4f5c"
	m["ui"].(map[string]any)["mutedText"] = "dim"
	doc, _ = json.Marshal(m)
	dir = themeDir(t, doc)
	out, _, _ = runTheme(t, "check", dir)
	if !regexp.MustCompile(`(?m)^FAIL +ui\.mutedText \[dim\] +#4a4f5c +ui\.background \[ink\] `).MatchString(out) || !strings.Contains(out, "- ui.mutedText [dim] #4a4f5c on ui.background [ink] #161a24") ||
		!strings.Contains(out, "change the entry") {
		t.Errorf("the palette entry a failing role follows is not named:\n%s", out)
	}
	out, _, _ = runTheme(t, "check", "--json", dir)
	res.Checks = nil
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Checks[2].FGRole != "ui.mutedText" || res.Checks[2].FGFollows != "dim" || res.Checks[2].BGFollows != "ink" {
		t.Errorf("--json: %v %+v", err, res.Checks[2])
	}
}

// A theme with its other appearance: check reports the companion's pairs
// too, names its roles under companion. in the fix prompt, and fails on
// them; export writes both.
func TestCheckAndExportOfACompanion(t *testing.T) {
	themeEnv(t)
	th := theme.Example()
	th.Companion = companion.Counterpart(th)
	th.Companion.UI.MutedText = th.Companion.UI.Background // unreadable in the light variant only
	doc, err := json.Marshal(th)
	if err != nil {
		t.Fatal(err)
	}
	dir := themeDir(t, doc)
	out, _, code := runTheme(t, "check", dir)
	if code != ExitError || !strings.Contains(out, "All ") || !strings.Contains(out, "of the light variant fail AA") || !strings.Contains(out, "companion.ui.mutedText") {
		t.Errorf("check of a failing companion: exit %d\n%s", code, out)
	}
	out, _, code = runTheme(t, "check", "--json", dir)
	var rep struct {
		Failures  int
		Companion struct {
			Theme    string
			Failures int
		}
	}
	if json.Unmarshal([]byte(out), &rep) != nil || rep.Failures != 0 || rep.Companion.Theme != th.Companion.Name || rep.Companion.Failures == 0 || code != ExitError {
		t.Errorf("check --json: exit %d %+v\n%s", code, rep, out)
	}
	out, _, code = runTheme(t, "export", "--format", "helix", dir)
	if code != ExitOK || !strings.Contains(out, theme.Slug(th.Companion.Name)+".toml") {
		t.Errorf("export of a family does not list the variant's file: exit %d\n%s", code, out)
	}
}

// A colour the designer locked in the desktop app is the one the CLI
// exports and applies, even when theme.json was rewritten and the app has
// not restored it yet (or is not running); stderr says which was held.
func TestExportHoldsTheDesktopLocks(t *testing.T) {
	themeEnv(t)
	m, err := workspace.Create(workspace.Root(), "harbour", "")
	if err != nil {
		t.Fatal(err)
	}
	const locked, moved = "#123456", "#ff9e64"
	doc := func(keyword string) []byte {
		th := theme.Example()
		c, _ := theme.ParseColor(keyword)
		th.Set("syntax.keyword", c)
		b, _ := json.Marshal(th)
		return b
	}
	th, _ := theme.Parse(doc(locked))
	l, _ := handedit.Load(handedit.RecordPath(m.ID))
	if err := l.Lock(th, "syntax.keyword", true); err != nil {
		t.Fatal(err)
	}
	if err := l.Save(handedit.RecordPath(m.ID)); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(m.Dir, theme.FileName), doc(moved), 0o644)
	for _, arg := range []string{m.ID, m.Dir} {
		out, errOut, code := runTheme(t, "export", "--format", "neovim", "--out", t.TempDir(), arg)
		if code != ExitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		b, _ := os.ReadFile(strings.TrimSpace(out))
		if bytes.Contains(bytes.ToLower(b), []byte(moved)) || !bytes.Contains(bytes.ToLower(b), []byte(locked)) {
			t.Errorf("export of %s carries the unlocked keyword %s", arg, moved)
		}
		if !strings.Contains(errOut, "syntax.keyword is locked at "+locked) {
			t.Errorf("stderr does not say the lock was held: %q", errOut)
		}
	}
	// A folder that is no workspace of the app's has no locks.
	out, _, _ := runTheme(t, "export", "--format", "neovim", "--out", t.TempDir(), themeDir(t, doc(moved)))
	if b, _ := os.ReadFile(strings.TrimSpace(out)); !bytes.Contains(bytes.ToLower(b), []byte(moved)) {
		t.Error("a plain folder's theme was changed by another workspace's locks")
	}
}
