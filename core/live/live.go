// Package live keeps the programs a build was applied to showing the
// build as it changes (issue #39): on each settled change of theme.json it
// rewrites the files the build's apply wrote (apply.Refresh, the way
// Apply writes them, Undo still restoring the user's own bytes) and then
// tells the program's running instances, one reloader per program: tmux
// sources the file on every server, Neovim re-runs :colorscheme where it
// is the current one, kitty, Helix and Ghostty get their reload signal;
// Zed, Alacritty and iTerm2 watch their files themselves. Everything it
// finds on the machine (sockets, processes) is the user's own, bounded in
// number, and every call has a timeout; it never blocks the caller.
package live

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"cdxtheme/core/apply"
	"cdxtheme/core/install"
	"cdxtheme/core/theme"
)

// maxInstances bounds the running instances of one program told at once.
const maxInstances = 32

// Env is where running instances are looked for. DefaultEnv reads the
// real places; tests point it at their own.
type Env struct {
	UID        int
	Proc       string // Linux's /proc, "" where there is none
	TmuxDir    string // $TMUX_TMPDIR, else /tmp: tmux keeps tmux-UID there
	RuntimeDir string // $XDG_RUNTIME_DIR
	TempDir    string // $TMPDIR, else /tmp
	// Timeout bounds each instance's answer; a hung one is given up.
	Timeout time.Duration
}

// DefaultEnv is the current user's.
func DefaultEnv() Env {
	e := Env{UID: os.Getuid(), TmuxDir: os.Getenv("TMUX_TMPDIR"), RuntimeDir: os.Getenv("XDG_RUNTIME_DIR"),
		TempDir: os.TempDir(), Timeout: 2 * time.Second}
	if e.TmuxDir == "" {
		e.TmuxDir = "/tmp"
	}
	if runtime.GOOS == "linux" {
		e.Proc = "/proc"
	}
	return e
}

// How a program follows a live change.
const (
	// Told: the app tells the running instances after rewriting.
	Told = "told"
	// Watches: the program reloads the rewritten file by itself.
	Watches = "watches"
	// Manual: the files are rewritten, but the program reads them only
	// when the user reloads or restarts it.
	Manual = "manual"
)

// Program is what live does for one apply target, for the UI.
type Program struct {
	Target string `json:"target"`
	Mode   string `json:"mode" ts_type:"'told' | 'watches' | 'manual'"`
	// Note says, in English, what happens in the program.
	Note string `json:"note"`
}

var known = map[string]Program{
	"tmux":             {Mode: Told, Note: "Every running tmux server sources the theme file again (source-file): its status line, borders and menus change at once."},
	"neovim":           {Mode: Told, Note: "Every running Neovim whose colorscheme is this theme runs :colorscheme again, through its server socket; one showing another colorscheme is left alone."},
	"kitty":            {Mode: Told, Note: "Every running kitty reloads its configuration (SIGUSR1): it follows when kitty.conf includes the theme file (the step Apply showed). Linux."},
	"helix":            {Mode: Told, Note: "Every running Helix reloads its configuration and theme (SIGUSR1, Helix 23.10 or later): it follows when config.toml names the theme. Linux."},
	"ghostty":          {Mode: Told, Note: "Every running Ghostty reloads its configuration (SIGUSR2, Ghostty 1.2 or later): it follows when its config names the theme. Linux."},
	"bat":              {Mode: Told, Note: "bat is not a running program: the app rebuilds bat's theme cache (bat cache --build), so the next bat and delta show the change."},
	"zed":              {Mode: Watches, Note: "Zed watches its themes folder and repaints with the rewritten theme by itself."},
	"alacritty":        {Mode: Watches, Note: "Alacritty reloads its configuration and the files it imports when they change (live_config_reload, on by default): it follows when alacritty.toml imports the theme file."},
	"iterm2":           {Mode: Watches, Note: "iTerm2 reloads Dynamic Profiles when their file changes."},
	"wezterm":          {Mode: Watches, Note: "WezTerm reloads when a file it watches changes; it does not watch its colors folder: add wezterm.add_to_config_reload_watch_list(<the theme file>) to wezterm.lua to make it follow."},
	"vscode":           {Mode: Manual, Note: "VS Code reads an installed theme only when its window loads: the files are rewritten, and Developer: Reload Window shows the change."},
	"foot":             {Mode: Manual, Note: "foot cannot reload its configuration while it runs: the file is rewritten, and a new foot window shows the change."},
	"windows-terminal": {Mode: Manual, Note: "Windows Terminal reads its fragments when it starts: the file is rewritten, and a restart shows the change."},
}

