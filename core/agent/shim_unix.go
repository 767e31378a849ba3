//go:build unix

package agent

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The shim is a small process of our own between the front end and the
// agent: it leads the agent's process group, starts the agent in it, and
// kills the whole group (grandchildren such as codex-acp's `codex
// app-server` included) the moment the front end is gone, however it went:
// SIGKILL, a crash, a lost session. Only a process that outlives the front
// end can do that: a parent-death signal reaches the direct child alone,
// and the kernel has nothing that kills a group when another process dies.
//
// It learns that its parent died from a lifeline pipe whose write end only
// the parent holds (EOF = the parent is gone, on every Unix), and on Linux
// also from a parent-death signal, checked against getppid so a signal that
// is not about the parent is ignored. When the agent exits on its own, the
// shim reports how on a status pipe and kills what the agent left in the
// group, itself last.
//
// It is this very binary started again under the name shimName (any binary
// that links this package: the CLI, the app, test binaries), or the small
// cdxtheme-agent-shim program shipped beside the desktop app, which starts
// in a few milliseconds where the desktop binary loads GTK and WebKit first.

// shimName is the shim's argv[0] and the name of the standalone program.
const shimName = "cdxtheme-agent-shim"

// shimProtocol is the first argument; a shim from another release that
// does not speak it refuses, and the agent is then started without it.
const shimProtocol = "v1"

// The shim's inherited descriptors after stdin, stdout and stderr.
const (
	lifelineFD = 3 // read end: EOF when the parent is gone; "linger MS" before it hands over
	statusFD   = 4 // write end: "started PID", "error ERRNO MSG", "exit N", "signal N"
	// holdFD and up are read ends of the agent's stdout and stderr, held
	// and never read, so an agent still winding down after the parent left
	// writes into a pipe rather than dying of EPIPE mid-save.
	holdFD = 5
)

// maxLinger is the hard upper bound of a wind-down handed to the shim:
// whatever the parent asked for, the group is killed this long after the
// parent let go.
const maxLinger = 10 * time.Second

func init() {
	if len(os.Args) > 1 && filepath.Base(os.Args[0]) == shimName && os.Args[1] == shimProtocol {
		os.Exit(RunShim(os.Args[1:]))
	}
}

// RunShim is the shim's main: args are shimProtocol, the parent's pid, "--",
// then the agent's command line. It returns only on failure before the
// agent ran; afterwards it ends by killing its own group.
func RunShim(args []string) int {
	if len(args) < 4 || args[0] != shimProtocol || args[2] != "--" {
		fmt.Fprintf(os.Stderr, "%s: started with %q; it is run by cdxtheme, never by hand\n", shimName, args)
		return 2
	}
	setName(ShimComm)
	parent, err := strconv.Atoi(args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: bad parent pid %q\n", shimName, args[1])
		return 2
	}
	// Killing "our group" must never hit someone else's: lead our own.
	if syscall.Getpgrp() != os.Getpid() {
		fmt.Fprintf(os.Stderr, "%s: not the leader of its own process group\n", shimName)
		return 2
	}
	// Both are pipes from the parent. Only being open proves nothing: without
	// them, 3 and 4 are the Go runtime's own (its poller) by the time this runs.
	var st syscall.Stat_t
	isPipe := func(fd int) bool { return syscall.Fstat(fd, &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFIFO }
	if !isPipe(lifelineFD) || !isPipe(statusFD) {
		fmt.Fprintf(os.Stderr, "%s: lifeline and status descriptors missing\n", shimName)
		return 2
	}
	// Neither descriptor may reach the agent.
	syscall.CloseOnExec(lifelineFD)
	syscall.CloseOnExec(statusFD)
	for fd := holdFD; syscall.Fstat(fd, &st) == nil; fd++ {
		syscall.CloseOnExec(fd)
	}
	life := os.NewFile(lifelineFD, "lifeline")
	status := os.NewFile(statusFD, "status")

	// Termination signals come to the whole group (the agent gets its own
	// copy) or announce the parent's death; neither may end the shim.
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	if os.Getppid() != parent {
		return 125 // orphaned before it began: nothing started, nothing to kill
	}

	// The agent's own parent-death signal follows the thread that forks it.
	runtime.LockOSThread()
	c := exec.Command(args[3], args[4:]...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	c.SysProcAttr = shimChildAttr()
	if err := c.Start(); err != nil {
		fmt.Fprintf(status, "error %d %s\n", errnoOf(err), strings.ReplaceAll(err.Error(), "\n", " "))
		return 127
	}
	fmt.Fprintf(status, "started %d\n", c.Process.Pid)
	// The parent must see EOF on the agent's stdout when the agent is done
	// with it, not when the shim is.
	if null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0); err == nil {
		dupTo(int(null.Fd()), 0)
		dupTo(int(null.Fd()), 1)
		null.Close()
	}

	// The parent lets go by closing the lifeline (it exited, died, or is
	// done with the agent). Had it first written "linger MS", the agent's
	// stdin is closed and it may finish on its own for that long (saving its
	// session); otherwise the group dies at once.
	released := make(chan time.Duration, 1)
	go func() { released <- readLifeline(life) }()
	gone := make(chan time.Duration, 1)
	go func() {
		for range sigs {
			if os.Getppid() != parent {
				// The parent died: its last words, if any, are in the
				// lifeline, which reaches EOF now.
				select {
				case d := <-released:
					gone <- d
				case <-time.After(200 * time.Millisecond):
					gone <- 0
				}
				return
			}
		}
	}()
	exited := make(chan *os.ProcessState, 1)
	go func() {
		c.Wait()
		exited <- c.ProcessState
	}()
	report := func(ps *os.ProcessState) {
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			fmt.Fprintf(status, "signal %d\n", int(ws.Signal()))
		} else {
			fmt.Fprintf(status, "exit %d\n", ps.ExitCode())
		}
		status.Close()
	}
	var linger time.Duration
	select {
	case ps := <-exited:
		report(ps)
	case linger = <-released:
	case linger = <-gone:
	}
	if linger > 0 {
		t := time.NewTimer(linger)
		select {
		case ps := <-exited:
			report(ps) // the parent, if still there, learns how it ended
		case <-t.C:
		}
	}
	// Everything still in the group goes with the agent, the shim last.
	syscall.Kill(0, syscall.SIGKILL)
	select {}
}

