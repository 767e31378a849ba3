package apply

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cdxtheme/core/install"
	"cdxtheme/core/theme"
)

// The programs Debian ships read the settings Apply changed in the user's
// own config files, next to what the user had there.

// applySettings writes the user's config files (relative to a fresh
// home), then applies target letting Apply change every setting it can.
func applySettings(t *testing.T, target string, files map[string]string) (string, InstallPlan) {
	t.Helper()
	dir, err := os.MkdirTemp("", "cdxset") // short: tmux's socket path has a length limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for rel, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(strings.ReplaceAll(content, "{HOME}", dir)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := install.Paths{Home: dir, ConfigHome: filepath.Join(dir, "config"), GOOS: "linux", Store: filepath.Join(dir, "store")}
	plan, err := Plan(theme.Example(), target, p)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range plan.Steps {
		if st.Kind == "line" && st.Edit {
			plan.Change = append(plan.Change, i)
		}
	}
	if len(plan.Change) == 0 {
		t.Fatalf("no setting to change: %+v", plan.Steps)
	}
	if _, err := Apply(plan); err != nil {
		t.Fatal(err)
	}
	return dir, plan
}

func TestSettingNeovimInitLuaChanged(t *testing.T) {
	nvim := program(t, "nvim", "neovim")
	dir, _ := applySettings(t, "neovim", map[string]string{
		"config/nvim/init.lua": "vim.opt.number = true\nvim.cmd(\"colorscheme desert\")\nvim.opt.shiftwidth = 3\n",
	})
	out, stderr, err := run(t, dir, nil, nvim, "--headless", "-i", "NONE", "-n",
		"-c", `lua io.stdout:write(tostring(vim.g.colors_name) .. " " .. vim.o.shiftwidth .. " " .. vim.v.errmsg)`, "-c", "qa!")
	if err != nil || strings.TrimSpace(out) != "harbour-night 3" {
		t.Fatalf("nvim after Apply changed init.lua: %v, colors_name, shiftwidth and errors %q\n%s", err, out, stderr)
	}
}

func TestSettingBatAndDeltaChanged(t *testing.T) {
	bat := program(t, "batcat", "bat")
	git := program(t, "git", "git")
	dir, plan := applySettings(t, "bat", map[string]string{
		"config/bat/config": "--style=plain\n--theme=\"ansi\"\n",
		".gitconfig":        "[user]\n\tname = Dev\n[delta]\n\tsyntax-theme = Nord\n\tline-numbers = true\n",
	})
	env := []string{"COLORTERM=truecolor", "TERM=xterm-256color"}
	build := strings.Fields(step(t, plan, "command", "cache").Text)
	if _, stderr, err := run(t, dir, env, bat, build[1:]...); err != nil {
		t.Fatalf("bat %v: %v\n%s", build[1:], err, stderr)
	}
	os.WriteFile(filepath.Join(dir, "sample.go"), []byte(batSample), 0o644)
	out, stderr, err := run(t, dir, env, bat, "--color=always", "--paging=never", "sample.go")
	kw := theme.Example().Seen(theme.Example().Syntax.Keyword)
	if sgr := fmt.Sprintf("38;2;%d;%d;%dm", kw.R, kw.G, kw.B); err != nil || !strings.Contains(out, sgr+"func") {
		t.Fatalf("bat with its changed config did not paint func in %s: %v\n%q\n%s", kw.Hex(), err, out, stderr)
	}
	for key, want := range map[string]string{"delta.syntax-theme": "harbour-night", "delta.line-numbers": "true", "user.name": "Dev"} {
		got, stderr, err := run(t, dir, nil, git, "config", "--global", "--get", key)
		if err != nil || strings.TrimSpace(got) != want {
			t.Errorf("git config %s = %q (%v), want %q\n%s", key, got, err, want, stderr)
		}
	}
}

func TestSettingTmuxConfChanged(t *testing.T) {
	tmux := program(t, "tmux", "tmux")
	dir, plan := applySettings(t, "tmux", map[string]string{
		"config/tmux/themes/old.conf": "set -g pane-active-border-style fg=red\n",
		"config/tmux/tmux.conf":       "set -g mouse on\nsource-file {HOME}/config/tmux/themes/old.conf\n",
	})
	conf := step(t, plan, "line", "source-file").File
	sock := filepath.Join(dir, "s")
	tm := func(args ...string) string {
		out, stderr, err := run(t, dir, []string{"TERM=xterm-256color"}, tmux, append([]string{"-S", sock, "-f", conf}, args...)...)
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, stderr)
		}
		return strings.TrimSpace(out)
	}
	tm("new-session", "-d", "-s", "cdx", "-x", "80", "-y", "24")
	t.Cleanup(func() { run(t, dir, nil, tmux, "-S", sock, "kill-server") })
	want := "fg=" + theme.Example().Seen(theme.Example().UI.Accent).Hex()
	if got := tm("show-options", "-gv", "pane-active-border-style"); got != want {
		t.Errorf("pane-active-border-style = %q, want the theme's %q", got, want)
	}
	if got := tm("show-options", "-gv", "mouse"); got != "on" {
		t.Errorf("the user's own setting is gone: mouse = %q", got)
	}
}

func TestSettingFootIniAdded(t *testing.T) {
	foot := program(t, "foot", "foot")
	dir, plan := applySettings(t, "foot", map[string]string{"config/foot/foot.ini": "[colors]\nalpha=0.9\n"})
	if _, stderr, err := run(t, dir, nil, foot, "--check-config"); err != nil || strings.Contains(stderr, "err:") {
		t.Fatalf("foot --check-config after Apply added the include: %v\n%s", err, stderr)
	}
	// Control: foot reads the theme through that include.
	b, _ := os.ReadFile(plan.Files[0].Path)
	os.WriteFile(plan.Files[0].Path, []byte(strings.Replace(string(b), "background=", "background=zz", 1)), 0o644)
	if _, _, err := run(t, dir, nil, foot, "--check-config"); err == nil {
		t.Error("foot did not read the theme through the include Apply added")
	}
}
