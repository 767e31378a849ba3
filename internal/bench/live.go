//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"cdxtheme/core/live"
	"cdxtheme/core/theme"
)

// Live rows (issue #39): a colour edited in theme.json until a running tmux
// shows it and a running Neovim has loaded it again, through the app's
// path (the theme watcher's settled change → core/live → the program).
const (
	secLive      = "live"
	whatLiveTmux = "live: theme.json edit → running tmux shows it"
	whatLiveNvim = "live: theme.json edit → running Neovim reloaded it"
	liveLimit    = 300 // ms, issue #39
)

func measureLive(cfg config, progress func(string)) []Row {
	progress(fmt.Sprintf("live updates into a running tmux and Neovim, %d edits", cfg.n))
	tmuxRuns, nvimRuns, err := liveRuns(cfg.n)
	if err != nil {
		return []Row{failed(whatLiveTmux, "≤ 300 ms", err), failed(whatLiveNvim, "≤ 300 ms", err)}
	}
	note := "from the rename of theme.json (as an agent writes it), through the watcher's 50 ms settle, until tmux's source-file returned (show -gv checked after each run, untimed)"
	tm := against(whatLiveTmux, newMeasure("", tmuxRuns), liveLimit, "≤ 300 ms")
	tm.Note = note
	nv := against(whatLiveNvim, newMeasure("", nvimRuns), liveLimit, "≤ 300 ms")
	nv.Note = "until Neovim answered the :colorscheme request (the highlight is checked after each run, untimed)"
	return []Row{tm, nv}
}

// liveRuns applies the example theme to tmux and Neovim in a temporary
// home, starts both, and times n edits of the background.
func liveRuns(n int) (tmuxRuns, nvimRuns []time.Duration, err error) {
	tmuxBin, err := exec.LookPath("tmux")
	if err != nil {
		return nil, nil, errors.New("tmux is not installed (make deps)")
	}
	nvimBin, err := exec.LookPath("nvim")
	if err != nil {
		return nil, nil, errors.New("nvim is not installed (make deps)")
	}
	root, err := os.MkdirTemp("", "cdxtheme-bench-live-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(root)
	p := theme.Paths{Home: root, ConfigHome: filepath.Join(root, ".config"), GOOS: "linux", Store: filepath.Join(root, "applied")}
	ws := filepath.Join(root, "ws")
	run := filepath.Join(root, "run")
	for _, d := range []string{ws, run} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, nil, err
		}
	}
	write := func(b []byte) error {
		tmp := filepath.Join(ws, ".theme.json.tmp")
		if err := os.WriteFile(tmp, b, 0o644); err != nil {
			return err
		}
		return os.Rename(tmp, filepath.Join(ws, theme.FileName))
	}
	if err := write(theme.ExampleJSON()); err != nil {
		return nil, nil, err
	}
	var tmuxFile string
	for _, target := range []string{"tmux", "neovim"} {
		plan, err := theme.Plan(theme.Example(), target, p)
		if err != nil {
			return nil, nil, err
		}
		plan.Build = "bench"
		if _, err := theme.Apply(plan); err != nil {
			return nil, nil, err
		}
		if target == "tmux" {
			tmuxFile = plan.Files[0].Path
		}
	}
	env := live.Env{UID: os.Getuid(), Proc: "/proc", TmuxDir: run, Timeout: 5 * time.Second}
	tmux := func(args ...string) (string, error) {
		c := exec.Command(tmuxBin, append([]string{"-L", "bench"}, args...)...)
		c.Env = append(os.Environ(), "TMUX_TMPDIR="+run, "TMUX=")
		out, err := c.CombinedOutput()
		return string(out), err
	}
	if out, err := tmux("-f", "/dev/null", "new-session", "-d"); err != nil {
		return nil, nil, fmt.Errorf("tmux: %v: %s", err, out)
	}
	defer tmux("kill-server")
	if out, err := tmux("source-file", tmuxFile); err != nil {
		return nil, nil, fmt.Errorf("tmux: %v: %s", err, out)
	}
	sock := filepath.Join(run, "nvim.sock")
	nv := exec.Command(nvimBin, "--headless", "-u", "NONE", "-i", "NONE", "--listen", sock, "-c", "colorscheme harbour-night")
	nv.Env = append(os.Environ(), "XDG_CONFIG_HOME="+p.ConfigHome, "HOME="+root)
	nv.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := nv.Start(); err != nil {
		return nil, nil, err
	}
	defer func() { syscall.Kill(-nv.Process.Pid, syscall.SIGKILL); nv.Wait() }()
	nvimExpr := func(expr string) string {
		out, _ := exec.Command(nvimBin, "--server", sock, "--remote-expr", expr).CombinedOutput()
		return strings.TrimSpace(string(out))
	}
	if err := until(30*time.Second, func() bool { return nvimExpr(`get(g:, "colors_name", "")`) == "harbour-night" }); err != nil {
		return nil, nil, fmt.Errorf("neovim did not start with the colorscheme: %w", err)
	}

	r := live.NewRunner(p, env)
	defer r.Close()
	reports := make(chan live.Report, 16)
	r.OnReport = func(rep live.Report) { reports <- rep }
	ctx, cancel := context.WithCancel(context.Background())
	watching := make(chan struct{})
	go func() {
		defer close(watching)
		theme.Watch(ctx, ws, func(st theme.State) {
			if st.Error == "" && st.Theme != nil {
				r.Changed("bench", st.Theme, []string{"tmux", "neovim"})
			}
		})
	}()
	defer func() { cancel(); <-watching }()

	for i := range n + 1 { // the first is a warm-up, not counted
		ink := fmt.Sprintf("#0b2a%02x", 0x10+i)
		start := time.Now()
		if err := write(bytes.Replace(theme.ExampleJSON(), []byte(`"ink": "#161a24"`), []byte(`"ink": "`+ink+`"`), 1)); err != nil {
			return nil, nil, err
		}
		// Each program's report comes when its command returned: tmux's
		// source-file and Neovim's :colorscheme are done by then.
		at := map[string]time.Duration{}
		timeout := time.After(10 * time.Second)
		for len(at) < 2 {
			select {
			case rep := <-reports:
				if rep.Error != "" {
					return nil, nil, fmt.Errorf("edit %d: %s: %s", i, rep.Target, rep.Error)
				}
				if rep.Reached > 0 {
					at[rep.Target] = rep.At.Sub(start)
				}
			case <-timeout:
				return nil, nil, fmt.Errorf("edit %d: reports within 10s: %v", i, at)
			}
		}
		if s, _ := tmux("show", "-gv", "status-left-style"); !strings.Contains(s, ink) {
			return nil, nil, fmt.Errorf("edit %d: tmux's status-left-style is %q, want %s", i, s, ink)
		}
		if bg := nvimExpr(`synIDattr(synIDtrans(hlID("Normal")), "bg#", "gui")`); bg != ink {
			return nil, nil, fmt.Errorf("edit %d: Neovim's Normal background is %q, want %s", i, bg, ink)
		}
		tmuxAt, nvimAt := at["tmux"], at["neovim"]
		if i > 0 {
			tmuxRuns, nvimRuns = append(tmuxRuns, tmuxAt), append(nvimRuns, nvimAt)
		}
	}
	return tmuxRuns, nvimRuns, nil
}

// until polls cond every 2 ms until it holds, or fails after limit.
func until(limit time.Duration, cond func() bool) error {
	end := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(end) {
			return fmt.Errorf("not within %s", limit)
		}
		time.Sleep(2 * time.Millisecond)
	}
	return nil
}
