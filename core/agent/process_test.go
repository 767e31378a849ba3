//go:build unix

package agent

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// sh runs a /bin/sh script as the agent.
func sh(script string) Command {
	return Command{Path: "/bin/sh", Args: []string{"-c", script}, Source: "test", Reason: "The test runs a shell script."}
}

func start(t *testing.T, cmd Command) *Process {
	t.Helper()
	p, err := Start(context.Background(), cmd, t.TempDir(), zerolog.Nop())
	if err != nil {
		t.Fatalf("Start(%s): %v", cmd, err)
	}
	t.Cleanup(func() {
		p.Kill()
		<-p.Done()
	})
	return p
}

func waitDone(t *testing.T, p *Process) {
	t.Helper()
	select {
	case <-p.Done():
	case <-time.After(30 * time.Second):
		t.Fatalf("agent %d did not exit", p.Pid())
	}
}

// readLineFrom reads one line of the agent's stdout.
func readLineFrom(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	type res struct {
		s   string
		err error
	}
	ch := make(chan res, 1)
	go func() {
		s, err := r.ReadString('\n')
		ch <- res{s, err}
	}()
	select {
	case got := <-ch:
		if got.err != nil {
			t.Fatalf("read stdout: %v (got %q)", got.err, got.s)
		}
		return strings.TrimSuffix(got.s, "\n")
	case <-time.After(30 * time.Second):
		t.Fatal("no line on stdout")
		return ""
	}
}

func groupExists(pgid int) bool {
	return !errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH)
}

