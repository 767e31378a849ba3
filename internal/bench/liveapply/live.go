//go:build unix

// Package liveapply measures the live path of issue #39: a colour edited
// in theme.json until a running tmux, Neovim and kitty show it, through the
// app's own path (the theme watcher → core/live → the program).
package liveapply

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"cdxtheme/core/apply"
	"cdxtheme/core/install"
	"cdxtheme/core/live"
	_ "cdxtheme/core/targets" // tmux is a template of core/targets
	"cdxtheme/core/theme"
	"cdxtheme/core/themewatch"
	"cdxtheme/internal/bench/table"
)

// Live rows (issue #39): a colour edited in theme.json until a running tmux
// shows it and a running Neovim has loaded it again, through the app's
// path (the theme watcher's read of the change → core/live → the program).
const (
	whatLiveTmux  = "live: theme.json edit → running tmux shows it"
	whatLiveNvim  = "live: theme.json edit → running Neovim reloaded it"
	whatLiveKitty = "live: theme.json edit → running kitty shows it"
	whatLiveWatch = "live: theme.json edit → the watcher hands the theme on"
	whatLiveKOwn  = "live: kitty's own reload (SIGUSR1 sent → new background)"
	whatLiveNOwn  = "live: Neovim's own reload as core/live runs it (timed inside Neovim)"
	whatLiveNJit  = "live: Neovim's reload, core/live's (JIT off) vs a plain :colorscheme"
	whatLiveNPlan = "live: rendering the Neovim colorscheme (apply.Plan)"
	liveLimit     = 300 // ms, issue #39
)

// Measure times n edits of theme.json into each running program.
func Measure(n int, progress func(string)) []table.Row {
	progress(fmt.Sprintf("live updates into a running tmux and Neovim, %d edits", n))
	lt, err := liveRuns(n)
	if err != nil {
		return []table.Row{table.Failed(whatLiveTmux, "≤ 300 ms", err), table.Failed(whatLiveNvim, "≤ 300 ms", err), table.Failed(whatLiveKitty, "≤ 300 ms", err)}
	}
	tmuxRuns, nvimRuns, kittyRuns, kittyErr := lt.tmux, lt.nvim, lt.kitty, lt.kittyErr
	note := "from the rename of theme.json (as an agent writes it), through the watcher (a whole rename is read at once), until tmux's source-file returned (show -gv checked after each run, untimed)"
	tm := table.Against(whatLiveTmux, table.NewMeasure("", tmuxRuns), liveLimit, "≤ 300 ms")
	tm.Note = note
	nv := table.Against(whatLiveNvim, table.NewMeasure("", nvimRuns), liveLimit, "≤ 300 ms")
	nv.Note = "until Neovim answered the :colorscheme request (the highlight is checked after each run, untimed)"
	var kt table.Row
	if kittyErr != nil {
		kt = table.Failed(whatLiveKitty, "≤ 300 ms", kittyErr)
	} else {
		kt = table.Against(whatLiveKitty, table.NewMeasure("", kittyRuns), liveLimit, "≤ 300 ms")
		kt.Note = "kitty under Xvfb with software GL, its kitty.conf including the theme; its colours read over its remote-control socket every 2 ms (kitty @ itself takes seconds to start here)"
	}
	wa := table.Against(whatLiveWatch, table.NewMeasure("", lt.handover), 0, "part of the rows above")
	wa.Note = "from the rename until core/live's runner got the theme: the watcher's read (a whole renamed file at its first event, no settle)"
	no := table.Against(whatLiveNOwn, table.NewMeasure("", lt.nvimOwn), 0, "part of the Neovim row")
	no.Note = "core/live's command (:colorscheme with LuaJIT's compiler off) run again after each edit, timed by Neovim itself (vim.loop.hrtime): sourcing the colorscheme's highlights, and any wait for a core"
	nj := table.Compare(whatLiveNJit, table.NewMeasure("core/live's", lt.nvimOwn), table.NewMeasure(":colorscheme", lt.nvimPlain), 0.5, "≤ 0.5")
	nj.Note = "both run after each edit in the same Neovim, timed by it; a plain :colorscheme has LuaJIT try to trace the colorscheme's hl function at each of its ~1,100 nvim_set_hl calls and give up each time"
	np := table.Against(whatLiveNPlan, table.NewMeasure("", lt.nvimPlan), 0, "part of the Neovim row")
	np.Note = "the edited theme's Neovim export rendered again after each edit, untimed otherwise: core/targets' template, about 1,100 nvim_set_hl calls"
	rows := []table.Row{tm, nv, kt, wa, np, no, nj}
	if kittyErr == nil {
		ko := table.Against(whatLiveKOwn, table.NewMeasure("", lt.kittyOwn), 0, "part of the kitty row")
		ko.Note = "from core/live's report that kitty was signalled until its socket answered with the new background: kitty re-reading kitty.conf and its theme, repainting with software GL, and the 2 ms poll"
		rows = append(rows, ko)
	}
	return rows
}

