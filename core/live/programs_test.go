//go:build linux

package live

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"cdxtheme/core/apply"
	"cdxtheme/core/install"
	"cdxtheme/core/theme"
	"cdxtheme/core/themewatch"
	"cdxtheme/internal/testrig/programs"
)

// deadline is the watchdog on every wait: far above the 300 ms the live
// path takes (make bench measures that), so only a broken path trips it.
const deadline = 30 * time.Second

// session is a temporary user: a home the theme is applied into, a
// workspace whose theme.json is edited, and running tmux, Neovim and
// kitty started as the user would after the apply's steps.
type session struct {
	t        *testing.T
	paths    install.Paths
	env      Env
	ws       string
	tmux     string // the tmux binary
	tmuxSock string
	nvimSock string
	kitty    string
	kittyTo  string
	started  []*exec.Cmd
}

func newSession(t *testing.T, withKitty bool) *session {
	s := &session{t: t}
	s.tmux = programs.Find(t, "tmux", "tmux")
	programs.Find(t, "nvim", "neovim")
	if withKitty {
		s.kitty = programs.Find(t, "kitty", "kitty")
		programs.Find(t, "xvfb-run", "xvfb")
	}
	home := t.TempDir()
	s.paths = install.Paths{Home: home, ConfigHome: filepath.Join(home, ".config"), GOOS: "linux",
		Store: filepath.Join(t.TempDir(), "applied")}
	run := t.TempDir()
	s.env = Env{UID: os.Getuid(), Proc: "/proc", TmuxDir: run, RuntimeDir: run, TempDir: run, Timeout: 5 * time.Second}
	s.ws = t.TempDir()
	s.write(theme.ExampleJSON())
	targets := []string{"tmux", "neovim"}
	if withKitty {
		targets = append(targets, "kitty")
	}
	for _, target := range targets {
		plan, err := apply.Plan(theme.Example(), target, s.paths)
		if err != nil {
			t.Fatal(err)
		}
		plan.Build = "b1"
		if _, err := apply.Apply(plan); err != nil {
			t.Fatal(err)
		}
	}
	s.startTmux()
	s.startNvim()
	if withKitty {
		s.startKitty()
	}
	t.Cleanup(func() {
		for _, c := range s.started {
			syscall.Kill(-c.Process.Pid, syscall.SIGKILL) // its own group: xvfb-run's Xvfb too
			c.Wait()
		}
	})
	return s
}

// write puts theme.json in place by renaming, as agents and editors do.
func (s *session) write(b []byte) {
	s.t.Helper()
	tmp := filepath.Join(s.ws, ".theme.json.tmp")
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		s.t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(s.ws, theme.FileName)); err != nil {
		s.t.Fatal(err)
	}
}

// cmd runs a client command (tmux's on the session's socket folder).
func (s *session) cmd(name string, args ...string) *exec.Cmd {
	c := exec.Command(name, args...)
	c.Env = append(os.Environ(), "TMUX_TMPDIR="+s.env.TmuxDir, "TMUX=")
	return c
}

// program runs a program as the session's user: its config is the
// temporary home's.
func (s *session) program(name string, args ...string) *exec.Cmd {
	c := s.cmd(name, args...)
	c.Env = append(c.Env, "XDG_CONFIG_HOME="+s.paths.ConfigHome, "HOME="+s.paths.Home)
	return c
}

