package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/rs/zerolog"
)

// Teardown grace periods: how long Stop waits after closing stdin and after
// the polite termination before escalating. Stop runs once the agent has
// nothing left to do (its turn is over, or it is being given up), so both
// are short: a well-behaved agent exits on EOF at once, and one that takes
// seconds to (codex-acp waits 2 s for its app-server) is ended, not waited
// for. An agent still working gets its grace before Stop, from the caller
// (session/cancel, then a bounded wait).
var (
	stdinGrace = 50 * time.Millisecond
	termGrace  = 250 * time.Millisecond
	// goneWait bounds how long Stop waits for the rest of the group to
	// vanish after the leader has been reaped.
	goneWait = 2 * time.Second
	// drainWait bounds how long Done waits for stderr to reach EOF after
	// the process exited.
	drainWait = 500 * time.Millisecond
	// exitGrace is how long an agent whose turn is over may take to exit on
	// its own once its stdin is closed (Release): agents save their session
	// then (claude-code-acp writes its transcript, codex-acp waits 2 s for
	// its app-server). Measured on the agents the README lists, every one
	// was gone well within it; the shim bounds it again (maxLinger).
	exitGrace = 5 * time.Second
)

// errNoShim says the shim could not be used; the agent then starts
// without it (the front end's own teardown still runs).
var errNoShim = errors.New("agent shim unavailable")

// errShimless is errNoShim where there is no shim by design (Windows).
var errShimless = fmt.Errorf("%w on this system", errNoShim)

// ExitError is how an agent ended that did not exit 0.
type ExitError struct {
	Code   int            // exit status; -1 when a signal ended it
	Signal syscall.Signal // the signal that ended it, 0 if none
}

func (e *ExitError) Error() string {
	if e.Signal != 0 {
		return "signal: " + e.Signal.String()
	}
	return "exit status " + strconv.Itoa(e.Code)
}

// exitErrorOf converts what exec's Wait returned.
func exitErrorOf(err error) error {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return err
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return &ExitError{Code: -1, Signal: ws.Signal()}
	}
	return &ExitError{Code: ee.ExitCode()}
}

// child is a started process tree: the process we wait on (the shim, or
// the agent itself where there is none) and how to learn the agent's exit.
type child struct {
	proc     *os.Process
	agentPid int
	life     *os.File     // the shim's lifeline, closed once it is reaped
	wait     func() error // blocks until reaped; the agent's exit
	tree     *tree        // the whole tree, where the system holds one (Windows' Job Object); else nil
}

func startDirect(c *exec.Cmd) (*child, error) {
	c.SysProcAttr = sysProcAttr()
	if err := c.Start(); err != nil {
		return nil, err
	}
	return &child{proc: c.Process, agentPid: c.Process.Pid, wait: func() error { return exitErrorOf(c.Wait()) }}, nil
}

// Process is a running agent in its own process group.
type Process struct {
	cmd      Command
	proc     *os.Process
	pid      int // the group's leader: the shim, else the agent
	agentPid int
	stdin    *os.File
	life     *os.File // the shim's lifeline (nil without a shim)
	tree     *tree    // see child.tree
	stdout   *stdoutReader
	tail     ring
	log      zerolog.Logger

	done    chan struct{}
	exitErr error

	stopOnce sync.Once
	stopped  chan struct{}
	stopErr  error
}

// Start runs cmd in dir (its cwd) in a new process group, with the inherited
// environment plus cmd.Env. stdin and stdout are pipes; stderr is drained
// into a bounded tail (StderrTail) and logged at debug. When ctx is done
// before the process exits, the process is stopped (see Stop).
func Start(ctx context.Context, cmd Command, dir string, log zerolog.Logger) (*Process, error) {
	if cmd.Path == "" {
		return nil, fmt.Errorf("start agent: empty command (%s)", cmd.Reason)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("start agent %s: %w", cmd, err)
	}
	if fi, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("start agent %s: working directory: %w", cmd, err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("start agent %s: working directory %s is not a directory", cmd, dir)
	}

	// Our own pipes (not exec's StdoutPipe): Wait would close the read end
	// as soon as the child exits and lose output the reader has not taken yet.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start agent %s: stdin pipe: %w", cmd, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, fmt.Errorf("start agent %s: stdout pipe: %w", cmd, err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, fmt.Errorf("start agent %s: stderr pipe: %w", cmd, err)
	}

	c := exec.Command(cmd.Path, cmd.Args...)
	c.Dir = dir
	c.Env = cmd.environ(os.Environ())
	c.Stdin, c.Stdout, c.Stderr = inR, outW, errW
	// The shim holds the read ends of the agent's output too (never passed
	// to the agent): see holdFD.
	c.ExtraFiles = []*os.File{outR, errR}
	ch, err := startShimmed(c)
	c.ExtraFiles = nil
	if errors.Is(err, errNoShim) {
		if !errors.Is(err, errShimless) {
			log.Warn().Err(err).Msg("agent started without its shim: if this program is killed, the agent's children may outlive it")
		}
		ch, err = startDirect(c)
	}
	if err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			return nil, fmt.Errorf("%w: cannot run the agent %s: %v (chosen because: %s)", ErrNotFound, cmd, err, cmd.Reason)
		}
		return nil, fmt.Errorf("start agent %s: %w (chosen because: %s)", cmd, err, cmd.Reason)
	}
	// The child holds its ends now; ours must go so EOF arrives when it exits.
	closeAll(inR, outW, errW)

	p := &Process{
		cmd:      cmd,
		proc:     ch.proc,
		pid:      ch.proc.Pid,
		agentPid: ch.agentPid,
		stdin:    inW,
		life:     ch.life,
		tree:     ch.tree,
		stdout:   &stdoutReader{f: outR},
		log:      log,
		done:     make(chan struct{}),
		stopped:  make(chan struct{}),
	}
	log.Debug().Int("pid", p.agentPid).Int("pgid", p.pid).Str("cmd", cmd.String()).Str("source", cmd.Source).Str("dir", dir).Msg("agent started")

	drained := make(chan struct{})
	go func() {
		drainStderr(errR, &p.tail, log)
		errR.Close()
		close(drained)
	}()
	go func() {
		err := ch.wait()
		if ch.life != nil {
			ch.life.Close()
		}
		// Let the tail catch the last words (a crash message) before Done,
		// unless a surviving grandchild keeps stderr open.
		t := time.NewTimer(drainWait)
		select {
		case <-drained:
		case <-t.C:
		}
		t.Stop()
		p.exitErr = err
		close(p.done)
		log.Debug().Int("pid", p.pid).AnErr("exit", err).Msg("agent exited")
	}()
	if ctx.Done() != nil {
		go func() {
			select {
			case <-ctx.Done():
				p.Stop()
			case <-p.done:
			}
		}()
	}
	return p, nil
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