func TestStartPipesCwdAndEnv(t *testing.T) {
	dir := t.TempDir()
	cmd := sh(`echo "cwd=$(pwd -P)"; echo "env=$AGENT_TEST_VAR"; while read -r line; do echo "got:$line"; done`)
	cmd.Env = []string{"AGENT_TEST_VAR=from-command"}
	p, err := Start(context.Background(), cmd, dir, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	out := bufio.NewReader(p.Stdout())
	realDir, _ := filepath.EvalSymlinks(dir)
	if got := readLineFrom(t, out); got != "cwd="+realDir {
		t.Errorf("first line %q, want cwd=%s", got, realDir)
	}
	if got := readLineFrom(t, out); got != "env=from-command" {
		t.Errorf("second line %q, want env=from-command", got)
	}
	if _, err := io.WriteString(p.Stdin(), "ping\n"); err != nil {
		t.Fatal(err)
	}
	if got := readLineFrom(t, out); got != "got:ping" {
		t.Errorf("echo %q, want got:ping", got)
	}
	// A well-behaved agent exits on stdin close: Stop needs no signal.
	if err := p.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if err := p.ExitErr(); err != nil {
		t.Errorf("ExitErr = %v, want nil (exit 0 after stdin closed)", err)
	}
	readsEOF(t, out)
}

// readsEOF fails unless r ends (EOF) with nothing more on it; a stdout
// left open fails the test at once instead of blocking it until go test's
// own timeout.
func readsEOF(t *testing.T, r *bufio.Reader) {
	t.Helper()
	ch := make(chan error, 1)
	go func() {
		_, err := r.ReadString('\n')
		ch <- err
	}()
	select {
	case err := <-ch:
		if err != io.EOF {
			t.Errorf("stdout after exit: %v, want EOF", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("stdout is still open after the agent exited")
	}
}

func TestOwnProcessGroup(t *testing.T) {
	p := start(t, sh(`read x`))
	pgid, err := syscall.Getpgid(p.Pid())
	if err != nil {
		t.Fatal(err)
	}
	if pgid != p.Pid() {
		t.Errorf("pgid = %d, want the agent's own pid %d", pgid, p.Pid())
	}
	if pgid == syscall.Getpgrp() {
		t.Error("agent shares our process group")
	}
}

func TestOutputSurvivesFastExit(t *testing.T) {
	// The agent writes its last words and exits before anyone reads them.
	p := start(t, sh(`printf 'last words\n'; exit 3`))
	waitDone(t, p)
	b, err := io.ReadAll(p.Stdout())
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "last words\n" {
		t.Errorf("stdout %q, want the output written before exit", b)
	}
	var ee *ExitError
	if !errors.As(p.ExitErr(), &ee) || ee.Code != 3 {
		t.Errorf("ExitErr = %v, want exit status 3", p.ExitErr())
	}
}

func TestStderrTailKeepsLastLines(t *testing.T) {
	tests := []struct {
		name      string
		script    string
		wantLen   int
		wantLast  string
		wantFirst string
	}{
		{
			name:    "few lines kept whole, blank lines dropped",
			script:  `echo one >&2; echo >&2; printf 'two\r\n' >&2; printf 'three' >&2`,
			wantLen: 3, wantFirst: "one", wantLast: "three",
		},
		{
			name:    "many lines: the last 50",
			script:  `i=1; while [ $i -le 200 ]; do echo "line $i" >&2; i=$((i+1)); done`,
			wantLen: tailLines, wantFirst: "line 151", wantLast: "line 200",
		},
		{
			name:    "over-long line is cut",
			script:  `head -c 100000 /dev/zero | tr '\0' 'a' >&2; echo >&2; echo after >&2`,
			wantLen: 2, wantFirst: strings.Repeat("a", maxLineBytes) + " …[truncated]", wantLast: "after",
		},
		{
			name:    "byte bound wins over line count",
			script:  `i=1; while [ $i -le 40 ]; do head -c 1000 /dev/zero | tr '\0' 'b' >&2; echo " $i" >&2; i=$((i+1)); done`,
			wantLen: 16, wantFirst: strings.Repeat("b", 1000) + " 25", wantLast: strings.Repeat("b", 1000) + " 40",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := start(t, sh(tt.script))
			waitDone(t, p)
			// Done waits for stderr's EOF: the tail is complete now.
			tail := p.StderrTail()
			if len(tail) != tt.wantLen {
				t.Fatalf("tail has %d lines, want %d: %q", len(tail), tt.wantLen, tail)
			}
			if tt.wantFirst != "" && tail[0] != tt.wantFirst {
				t.Errorf("first kept line %q, want %q", tail[0], tt.wantFirst)
			}
			if tail[len(tail)-1] != tt.wantLast {
				t.Errorf("last line %q, want %q", tail[len(tail)-1], tt.wantLast)
			}
			total := 0
			for _, l := range tail {
				total += len(l)
			}
			if total > tailBytes {
				t.Errorf("tail holds %d bytes, bound is %d", total, tailBytes)
			}
		})
	}
}

func TestStderrFloodDoesNotBlockTheAgent(t *testing.T) {
	// 100 MB of stderr, then an answer on stdout: if we stopped draining
	// stderr the agent would block on a full pipe and never answer.
	p := start(t, sh(`yes 'flooding stderr with a line of noise that goes on for a while ...' | head -c 100000000 >&2; echo answered`))
	out := bufio.NewReader(p.Stdout())
	if got := readLineFrom(t, out); got != "answered" {
		t.Fatalf("stdout %q, want answered", got)
	}
	waitDone(t, p)
	tail := p.StderrTail()
	if len(tail) == 0 || len(tail) > tailLines {
		t.Fatalf("tail has %d lines", len(tail))
	}
}

func TestStopEscalatesAndKillsTheWholeGroup(t *testing.T) {
	tests := []struct {
		name       string
		script     string
		wantSignal syscall.Signal
	}{
		{
			name:       "ignores stdin close, obeys SIGTERM",
			script:     `sleep 300 & echo ready; while :; do sleep 1; done`,
			wantSignal: syscall.SIGTERM,
		},
		{
			name: "ignores stdin close and SIGTERM, grandchild too",
			script: `trap '' TERM; (trap '' TERM; sleep 300) & sh -c 'trap "" TERM; sleep 300' &
				echo ready; while :; do sleep 1; done`,
			wantSignal: syscall.SIGKILL,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := start(t, sh(tt.script))
			if got := readLineFrom(t, bufio.NewReader(p.Stdout())); got != "ready" {
				t.Fatalf("stdout %q, want ready", got)
			}
			pgid := p.Pid()
			if err := p.Stop(); err != nil {
				t.Fatalf("Stop: %v", err)
			}
			select {
			case <-p.Done():
			default:
				t.Fatal("Stop returned before the agent was reaped")
			}
			var ee *ExitError
			if !errors.As(p.ExitErr(), &ee) {
				t.Fatalf("ExitErr = %v, want a signal exit", p.ExitErr())
			}
			if ee.Signal != tt.wantSignal {
				t.Errorf("agent ended by %v, want %v", ee, tt.wantSignal)
			}
			if groupExists(pgid) {
				t.Errorf("process group %d still has members after Stop", pgid)
			}
		})
	}
}

func TestStopIsIdempotentAndConcurrent(t *testing.T) {
	p := start(t, sh(`trap '' TERM; echo ready; while :; do sleep 1; done`))
	readLineFrom(t, bufio.NewReader(p.Stdout()))
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = p.Stop()
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Stop #%d: %v", i, err)
		}
	}
	if err := p.Stop(); err != nil {
		t.Errorf("Stop after Stop: %v", err)
	}
	if groupExists(p.Pid()) {
		t.Error("group survived Stop")
	}
}