// ProgramFor says what live does for target; a target defined as data
// (core/targets) gets its files rewritten and no more.
func ProgramFor(target string) Program {
	p, ok := known[target]
	if !ok {
		p = Program{Mode: Manual, Note: "The files are rewritten; the program shows the change when it next reads them."}
	}
	p.Target = target
	return p
}

// Report is what one live change did in one program.
type Report struct {
	Build  string `json:"build"`
	Target string `json:"target"`
	// Written are the files rewritten; Reached the running instances told.
	Written []string `json:"written"`
	Reached int      `json:"reached"`
	// Kept are files changed by someone else since the apply, left
	// alone; Missing files the theme now goes to that the apply did not
	// write (renamed): apply again to follow.
	Kept    []string  `json:"kept"`
	Missing []string  `json:"missing"`
	Error   string    `json:"error,omitempty"`
	At      time.Time `json:"at" ts_type:"string"`
	// Took is from the change reaching the runner to the last instance's
	// answer.
	Took time.Duration `json:"tookNs"`
}

// Tell has the running instances of r.Target read the files Refresh
// rewrote, and reports how many it reached.
func Tell(ctx context.Context, env Env, r apply.Refreshed) (int, error) {
	return tell(ctx, env, r, find(env, r.Target))
}

// found are the running instances of one program: sockets to talk to or
// processes to signal.
type found struct {
	sockets []string
	pids    []int
}

// signals are the programs told by a signal: their process names and the
// signal they reload on.
var signals = map[string]struct {
	names []string
	sig   syscall.Signal
}{
	"kitty":   {[]string{"kitty"}, sigUSR1},
	"helix":   {[]string{"hx", "helix"}, sigUSR1},
	"ghostty": {[]string{"ghostty"}, sigUSR2},
}

// find looks for target's running instances. It needs nothing the
// rewrite makes, so the Runner runs it beside apply.Refresh: the /proc
// scan (tens of milliseconds on a loaded machine) is off the path.
func find(env Env, target string) found {
	switch target {
	case "tmux":
		return found{sockets: tmuxSockets(env)}
	case "neovim":
		return found{sockets: nvimSockets(env)}
	}
	if s, ok := signals[target]; ok {
		return found{pids: signalled(env, s.names, s.sig)}
	}
	return found{}
}

func tell(ctx context.Context, env Env, r apply.Refreshed, in found) (int, error) {
	if len(r.Written) == 0 {
		return 0, nil
	}
	switch r.Target {
	case "tmux":
		if !slices.Contains(r.Written, r.Primary) {
			return 0, nil
		}
		return tellTmux(ctx, env, r.Primary, in.sockets)
	case "neovim":
		var names []string
		for _, f := range r.Written {
			names = append(names, strings.TrimSuffix(filepath.Base(f), ".lua"))
		}
		return tellNvim(ctx, env, names, in.sockets)
	case "bat":
		return batCache(ctx, env)
	}
	if s, ok := signals[r.Target]; ok {
		return signal(in.pids, s.sig)
	}
	return 0, nil
}