// stdoutReader closes the pipe once it has been read to the end, so a
// consumer that reads to EOF never leaks the descriptor.
type stdoutReader struct{ f *os.File }

func (r *stdoutReader) Read(b []byte) (int, error) {
	n, err := r.f.Read(b)
	if err != nil {
		r.f.Close()
		if errors.Is(err, os.ErrClosed) {
			err = io.EOF
		}
	}
	return n, err
}

// Stdin is the agent's standard input. Closing it asks a well-behaved agent to exit.
func (p *Process) Stdin() io.WriteCloser { return p.stdin }

// Stdout is the agent's standard output. It closes itself at EOF.
func (p *Process) Stdout() io.Reader { return p.stdout }

// StderrTail returns the last lines the agent wrote to stderr (at most 50
// lines / 16 KiB; over-long lines are cut).
func (p *Process) StderrTail() []string { return p.tail.snapshot() }

// Done is closed when the process has exited and been reaped, and its
// stderr has been read to the end (or 500 ms passed), so StderrTail then
// holds its last words.
func (p *Process) Done() <-chan struct{} { return p.done }

// ExitErr is the agent's exit after Done: nil on exit 0, else an *ExitError.
func (p *Process) ExitErr() error {
	select {
	case <-p.done:
		return p.exitErr
	default:
		return nil
	}
}

// Pid is the process group id of the agent and everything it starts (the
// shim's pid, or the agent's where it runs without one).
func (p *Process) Pid() int { return p.pid }

// AgentPid is the agent's own process id.
func (p *Process) AgentPid() int { return p.agentPid }

// Command is the command the process runs.
func (p *Process) Command() Command { return p.cmd }

// Stop ends the agent politely then firmly: close stdin and wait 50 ms,
// terminate the group and wait 250 ms, then kill the group. It returns once
// the leader is reaped and the rest of the group is gone. Safe to call many
// times and from many goroutines; every call waits for the same teardown.
func (p *Process) Stop() error {
	p.stopOnce.Do(func() {
		go func() {
			p.stopErr = p.teardown()
			close(p.stopped)
		}()
	})
	<-p.stopped
	return p.stopErr
}

// Release ends an agent whose work is done without waiting for it: its
// stdin is closed and it gets exitGrace to exit on its own (to save its
// session) before its group is ended. The shim carries that out, so the
// caller may exit at once; the agent is gone at most exitGrace later
// whatever the caller does. A later Stop waits for the same teardown.
// Without a shim it is Stop.
func (p *Process) Release() {
	if p.life == nil {
		p.Stop()
		return
	}
	p.stopOnce.Do(func() {
		p.stdin.Close()
		fmt.Fprintf(p.life, "linger %d\n", exitGrace.Milliseconds())
		p.life.Close()
		go func() {
			p.stopErr = p.teardownAfter(exitGrace + termGrace)
			close(p.stopped)
		}()
	})
}

func (p *Process) teardown() error { return p.teardownAfter(stdinGrace) }

// teardownAfter closes stdin, waits grace for the agent to exit, then
// ends its group.
func (p *Process) teardownAfter(grace time.Duration) error {
	p.stdin.Close()
	if !p.waitDone(grace) {
		p.log.Debug().Int("pid", p.pid).Msg("agent still running after stdin closed; terminating its process group")
		if err := terminateGroup(p); err != nil {
			p.log.Debug().Err(err).Msg("terminate agent group")
		}
		if !p.waitDone(termGrace) {
			p.log.Debug().Int("pid", p.pid).Msg("agent ignored termination; killing its process group")
			killGroup(p)
			<-p.done
		}
	}
	// The leader is gone; children it left behind in the group are not.
	killGroup(p)
	deadline := time.Now().Add(goneWait)
	for !groupGone(p) {
		if time.Now().After(deadline) {
			return fmt.Errorf("stop agent %d: processes of its group are still alive after SIGKILL", p.pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return nil
}

func (p *Process) waitDone(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		return true
	case <-t.C:
		return false
	}
}

// Kill kills the whole process group now, without waiting.
func (p *Process) Kill() {
	p.stdin.Close()
	killGroup(p)
}
