package apply

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"cdxtheme/core/install"
	"cdxtheme/core/theme"
)

// Each program Debian ships loads what Apply installed into a temporary
// home, through the activation step the plan shows; a control shows each
// program really rejects a broken file there.

// applyHome applies the example theme into a fresh home laid out as run()
// gives the programs (HOME=dir, XDG_CONFIG_HOME=dir/config).
func applyHome(t *testing.T, target string) (string, InstallPlan) {
	t.Helper()
	dir, err := os.MkdirTemp("", "cdxapply") // short: tmux's socket path has a length limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	p := install.Paths{Home: dir, ConfigHome: filepath.Join(dir, "config"), GOOS: "linux", Store: filepath.Join(dir, "store")}
	plan, err := Plan(theme.Example(), target, p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Apply(plan); err != nil {
		t.Fatal(err)
	}
	return dir, plan
}

func step(t *testing.T, plan InstallPlan, kind, contains string) install.Step {
	t.Helper()
	for _, s := range plan.Steps {
		if s.Kind == kind && strings.Contains(s.Text, contains) {
			return s
		}
	}
	t.Fatalf("plan has no %s step with %q: %+v", kind, contains, plan.Steps)
	return install.Step{}
}

func TestAppliedNeovimLoads(t *testing.T) {
	nvim := program(t, "nvim", "neovim")
	dir, plan := applyHome(t, "neovim")
	cmd := step(t, plan, "command", ":colorscheme")
	load := func() (string, string, error) {
		// -u NONE: no init file, but the user's config folder stays on
		// the runtime path, as in a real start.
		return run(t, dir, nil, nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n",
			"-c", strings.TrimPrefix(cmd.Text, ":"),
			"-c", `lua io.stdout:write(vim.g.colors_name .. " " .. string.format("#%06x", vim.api.nvim_get_hl_by_name("Normal", true).background))`, "-c", "qa!")
	}
	out, stderr, err := load()
	want := "harbour-night " + theme.Example().Seen(theme.Example().UI.Background).Hex()
	if err != nil || !strings.Contains(out, want) {
		t.Fatalf("nvim: %v, out %q (want %q)\n%s", err, out, want, stderr)
	}
	os.WriteFile(plan.Files[0].Path, []byte("vim.api.nvim_set_hl(0, 'Normal', {bg = "), 0o644)
	if out, stderr, _ := load(); strings.Contains(out, want) || !strings.Contains(out+stderr, "E5") {
		t.Errorf("a broken colorscheme loaded: %q %q", out, stderr)
	}
}

// The line the plan asks for in init.lua switches Neovim to the theme at
// start, on Neovim 0.7 (Debian 12's) too, where vim.cmd.colorscheme does
// not exist yet.
func TestAppliedNeovimInitLineLoads(t *testing.T) {
	nvim := program(t, "nvim", "neovim")
	dir, plan := applyHome(t, "neovim")
	st := step(t, plan, "line", "colorscheme")
	os.MkdirAll(filepath.Dir(st.File), 0o755)
	if err := os.WriteFile(st.File, []byte(st.Text+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := run(t, dir, nil, nvim, "--headless", "-i", "NONE", "-n",
		"-c", `lua io.stdout:write(tostring(vim.g.colors_name) .. " " .. vim.v.errmsg)`, "-c", "qa!")
	if err != nil || strings.TrimSpace(out) != "harbour-night" {
		t.Fatalf("nvim with the init.lua line %q: %v, colors_name and errors %q\n%s", st.Text, err, out, stderr)
	}
}

func TestAppliedTmuxSources(t *testing.T) {
	tmux := program(t, "tmux", "tmux")
	dir, plan := applyHome(t, "tmux")
	sock := filepath.Join(dir, "s")
	tm := func(args ...string) (string, error) {
		out, stderr, err := run(t, dir, []string{"TERM=xterm-256color"}, tmux, append([]string{"-S", sock, "-f", "/dev/null"}, args...)...)
		if err != nil {
			return "", fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, stderr)
		}
		return strings.TrimSpace(out), nil
	}
	if _, err := tm("new-session", "-d", "-s", "cdx", "-x", "80", "-y", "24"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tm("kill-server") })
	// The step's command, word for word (the path needs no quoting here).
	args := strings.Fields(step(t, plan, "command", "source-file").Text)
	if args[0] != "tmux" || len(args) != 3 {
		t.Fatalf("step %v", args)
	}
	if _, err := tm(args[1:]...); err != nil {
		t.Fatal(err)
	}
	u := theme.Example().UI
	got, err := tm("show-options", "-gv", "pane-active-border-style")
	if want := "fg=" + theme.Example().Seen(u.Accent).Hex(); err != nil || got != want {
		t.Errorf("pane-active-border-style = %q (%v), want %q", got, err, want)
	}
	os.WriteFile(plan.Files[0].Path, []byte("set -g status-style \"fg=#12345g\"\n"), 0o644)
	if _, err := tm(args[1:]...); err == nil {
		t.Error("tmux sourced a broken file")
	}
}

func TestAppliedFootIncludes(t *testing.T) {
	foot := program(t, "foot", "foot")
	dir, plan := applyHome(t, "foot")
	st := step(t, plan, "line", "include=")
	os.MkdirAll(filepath.Dir(st.File), 0o755)
	os.WriteFile(st.File, []byte("[main]\n"+st.Text+"\n"), 0o644)
	check := func() (string, error) {
		_, stderr, err := run(t, dir, nil, foot, "--check-config")
		return stderr, err
	}
	if stderr, err := check(); err != nil || strings.Contains(stderr, "err:") {
		t.Fatalf("foot --check-config with the include: %v\n%s", err, stderr)
	}
	b, _ := os.ReadFile(plan.Files[0].Path)
	os.WriteFile(plan.Files[0].Path, []byte(strings.Replace(string(b), "background=", "background=zz", 1)), 0o644)
	if _, err := check(); err == nil {
		t.Error("foot accepted the include of a broken file")
	}
}

func TestAppliedBatUsesTheme(t *testing.T) {
	bat := program(t, "batcat", "bat")
	dir, plan := applyHome(t, "bat")
	os.WriteFile(filepath.Join(dir, "sample.go"), []byte(batSample), 0o644)
	env := []string{"COLORTERM=truecolor", "TERM=xterm-256color"}
	build := strings.Fields(step(t, plan, "command", "cache").Text)
	// The step names the program as it is installed (batcat on Debian).
	if build[0] != filepath.Base(bat) {
		t.Errorf("the step runs %q; the program here is %s", build[0], bat)
	}
	if _, stderr, err := run(t, dir, env, bat, build[1:]...); err != nil {
		t.Fatalf("bat %v: %v\n%s", build[1:], err, stderr)
	}
	// The line for bat's config file, as the plan shows it.
	st := step(t, plan, "line", "--theme=")
	os.WriteFile(st.File, []byte(st.Text+"\n"), 0o644)
	out, stderr, err := run(t, dir, env, bat, "--color=always", "--style=plain", "--paging=never", "sample.go")
	kw := theme.Example().Seen(theme.Example().Syntax.Keyword)
	sgr := fmt.Sprintf("38;2;%d;%d;%dm", kw.R, kw.G, kw.B)
	if err != nil || !strings.Contains(out, sgr+"func") {
		t.Fatalf("bat did not paint func in the keyword colour %s: %v\n%q\n%s", kw.Hex(), err, out, stderr)
	}
	// Control: a broken theme file is refused when the cache is built.
	os.WriteFile(plan.Files[0].Path, []byte("<plist><dict>"), 0o644)
	if _, _, err := run(t, dir, env, bat, build[1:]...); err == nil {
		t.Error("bat built its cache from a broken theme")
	}
}

// The line the WezTerm plan asks the user to add is Lua that LuaJIT (Lua
// 5.1, Neovim's) and, when installed, Lua 5.4 (WezTerm's) both load, and
// it names exactly the scheme the installed file declares, for names
// built to break a quoting: Go's %q wrote \u202e, a syntax error in Lua.
func TestWezTermLineIsLuaForHostileNames(t *testing.T) {
	nvim := program(t, "nvim", "neovim")
	lua54, _ := exec.LookPath("lua5.4")
	names := []string{
		`Quote "me" \ and \\ twice`,
		"line\nbreak\rand\ttab",
		"evil \u202e txet.lua \u202c and \u200b zero-width",
		"]] end os.exit(1) --[[",
		"digits after \u202e1234 and a \x7f DEL",
		"Grüße 東京 🌙",
	}
	for _, name := range names {
		th := theme.Example()
		th.Name = name
		p := tempPaths(t, "linux")
		plan, err := Plan(th, "wezterm", p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Apply(plan); err != nil {
			t.Fatal(err)
		}
		line := step(t, plan, "line", "config.color_scheme").Text
		if strings.ContainsAny(line, "\n\r\u202e\u200b") {
			t.Errorf("the line to add shows raw control or bidi characters: %q", line)
		}
		var meta struct {
			Metadata struct{ Name string } `toml:"metadata"`
		}
		b, _ := os.ReadFile(plan.Files[0].Path)
		if err := toml.Unmarshal(b, &meta); err != nil || meta.Metadata.Name == "" {
			t.Fatalf("the installed scheme has no name: %v\n%s", err, b)
		}
		script := filepath.Join(p.Home, "line.lua")
		os.WriteFile(script, []byte("local config = {}\n"+line+"\nio.stdout:write(config.color_scheme)\n"), 0o644)
		out, stderr, err := run(t, p.Home, nil, nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile "+script, "-c", "qa!")
		if err != nil || out != meta.Metadata.Name {
			t.Errorf("LuaJIT read %q as %q (%v %s), want the scheme's name %q", line, out, err, stderr, meta.Metadata.Name)
		}
		if lua54 != "" {
			out, stderr, err := run(t, p.Home, nil, lua54, script)
			if err != nil || out != meta.Metadata.Name {
				t.Errorf("Lua 5.4 read %q as %q (%v %s), want %q", line, out, err, stderr, meta.Metadata.Name)
			}
		}
	}
}