// batCache rebuilds bat's theme cache, where bat reads themes from.
func batCache(ctx context.Context, env Env) (int, error) {
	bin, err := exec.LookPath("bat")
	if err != nil {
		if bin, err = exec.LookPath("batcat"); err != nil { // Debian's name
			return 0, nil
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 5*env.Timeout)
	defer cancel()
	if out, err := exec.CommandContext(ctx, bin, "cache", "--build").CombinedOutput(); err != nil {
		msg := strings.TrimSpace(string(out))
		if len(msg) > 300 {
			msg = msg[:300] + "…"
		}
		return 0, errors.New("bat cache --build: " + err.Error() + ": " + msg)
	}
	return 1, nil
}

// each runs tell on every instance at once and counts those it reached;
// the first error is returned, the others' reached still counted.
func each(ctx context.Context, instances []string, tell func(context.Context, string) (bool, error)) (int, error) {
	var (
		mu      sync.Mutex
		wg      sync.WaitGroup
		reached int
		first   error
	)
	for _, in := range instances {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := tell(ctx, in)
			mu.Lock()
			defer mu.Unlock()
			if ok {
				reached++
			}
			if err != nil && first == nil {
				first = err
			}
		}()
	}
	wg.Wait()
	return reached, first
}

// Runner follows builds' changes into the programs. Changed never blocks:
// each build has at most one run going and one change waiting (the
// latest; those in between are skipped, as they would be overwritten).
type Runner struct {
	paths install.Paths
	env   Env
	// OnReport, when set before use, gets each program's report.
	OnReport func(Report)

	mu    sync.Mutex
	loops map[string]*loop
	last  map[[2]string]Report
	wg    sync.WaitGroup
	ctx   context.Context
	stop  context.CancelFunc
}

type loop struct {
	pending *change
	running bool
}

type change struct {
	t       *theme.Theme
	targets []string
	at      time.Time
}

// NewRunner makes a runner writing into p's folders and telling the
// instances env finds.
func NewRunner(p install.Paths, env Env) *Runner {
	ctx, stop := context.WithCancel(context.Background())
	return &Runner{paths: p, env: env, loops: map[string]*loop{}, last: map[[2]string]Report{}, ctx: ctx, stop: stop}
}

// Changed hands the build's theme as it is now to the programs in targets
// (those the designer turned on). It returns at once.
func (r *Runner) Changed(build string, t *theme.Theme, targets []string) {
	if len(targets) == 0 || t == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ctx.Err() != nil {
		return
	}
	l := r.loops[build]
	if l == nil {
		l = &loop{}
		r.loops[build] = l
	}
	l.pending = &change{t: t, targets: targets, at: time.Now()}
	if !l.running {
		l.running = true
		r.wg.Add(1)
		go r.run(build, l)
	}
}

func (r *Runner) run(build string, l *loop) {
	defer r.wg.Done()
	for {
		r.mu.Lock()
		c := l.pending
		l.pending = nil
		if c == nil || r.ctx.Err() != nil {
			l.running = false
			delete(r.loops, build)
			r.mu.Unlock()
			return
		}
		r.mu.Unlock()
		// The programs side by side: one slow to answer does not hold
		// the others (the rewrites themselves take turns, apply.Refresh).
		var wg sync.WaitGroup
		for _, target := range c.targets {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r.apply(build, target, c)
			}()
		}
		wg.Wait()
	}
}

func (r *Runner) apply(build, target string, c *change) {
	rep := Report{Build: build, Target: target}
	finding := make(chan found, 1)
	go func() { finding <- find(r.env, target) }()
	rf, err := apply.Refresh(c.t, target, build, r.paths)
	rep.Written, rep.Kept, rep.Missing = rf.Written, rf.Kept, rf.Missing
	in := <-finding
	if err == nil {
		rep.Reached, err = tell(r.ctx, r.env, rf, in)
	}
	if err != nil {
		rep.Error = err.Error()
	}
	rep.At = time.Now()
	rep.Took = rep.At.Sub(c.at)
	r.mu.Lock()
	r.last[[2]string{build, target}] = rep
	r.mu.Unlock()
	if r.OnReport != nil {
		r.OnReport(rep)
	}
}

// Last is the latest report of build's live changes into target.
func (r *Runner) Last(build, target string) (Report, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rep, ok := r.last[[2]string{build, target}]
	return rep, ok
}

// Close stops following and waits for the runs going to end (each is
// bounded by the timeouts).
func (r *Runner) Close() {
	r.mu.Lock()
	r.stop()
	r.mu.Unlock()
	r.wg.Wait()
}