func (s *session) out(name string, args ...string) string {
	s.t.Helper()
	c := s.cmd(name, args...)
	var stderr bytes.Buffer
	c.Stderr = &stderr
	b, err := c.Output()
	if err != nil {
		s.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(string(b))
}

// startTmux runs a tmux server on the user's default socket folder and
// sources the applied file into it, as the apply's step says.
func (s *session) startTmux() {
	s.out(s.tmux, "-L", "live", "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24")
	s.tmuxSock = filepath.Join(s.env.TmuxDir, "tmux-"+strconv.Itoa(os.Getuid()), "live")
	s.t.Cleanup(func() { s.cmd(s.tmux, "-L", "live", "kill-server").Run() })
	s.out(s.tmux, "-L", "live", "source-file", s.applied("tmux"))
}

// applied is the theme's own file the apply wrote for target.
func (s *session) applied(target string) string {
	plan, err := apply.Plan(theme.Example(), target, s.paths)
	if err != nil {
		s.t.Fatal(err)
	}
	return plan.Files[0].Path
}

func (s *session) background(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := c.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.started = append(s.started, c)
}

// waitFor polls cond until it holds or the watchdog fires.
func (s *session) waitFor(what string, cond func() bool) {
	s.t.Helper()
	end := time.Now().Add(deadline)
	for !cond() {
		if time.Now().After(end) {
			s.t.Fatalf("no %s within %s", what, deadline)
		}
		time.Sleep(20 * time.Millisecond) // a poll interval, not a guess at how long it takes
	}
}

// startNvim runs a headless Neovim with a server socket given by
// --listen, the user's config folder (so colors/ holds the applied
// file) and the applied colorscheme.
func (s *session) startNvim() {
	s.nvimSock = filepath.Join(s.t.TempDir(), "nvim.sock")
	s.background(s.program("nvim", "--headless", "-u", "NONE", "-i", "NONE", "--listen", s.nvimSock, "-c", "colorscheme harbour-night"))
	s.waitFor("Neovim server", func() bool { return ownSocket(s.env, s.nvimSock) })
	// The socket opens before -c runs: wait for the colorscheme too.
	s.waitFor("Neovim's colorscheme", func() bool {
		return s.nvimExpr(`get(g:, "colors_name", "")`) == "harbour-night"
	})
}

// nvimExpr evaluates expr in the session's Neovim with Neovim's own
// client (0.7 prints the answer on stderr when stdout is no terminal).
func (s *session) nvimExpr(expr string) string {
	s.t.Helper()
	b, err := s.cmd("nvim", "--server", s.nvimSock, "--remote-expr", expr).CombinedOutput()
	if err != nil {
		s.t.Fatalf("nvim --remote-expr %s: %v\n%s", expr, err, b)
	}
	return strings.TrimSpace(string(b))
}

func (s *session) nvimColour(group, attr string) string {
	return s.nvimExpr(`synIDattr(synIDtrans(hlID("` + group + `")), "` + attr + `#", "gui")`)
}

// startKitty runs kitty on a virtual display with software GL, its
// kitty.conf including the applied theme (the apply's step) and remote
// control on, for the test to read its colours.
func (s *session) startKitty() {
	dir := filepath.Join(s.paths.ConfigHome, "kitty")
	if err := os.WriteFile(filepath.Join(dir, "kitty.conf"), []byte("include themes/harbour-night.conf\nallow_remote_control yes\n"), 0o644); err != nil {
		s.t.Fatal(err)
	}
	sock := filepath.Join(s.t.TempDir(), "kitty.sock")
	s.kittyTo = "unix:" + sock
	c := s.program("xvfb-run", "-a", s.kitty, "--listen-on", s.kittyTo, "-o", "linux_display_server=x11", "sh", "-c", "exec sleep 600")
	c.Env = append(c.Env, "LIBGL_ALWAYS_SOFTWARE=1")
	s.background(c)
	s.waitFor("kitty remote control socket", func() bool { return ownSocket(s.env, sock) })
}

func (s *session) kittyColour(name string) string {
	for _, line := range strings.Split(s.out(s.kitty, "@", "--to", s.kittyTo, "get-colors"), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == name {
			return f[1]
		}
	}
	return ""
}

// follow runs the watcher the app runs for an open build, handing each
// settled theme to the runner for targets, and returns the reports.
func (s *session) follow(r *Runner, build string, targets []string) <-chan Report {
	reports := make(chan Report, 64)
	r.OnReport = func(rep Report) { reports <- rep }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		themewatch.Watch(ctx, s.ws, func(st themewatch.State) {
			if st.Error == "" && st.Theme != nil {
				r.Changed(build, st.Theme, targets)
			}
		})
	}()
	s.t.Cleanup(func() { cancel(); <-done; r.Close() })
	return reports
}

// await collects one report per target (others' are let by), failing on
// a report's error.
func (s *session) await(reports <-chan Report, targets ...string) map[string]Report {
	s.t.Helper()
	got := map[string]Report{}
	timer := time.NewTimer(deadline)
	defer timer.Stop()
	for len(got) < len(targets) {
		select {
		case rep := <-reports:
			if !slices.Contains(targets, rep.Target) {
				continue
			}
			if rep.Error != "" {
				s.t.Fatalf("%s: %s", rep.Target, rep.Error)
			}
			if len(rep.Written) > 0 {
				got[rep.Target] = rep
			}
		case <-timer.C:
			s.t.Fatalf("reports within %s: %v, want %v", deadline, got, targets)
		}
	}
	return got
}

