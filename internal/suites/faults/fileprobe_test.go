//go:build linux

package faults

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"cdxtheme/internal/testrig/testbin"
)

// The file rows run the real headless binary (`go build .`, no cgo, as
// the CLI contract says) and measure what it costs: wall time against a
// generous bound (a hang must end) and the kernel's peak resident set
// (wait4's ru_maxrss, taken by testdata/maxrss) against a memory bound.

var (
	cdxOnce sync.Once
	rssBin  string // testdata/maxrss, which measures the CLI
	cdxErr  error
)

func cdxtheme(t *testing.T) (cli, maxrss string) {
	t.Helper()
	cdxOnce.Do(func() {
		dir, err := os.MkdirTemp("", "cdxtheme-faults-cli-")
		if err != nil {
			cdxErr = err
			return
		}
		rssBin = filepath.Join(dir, "maxrss")
		cdxErr = goBuild(rssBin, "./testdata/maxrss")
	})
	if cdxErr != nil {
		t.Fatal(cdxErr)
	}
	return testbin.CLI(t), rssBin
}

// cliRunBounds is what a run may cost before the row fails.
type cliRunBounds struct {
	time time.Duration
	rss  int64 // bytes
}

// procRun is one finished run of the binary.
type procRun struct {
	code   int
	out    *clippedWriter // stdout: its size, start and end
	stderr string
	took   time.Duration
	maxRSS int64 // bytes
}

// runCdx runs the binary with the test's environment (t.Setenv) and fails
// the row when it runs past b.time (it is killed) or peaks above b.rss.
func runCdx(t *testing.T, b cliRunBounds, args ...string) procRun {
	t.Helper()
	cli, maxrss := cdxtheme(t) // built first: the build is not the run's time
	ctx, cancel := context.WithTimeout(context.Background(), b.time)
	defer cancel()
	rssFile := filepath.Join(t.TempDir(), "maxrss")
	cmd := exec.CommandContext(ctx, maxrss, append([]string{rssFile, cli}, args...)...)
	cmd.Env = os.Environ()
	// A hung CLI is killed with the measuring helper: one process group.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	out := &clippedWriter{keep: 64 << 10}
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = out, &errb
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	r := procRun{out: out, stderr: errb.String(), took: time.Since(start), code: -1}
	if cmd.ProcessState != nil {
		r.code = cmd.ProcessState.ExitCode()
	}
	if b, rerr := os.ReadFile(rssFile); rerr == nil {
		r.maxRSS, _ = strconv.ParseInt(string(b), 10, 64)
	} else if ctx.Err() == nil {
		t.Fatalf("no peak RSS from %s: %v", maxrss, rerr)
	}
	t.Logf("cdxtheme %s: exit %d in %v, peak RSS %d MiB, %d bytes out; stderr: %.400s",
		strings.Join(args, " "), r.code, r.took.Round(time.Millisecond), r.maxRSS>>20, out.n, r.stderr)
	if ctx.Err() != nil {
		t.Fatalf("cdxtheme %s still ran after %v: killed (%v)", strings.Join(args, " "), b.time, err)
	}
	if r.maxRSS > b.rss {
		t.Errorf("cdxtheme %s peaked at %d MiB resident, bound %d MiB", strings.Join(args, " "), r.maxRSS>>20, b.rss>>20)
	}
	return r
}

// clippedWriter counts what is written and keeps its first and last keep
// bytes, so a run may print gigabytes without the test holding them.
type clippedWriter struct {
	keep int
	n    int64
	head []byte
	tail []byte
}

func (w *clippedWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	if room := w.keep - len(w.head); room > 0 {
		w.head = append(w.head, p[:min(room, len(p))]...)
	}
	w.tail = append(w.tail, p...)
	if len(w.tail) > 2*w.keep {
		w.tail = append(w.tail[:0:0], w.tail[len(w.tail)-w.keep:]...)
	}
	return len(p), nil
}

// Head and Tail are the start and the end of what was written.
func (w *clippedWriter) Head() string { return string(w.head) }
func (w *clippedWriter) Tail() string {
	if len(w.tail) > w.keep {
		return string(w.tail[len(w.tail)-w.keep:])
	}
	return string(w.tail)
}

// peakGrowth runs fn and returns how far this process's resident set rose
// above where it stood before: the kernel's high-water mark (VmHWM) is
// reset first (clear_refs 5), so it sees fn's peak, not an earlier one.
func peakGrowth(t *testing.T, fn func()) int64 {
	t.Helper()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		skipCase(t, "cannot reset the resident-set high-water mark (%v); the memory bound cannot be checked", err)
	}
	before := procStatus(t, "VmRSS")
	fn()
	peak := procStatus(t, "VmHWM")
	t.Logf("resident set: %d MiB before, peak %d MiB (+%d MiB)", before>>20, peak>>20, (peak-before)>>20)
	return peak - before
}

// procStatus reads one kB field of /proc/self/status, in bytes.
func procStatus(t *testing.T, field string) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && k == field {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("%s: %q", field, v)
			}
			return n << 10
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}

// inTime runs fn and fails the row when it has not returned after d (the
// goroutine is left behind: the row already failed).
func inTime(t *testing.T, what string, d time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	start := time.Now()
	go func() { defer close(done); fn() }()
	select {
	case <-done:
		t.Logf("%s: %v", what, time.Since(start).Round(time.Millisecond))
	case <-time.After(d):
		t.Fatalf("%s still blocked after %v", what, d)
	}
}

// untouched snapshots dir and fails the row at cleanup if anything in it
// changed: what a planted link points at must never be written.
func untouched(t *testing.T, dir string) {
	t.Helper()
	before, err := Take(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		after, err := Take(dir)
		if err != nil {
			t.Errorf("snapshot %s: %v", dir, err)
			return
		}
		if d := before.Diff(after); len(d) > 0 {
			t.Errorf("written outside the workspace, in %s:\n  %s", dir, strings.Join(d, "\n  "))
		}
	})
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		skipCase(t, "mkfifo %s: %v", path, err)
	}
}

func mustContain(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s does not tell the user %q:\n%s", what, w, got)
		}
	}
}