// readLifeline reads the lifeline to EOF and returns the wind-down the
// parent asked for (0: none), at most maxLinger.
func readLifeline(life io.Reader) time.Duration {
	var d time.Duration
	sc := bufio.NewScanner(io.LimitReader(life, 4096))
	for sc.Scan() {
		if ms, ok := strings.CutPrefix(sc.Text(), "linger "); ok {
			if n, err := strconv.Atoi(ms); err == nil && n > 0 {
				d = min(time.Duration(n)*time.Millisecond, maxLinger)
			}
		}
	}
	io.Copy(io.Discard, life) // past the limit: still wait for EOF
	return d
}

func errnoOf(err error) int {
	var en syscall.Errno
	if errors.As(err, &en) {
		return int(en)
	}
	if errors.Is(err, exec.ErrNotFound) {
		return int(syscall.ENOENT)
	}
	return 0
}

var (
	shimOnce sync.Once
	shimExe  string
	// shimPath is a variable so tests can offer a broken shim.
	shimPath = findShim
)

// findShim is the program to run as the shim: the standalone shim beside
// the executable (or in the packaged sidecar dirs) when there is one, else
// this executable (on Linux through /proc/self/exe, which works even after
// an upgrade replaced the file).
func findShim() string {
	shimOnce.Do(func() {
		dir := executableDir()
		if exe, err := os.Executable(); err == nil {
			shimExe = exe
		}
		if dir != "" {
			for _, d := range sidecarDirs(dir) {
				if p := filepath.Join(d, shimName); isExecutable(p) {
					shimExe = p
					return
				}
			}
		}
		if runtime.GOOS == "linux" {
			shimExe = "/proc/self/exe"
		}
	})
	return shimExe
}

// startShimmed starts the agent behind the shim: c is prepared with the
// agent's command, stdio, directory and environment; its ExtraFiles are
// what the shim holds for the agent (the read ends of its output), never
// passed to the agent.
func startShimmed(c *exec.Cmd) (*child, error) {
	exe := shimPath()
	if exe == "" {
		return nil, fmt.Errorf("%w: cannot tell this program's path", errNoShim)
	}
	lifeR, lifeW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNoShim, err)
	}
	statR, statW, err := os.Pipe()
	if err != nil {
		closeAll(lifeR, lifeW)
		return nil, fmt.Errorf("%w: %v", errNoShim, err)
	}
	s := &exec.Cmd{
		Path:        exe,
		Args:        append([]string{shimName, shimProtocol, strconv.Itoa(os.Getpid()), "--", c.Path}, c.Args[1:]...),
		Dir:         c.Dir,
		Env:         c.Env,
		Stdin:       c.Stdin,
		Stdout:      c.Stdout,
		Stderr:      c.Stderr,
		ExtraFiles:  append([]*os.File{lifeR, statW}, c.ExtraFiles...),
		SysProcAttr: shimAttr(),
	}
	// Pdeathsig fires when the thread that forked exits (golang/go#27505):
	// fork from a locked thread that lives until the shim is reaped.
	started := make(chan error, 1)
	reaped := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := s.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		reaped <- s.Wait()
	}()
	if err := <-started; err != nil {
		closeAll(lifeR, lifeW, statR, statW)
		return nil, fmt.Errorf("%w: start %s: %v", errNoShim, exe, err)
	}
	closeAll(lifeR, statW)

	status := bufio.NewReader(statR)
	line, _ := status.ReadString('\n')
	word, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	switch word {
	case "started":
		pid, _ := strconv.Atoi(rest)
		ch := &child{proc: s.Process, agentPid: pid, life: lifeW}
		ch.wait = func() error {
			final, _ := status.ReadString('\n')
			statR.Close()
			shimErr := <-reaped
			return shimExit(strings.TrimSpace(final), shimErr)
		}
		return ch, nil
	case "error":
		<-reaped
		closeAll(lifeW, statR)
		n, msg, _ := strings.Cut(rest, " ")
		errno, _ := strconv.Atoi(n)
		if errno != 0 {
			return nil, &fs.PathError{Op: "fork/exec", Path: c.Path, Err: syscall.Errno(errno)}
		}
		return nil, errors.New(msg)
	}
	// A shim that does not speak the protocol exits without a word.
	shimErr := <-reaped
	closeAll(lifeW, statR)
	return nil, fmt.Errorf("%w: %s said %q and exited (%v)", errNoShim, exe, line, shimErr)
}

// shimExit turns the shim's last status line into the agent's exit; when
// there is none the shim itself was killed (with its group), and its own
// status tells.
func shimExit(line string, shimErr error) error {
	word, n, _ := strings.Cut(line, " ")
	v, err := strconv.Atoi(n)
	switch {
	case err != nil:
	case word == "exit" && v == 0:
		return nil
	case word == "exit":
		return &ExitError{Code: v}
	case word == "signal":
		return &ExitError{Code: -1, Signal: syscall.Signal(v)}
	}
	return exitErrorOf(shimErr)
}
