package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// Teardown grace periods: how long Stop waits after closing stdin and after
// the polite termination before escalating.
var (
	stdinGrace = 2 * time.Second
	termGrace  = 2 * time.Second
	// goneWait bounds how long Stop waits for the rest of the group to
	// vanish after the leader has been reaped.
	goneWait = 2 * time.Second
	// drainWait bounds how long Done waits for stderr to reach EOF after
	// the process exited.
	drainWait = 500 * time.Millisecond
)

// Process is a running agent in its own process group.
type Process struct {
	cmd    Command
	proc   *os.Process
	pid    int
	stdin  *os.File
	stdout *stdoutReader
	tail   ring
	log    zerolog.Logger

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
	c.Env = append(os.Environ(), cmd.Env...)
	c.Stdin, c.Stdout, c.Stderr = inR, outW, errW
	c.SysProcAttr = sysProcAttr()
	if err := c.Start(); err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			return nil, fmt.Errorf("%w: cannot run the agent %s: %v (chosen because: %s)", ErrNotFound, cmd, err, cmd.Reason)
		}
		return nil, fmt.Errorf("start agent %s: %w (chosen because: %s)", cmd, err, cmd.Reason)
	}
	// The child holds its ends now; ours must go so EOF arrives when it exits.
	closeAll(inR, outW, errW)

	p := &Process{
		cmd:     cmd,
		proc:    c.Process,
		pid:     c.Process.Pid,
		stdin:   inW,
		stdout:  &stdoutReader{f: outR},
		log:     log,
		done:    make(chan struct{}),
		stopped: make(chan struct{}),
	}
	log.Debug().Int("pid", p.pid).Str("cmd", cmd.String()).Str("source", cmd.Source).Str("dir", dir).Msg("agent started")

	drained := make(chan struct{})
	go func() {
		drainStderr(errR, &p.tail, log)
		errR.Close()
		close(drained)
	}()
	go func() {
		err := c.Wait()
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

// ExitErr is the exit status after Done: nil on exit 0, else an *exec.ExitError.
func (p *Process) ExitErr() error {
	select {
	case <-p.done:
		return p.exitErr
	default:
		return nil
	}
}

// Pid is the process id, which is also its process group id.
func (p *Process) Pid() int { return p.pid }

// Command is the command the process runs.
func (p *Process) Command() Command { return p.cmd }

// Stop ends the agent politely then firmly: close stdin and wait up to 2 s,
// terminate the group and wait up to 2 s, then kill the group. It returns once
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

func (p *Process) teardown() error {
	p.stdin.Close()
	if !p.waitDone(stdinGrace) {
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