// liveTimes are the live runs' timings: until each program showed the
// edit, until the watcher handed the theme on, and kitty's own part.
type liveTimes struct {
	tmux, nvim, kitty, handover, kittyOwn, nvimOwn, nvimPlain, nvimPlan []time.Duration
	kittyErr                                                            error
}

// liveRuns applies the example theme to tmux and Neovim in a temporary
// home, starts both, and times n edits of the background.
func liveRuns(n int) (liveTimes, error) {
	var lt liveTimes
	tmuxRuns, nvimRuns, kittyRuns, kittyErr, err := lt.tmux, lt.nvim, lt.kitty, lt.kittyErr, error(nil)
	tmuxBin, err := exec.LookPath("tmux")
	if err != nil {
		return lt, errors.New("tmux is not installed (make deps)")
	}
	nvimBin, err := exec.LookPath("nvim")
	if err != nil {
		return lt, errors.New("nvim is not installed (make deps)")
	}
	root, err := os.MkdirTemp("", "cdxtheme-bench-live-")
	if err != nil {
		return lt, err
	}
	defer os.RemoveAll(root)
	p := install.Paths{Home: root, ConfigHome: filepath.Join(root, ".config"), GOOS: "linux", Store: filepath.Join(root, "applied")}
	ws := filepath.Join(root, "ws")
	run := filepath.Join(root, "run")
	for _, d := range []string{ws, run} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return lt, err
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
		return lt, err
	}
	var tmuxFile string
	for _, target := range []string{"tmux", "neovim", "kitty"} {
		plan, err := apply.Plan(theme.Example(), target, p)
		if err != nil {
			return lt, err
		}
		plan.Build = "bench"
		if _, err := apply.Apply(plan); err != nil {
			return lt, err
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
		return lt, fmt.Errorf("tmux: %v: %s", err, out)
	}
	defer tmux("kill-server")
	if out, err := tmux("source-file", tmuxFile); err != nil {
		return lt, fmt.Errorf("tmux: %v: %s", err, out)
	}
	sock := filepath.Join(run, "nvim.sock")
	nv := exec.Command(nvimBin, "--headless", "-u", "NONE", "-i", "NONE", "--listen", sock, "-c", "colorscheme harbour-night")
	nv.Env = append(os.Environ(), "XDG_CONFIG_HOME="+p.ConfigHome, "HOME="+root)
	nv.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := nv.Start(); err != nil {
		return lt, err
	}
	defer func() { syscall.Kill(-nv.Process.Pid, syscall.SIGKILL); nv.Wait() }()
	nvimExpr := func(expr string) string {
		out, _ := exec.Command(nvimBin, "--server", sock, "--remote-expr", expr).CombinedOutput()
		return strings.TrimSpace(string(out))
	}
	if err := until(30*time.Second, func() bool { return nvimExpr(`get(g:, "colors_name", "")`) == "harbour-night" }); err != nil {
		return lt, fmt.Errorf("neovim did not start with the colorscheme: %w", err)
	}

	kittySock, stopKitty, kittyErr := startKitty(root, p.ConfigHome)
	defer stopKitty()
	targets := []string{"tmux", "neovim"}
	if kittyErr == nil {
		targets = append(targets, "kitty")
	}
	r := live.NewRunner(p, env)
	defer r.Close()
	reports := make(chan live.Report, 16)
	r.OnReport = func(rep live.Report) { reports <- rep }
	ctx, cancel := context.WithCancel(context.Background())
	watching := make(chan struct{})
	go func() {
		defer close(watching)
		themewatch.Watch(ctx, ws, func(st themewatch.State) {
			if st.Error == "" && st.Theme != nil {
				r.Changed("bench", st.Theme, targets)
			}
		})
	}()
	defer func() { cancel(); <-watching }()

	for i := range n + 1 { // the first is a warm-up, not counted
		ink := fmt.Sprintf("#0b2a%02x", 0x10+i)
		start := time.Now()
		// kitty is read beside the others, from the edit on.
		kittySeen := make(chan time.Duration, 1)
		if kittyErr == nil {
			go func() {
				if until(10*time.Second, func() bool { return kittyBackground(kittySock) == ink }) == nil {
					kittySeen <- time.Since(start)
				}
				close(kittySeen)
			}()
		}
		edited := bytes.Replace(theme.ExampleJSON(), []byte(`"ink": "#161a24"`), []byte(`"ink": "`+ink+`"`), 1)
		if err := write(edited); err != nil {
			return lt, err
		}
		// Each program's report comes when its command returned: tmux's
		// source-file and Neovim's :colorscheme are done by then.
		at := map[string]time.Duration{}
		var handover time.Duration
		timeout := time.After(10 * time.Second)
		for len(at) < len(targets) {
			select {
			case rep := <-reports:
				if rep.Error != "" {
					return lt, fmt.Errorf("edit %d: %s: %s", i, rep.Target, rep.Error)
				}
				if rep.Reached > 0 {
					at[rep.Target] = rep.At.Sub(start)
					handover = rep.At.Add(-rep.Took).Sub(start) // the same change for every target
				}
			case <-timeout:
				return lt, fmt.Errorf("edit %d: reports within 10s: %v", i, at)
			}
		}
		if s, _ := tmux("show", "-gv", "status-left-style"); !strings.Contains(s, ink) {
			return lt, fmt.Errorf("edit %d: tmux's status-left-style is %q, want %s", i, s, ink)
		}
		if bg := nvimExpr(`synIDattr(synIDtrans(hlID("Normal")), "bg#", "gui")`); bg != ink {
			return lt, fmt.Errorf("edit %d: Neovim's Normal background is %q, want %s", i, bg, ink)
		}
		tmuxAt, nvimAt := at["tmux"], at["neovim"]
		var kittyAt time.Duration
		if kittyErr == nil {
			var ok bool
			if kittyAt, ok = <-kittySeen; !ok {
				kittyErr = fmt.Errorf("edit %d: kitty's background is not %s within 10s", i, ink)
			}
		}
		if i > 0 {
			tmuxRuns, nvimRuns = append(tmuxRuns, tmuxAt), append(nvimRuns, nvimAt)
			// Neovim's own part, outside the timed path: core/live's
			// command again, and a plain :colorscheme, timed inside Neovim.
			timed := func(cmd string) (time.Duration, bool) {
				lua := `(function() local t = vim.loop.hrtime(); vim.cmd([==[` + cmd + `]==]); return (vim.loop.hrtime() - t) / 1e6 end)()`
				ms, err := strconv.ParseFloat(nvimExpr(`luaeval('`+strings.ReplaceAll(lua, "'", "''")+`')`), 64)
				return time.Duration(ms * float64(time.Millisecond)), err == nil
			}
			if d, ok := timed(live.NvimReload([]string{"harbour-night"})); ok {
				lt.nvimOwn = append(lt.nvimOwn, d)
			}
			if d, ok := timed("colorscheme harbour-night"); ok {
				lt.nvimPlain = append(lt.nvimPlain, d)
			}
			if th, err := theme.Parse(edited); err == nil {
				s := time.Now()
				if _, err := apply.Plan(th, "neovim", p); err == nil {
					lt.nvimPlan = append(lt.nvimPlan, time.Since(s))
				}
			}
			lt.handover = append(lt.handover, handover)
			if kittyErr == nil {
				kittyRuns = append(kittyRuns, kittyAt)
				lt.kittyOwn = append(lt.kittyOwn, kittyAt-at["kitty"])
			}
		}
	}
	lt.tmux, lt.nvim, lt.kitty, lt.kittyErr = tmuxRuns, nvimRuns, kittyRuns, kittyErr
	return lt, nil
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

// startKitty runs kitty on a virtual display with software GL, its
// kitty.conf including the applied theme and remote control on its own
// socket; an error says why there is no kitty row.
func startKitty(root, configHome string) (sock string, stop func(), err error) {
	stop = func() {}
	bin, err := exec.LookPath("kitty")
	if err != nil {
		return "", stop, errors.New("kitty is not installed (make deps)")
	}
	if _, err := exec.LookPath("xvfb-run"); err != nil {
		return "", stop, errors.New("xvfb-run is not installed (make deps)")
	}
	conf := "include themes/harbour-night.conf\nallow_remote_control yes\n"
	if err := os.WriteFile(filepath.Join(configHome, "kitty", "kitty.conf"), []byte(conf), 0o644); err != nil {
		return "", stop, err
	}
	sock = filepath.Join(root, "kitty.sock")
	c := exec.Command("xvfb-run", "-a", bin, "--listen-on", "unix:"+sock, "-o", "linux_display_server=x11", "sh", "-c", "exec sleep 3600")
	c.Env = append(os.Environ(), "XDG_CONFIG_HOME="+configHome, "LIBGL_ALWAYS_SOFTWARE=1")
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := c.Start(); err != nil {
		return "", stop, err
	}
	stop = func() { syscall.Kill(-c.Process.Pid, syscall.SIGKILL); c.Wait() }
	if err := until(60*time.Second, func() bool { return kittyBackground(sock) == "#161a24" }); err != nil {
		stop()
		return "", func() {}, fmt.Errorf("kitty did not answer on its socket with the theme: %w", err)
	}
	return sock, stop, nil
}

// kittyBackground asks kitty's remote control for its background colour
// (kitty's own protocol: a get-colors command in a DCS string).
func kittyBackground(sock string) string {
	c, err := net.DialTimeout("unix", sock, time.Second)
	if err != nil {
		return ""
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Write([]byte("\x1bP@kitty-cmd{\"cmd\":\"get-colors\",\"version\":[0,26,5]}\x1b\\")); err != nil {
		return ""
	}
	var buf []byte
	tmp := make([]byte, 64<<10)
	for !bytes.HasSuffix(buf, []byte("\x1b\\")) && len(buf) < 1<<20 {
		n, err := c.Read(tmp)
		buf = append(buf, tmp[:n]...)
		if err != nil {
			break
		}
	}
	body := strings.TrimSuffix(strings.TrimPrefix(string(buf), "\x1bP@kitty-cmd"), "\x1b\\")
	var resp struct {
		OK   bool   `json:"ok"`
		Data string `json:"data"`
	}
	if json.Unmarshal([]byte(body), &resp) != nil || !resp.OK {
		return ""
	}
	for _, line := range strings.Split(resp.Data, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "background" {
			return f[1]
		}
	}
	return ""
}