func edited(ink string) []byte {
	return bytes.Replace(theme.ExampleJSON(), []byte(`"ink": "#161a24"`), []byte(`"ink": "`+ink+`"`), 1)
}

// A colour edited in the workspace reaches the running tmux, Neovim and
// kitty, without a restart; another build's change and a change after
// Undo reach none.
func TestAChangeReachesTheRunningPrograms(t *testing.T) {
	s := newSession(t, true)
	if got := s.out(s.tmux, "-L", "live", "show", "-gv", "status-left-style"); !strings.Contains(got, "#161a24") {
		t.Fatalf("tmux before: %q", got)
	}
	if got := s.nvimColour("Normal", "bg"); got != "#161a24" {
		t.Fatalf("nvim Normal bg before: %q", got)
	}
	if got := s.kittyColour("background"); got != "#161a24" {
		t.Fatalf("kitty background before: %q", got)
	}

	r := NewRunner(s.paths, s.env)
	targets := []string{"tmux", "neovim", "kitty"}
	reports := s.follow(r, "b1", targets)
	s.write(edited("#0b2a3c"))
	got := s.await(reports, targets...)
	for _, target := range targets {
		t.Logf("%s: change → told in %v", target, got[target].Took) // speed is make bench's; this is for the log
		if got[target].Reached < 1 {
			t.Errorf("%s: reached %d running instances, want ours", target, got[target].Reached)
		}
	}
	// tmux and Neovim have run the command when it returns.
	if style := s.out(s.tmux, "-L", "live", "show", "-gv", "status-left-style"); !strings.Contains(style, "#0b2a3c") {
		t.Errorf("tmux status-left-style after the edit: %q, want the new ink #0b2a3c", style)
	}
	if bg := s.nvimColour("Normal", "bg"); bg != "#0b2a3c" {
		t.Errorf("nvim Normal bg after the edit: %q, want #0b2a3c", bg)
	}
	// The reload runs with LuaJIT's compiler off: the user's is on again.
	if on := s.nvimExpr(`luaeval('(rawget(_G, "jit") == nil or jit.status()) and 1 or 0')`); on != "1" {
		t.Errorf("nvim's LuaJIT compiler after the live reload: status %s, want on again", on)
	}
	// kitty reloads on its signal, on its own time.
	s.waitFor("kitty background #0b2a3c", func() bool { return s.kittyColour("background") == "#0b2a3c" })
	t.Logf("kitty: change → get-colors shows it in %v", time.Since(got["kitty"].At.Add(-got["kitty"].Took)))

	// Another build's change: its apply is not the latest, nothing moves.
	other := NewRunner(s.paths, s.env)
	done := make(chan Report, 8)
	other.OnReport = func(rep Report) { done <- rep }
	th, err := theme.Parse(edited("#400000"))
	if err != nil {
		t.Fatal(err)
	}
	other.Changed("b2", th, []string{"tmux"})
	if rep := <-done; !strings.Contains(rep.Error, apply.ErrNotApplied.Error()) || len(rep.Written) != 0 {
		t.Fatalf("another build's change into tmux: %+v, want refused", rep)
	}
	other.Close()

	// Undo the tmux apply: the next change reaches Neovim and kitty only.
	if _, err := apply.UndoApply(s.paths, "tmux"); err != nil {
		t.Fatal(err)
	}
	s.write(edited("#2a0b3c"))
	got = s.await(reports, "neovim", "kitty")
	if style := s.out(s.tmux, "-L", "live", "show", "-gv", "status-left-style"); !strings.Contains(style, "#0b2a3c") {
		t.Errorf("tmux after Undo apply followed a change: %q", style)
	}
	if _, err := os.Stat(s.applied("tmux")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("tmux's file after undo: %v, want removed", err)
	}
	if bg := s.nvimColour("Normal", "bg"); bg != "#2a0b3c" {
		t.Errorf("nvim Normal bg after the second edit: %q", bg)
	}
}

// A Neovim showing another colorscheme is left alone.
func TestNeovimOnAnotherColorschemeIsLeftAlone(t *testing.T) {
	s := newSession(t, false)
	s.nvimExpr(`execute("colorscheme default")`)
	before := s.nvimColour("Normal", "bg")
	r := NewRunner(s.paths, s.env)
	reports := s.follow(r, "b1", []string{"neovim"})
	s.write(edited("#0b2a3c"))
	s.await(reports, "neovim")
	if got := s.nvimColour("Normal", "bg"); got != before {
		t.Errorf("Normal bg %q, want %q: a Neovim on another colorscheme was switched", got, before)
	}
}