func TestKillIsImmediate(t *testing.T) {
	p := start(t, sh(`trap '' TERM; sleep 300 & echo ready; while :; do sleep 1; done`))
	readLineFrom(t, bufio.NewReader(p.Stdout()))
	p.Kill()
	waitDone(t, p)
	var ee *ExitError
	if !errors.As(p.ExitErr(), &ee) || ee.Signal != syscall.SIGKILL {
		t.Errorf("ExitErr = %v, want killed", p.ExitErr())
	}
	// Stop afterwards still works and collects the orphaned sleep.
	if err := p.Stop(); err != nil {
		t.Fatalf("Stop after Kill: %v", err)
	}
	if groupExists(p.Pid()) {
		t.Error("group survived Kill + Stop")
	}
}

func TestContextCancelStopsTheAgent(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p, err := Start(ctx, sh(`echo ready; while :; do sleep 1; done`), t.TempDir(), zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	readLineFrom(t, bufio.NewReader(p.Stdout()))
	cancel()
	waitDone(t, p)
}

func TestStartErrors(t *testing.T) {
	dir := t.TempDir()
	notExe := filepath.Join(dir, "agent.txt")
	if err := os.WriteFile(notExe, []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		cmd      Command
		dir      string
		want     []string
		notFound bool
	}{
		{
			name:     "missing executable",
			cmd:      Command{Path: "/nonexistent/codex-acp", Args: []string{"--acp"}, Reason: "It was set in the settings."},
			dir:      dir,
			want:     []string{"/nonexistent/codex-acp --acp", "It was set in the settings."},
			notFound: true,
		},
		{
			name:     "not executable",
			cmd:      Command{Path: notExe, Reason: "Because."},
			dir:      dir,
			want:     []string{notExe, "Because."},
			notFound: true,
		},
		{
			name: "empty command",
			cmd:  Command{Reason: "Nothing chosen."},
			dir:  dir,
			want: []string{"empty command", "Nothing chosen."},
		},
		{
			name: "missing working directory",
			cmd:  sh("true"),
			dir:  filepath.Join(dir, "gone"),
			want: []string{"working directory", "gone"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Start(context.Background(), tt.cmd, tt.dir, zerolog.Nop())
			if err == nil {
				p.Kill()
				t.Fatal("Start succeeded")
			}
			for _, s := range tt.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
			if errors.Is(err, ErrNotFound) != tt.notFound {
				t.Errorf("errors.Is(ErrNotFound) = %v, want %v", !tt.notFound, tt.notFound)
			}
		})
	}
}

func TestStderrIsLogged(t *testing.T) {
	var buf syncBuffer
	log := zerolog.New(&buf).Level(zerolog.DebugLevel)
	p, err := Start(context.Background(), sh(`i=0; while [ $i -lt 500 ]; do echo "noise $i" >&2; i=$((i+1)); done`), t.TempDir(), log)
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, p)
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	logged := strings.Count(buf.String(), `"message":"agent stderr"`)
	if logged == 0 || logged > 500 {
		t.Errorf("%d stderr lines logged, want some", logged)
	}
	if logged < 500 && !strings.Contains(buf.String(), "rate limit") {
		t.Errorf("only %d of 500 lines logged without saying how many were dropped", logged)
	}
	if !strings.Contains(buf.String(), `"line":"noise 0"`) {
		t.Error("first stderr line not logged")
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// BenchmarkStartStop is the process cost a fresh (non-warm) turn pays:
// spawn in a new group, then the polite teardown of an agent that exits
// when its stdin closes.
func BenchmarkStartStop(b *testing.B) {
	dir := b.TempDir()
	cmd := Command{Path: "/bin/cat", Reason: "benchmark"}
	for i := 0; i < b.N; i++ {
		p, err := Start(context.Background(), cmd, dir, zerolog.Nop())
		if err != nil {
			b.Fatal(err)
		}
		if err := p.Stop(); err != nil {
			b.Fatal(err)
		}
	}
}
