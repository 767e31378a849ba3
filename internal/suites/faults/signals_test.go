//go:build unix

package faults

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"cdxtheme/core/procfs"
	"cdxtheme/internal/testrig/fakeagent/fakeagenttest"
	"cdxtheme/internal/testrig/syncbuf"
	"cdxtheme/internal/testrig/testbin"
)

// The front end dies mid-turn: each signal, SIGKILL included, sent to the
// real `cdxtheme chat` binary and to the real production desktop app while
// the fake agent works with a grandchild below it (the shape of codex-acp
// and its `codex app-server`). Afterwards no process of the agent's group
// may be left, nor any process carrying the case's marker.
func TestSignalFaults(t *testing.T) {
	var cases []matrixCase
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGKILL} {
		cases = append(cases, matrixCase{fmt.Sprintf("CLI: %s mid-turn", signalName(sig)), func(t *testing.T) { caseCLISignal(t, sig) }})
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGKILL} {
		cases = append(cases, matrixCase{fmt.Sprintf("app: %s mid-turn", signalName(sig)), func(t *testing.T) { caseAppSignal(t, sig) }})
	}
	runMatrix(t, cases)
}

func signalName(s syscall.Signal) string {
	return map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP", syscall.SIGKILL: "SIGKILL"}[s]
}

// realCLI builds the headless binary as the CLI contract promises (plain
// go build, no cgo, no tags).
func realCLI(t *testing.T) string {
	t.Helper()
	return testbin.CLI(t)
}

// frontEnd is one front-end process under test and the agent it runs.
type frontEnd struct {
	t        *testing.T
	cmd      *exec.Cmd
	marker   string
	pidsFile string
	root     string
	output   syncbuf.Buffer // stdout and stderr
	exited   chan struct{}
	state    *os.ProcessState
}

// newFrontEnd prepares a front end's environment: a fresh config and data
// folder, a guarded CODEX_HOME, the fake agent in the grandchild scenario
// and the case's marker in every process it starts.
func newFrontEnd(t *testing.T) *frontEnd {
	t.Helper()
	if err := procfs.Available(); err != nil {
		skipCase(t, "the process checks cannot look here: %v", err)
	}
	root := t.TempDir()
	f := &frontEnd{
		t:        t,
		root:     root,
		marker:   fmt.Sprintf("CDXTHEME_FAULTS_CASE=%d-%d", os.Getpid(), caseSeq.Add(1)),
		pidsFile: filepath.Join(root, "agent.pids"),
		exited:   make(chan struct{}),
	}
	home := guardHome(t, filepath.Join(root, "codex-home"))
	f.cmd = &exec.Cmd{Env: append(os.Environ(),
		f.marker,
		"CODEX_HOME="+home,
		"CDXTHEME_CONFIG_DIR="+filepath.Join(root, "config"),
		"CDXTHEME_DATA_DIR="+filepath.Join(root, "data"),
		"CDXTHEME_NO_KEYRING=1",
		"CDXTHEME_AGENT="+strconv.Quote(fakeagenttest.Build(t)),
		"FAKE_AGENT_SCENARIO=grandchild",
		"FAKE_AGENT_STATE="+filepath.Join(root, "agent-state"),
		"FAKE_AGENT_PIDS="+f.pidsFile,
	)}
	// One writer for both: exec copies them in one goroutine, and String
	// reads it while they run.
	f.cmd.Stdout, f.cmd.Stderr = &f.output, &f.output
	return f
}

func (f *frontEnd) start() {
	f.t.Helper()
	if err := f.cmd.Start(); err != nil {
		f.t.Fatal(err)
	}
	go func() {
		f.cmd.Wait()
		f.state = f.cmd.ProcessState
		close(f.exited)
	}()
	f.t.Cleanup(func() {
		select {
		case <-f.exited:
		default:
			f.cmd.Process.Kill()
			<-f.exited
		}
	})
}

// midTurn waits until the agent works on the turn and has started its
// grandchild, and returns the agent's process group and the grandchild.
func (f *frontEnd) midTurn(within time.Duration) (pgid, grandchild int) {
	f.t.Helper()
	deadline := time.Now().Add(within)
	for {
		if b, err := os.ReadFile(f.pidsFile); err == nil {
			var agentPid int
			if _, err := fmt.Sscanf(string(b), "%d %d", &agentPid, &grandchild); err == nil {
				p, ok := procfs.Lookup(agentPid)
				if !ok {
					f.t.Fatalf("the agent %d is gone before the signal", agentPid)
				}
				if p.PGID == agentPid {
					f.t.Errorf("the agent %d leads its own group: no shim guards it", agentPid)
				}
				return p.PGID, grandchild
			}
		}
		select {
		case <-f.exited:
			f.t.Fatalf("the front end exited before the turn got going (%v):\n%s", f.state, f.output.String())
		default:
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("no agent at work after %s:\n%s", within, f.output.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitExit waits for the front end to end after the signal.
func (f *frontEnd) waitExit(within time.Duration) *os.ProcessState {
	f.t.Helper()
	select {
	case <-f.exited:
		return f.state
	case <-time.After(within):
		f.t.Fatalf("the front end did not end within %s of the signal:\n%s", within, f.output.String())
		return nil
	}
}

// assertNothingLeft polls until the agent's group and every marked process
// are gone; a bound, not a timing assertion.
func (f *frontEnd) assertNothingLeft(pgid, grandchild int) {
	f.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		gone, live := GroupGone(pgid)
		marked, err := Marked(f.marker)
		if errors.Is(err, ErrNoProc) {
			skipCase(f.t, "the process checks cannot look here: %v", err)
		}
		if gone && len(marked) == 0 {
			break
		}
		if time.Now().After(deadline) {
			f.t.Errorf("left behind after the front end ended: group %d %v, marked %v", pgid, live, marked)
			syscall.Kill(-pgid, syscall.SIGKILL)
			for _, p := range marked {
				syscall.Kill(p.PID, syscall.SIGKILL)
			}
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	if p, ok := Lookup(grandchild); ok && !p.Zombie() {
		f.t.Errorf("the grandchild survived: %v", p)
	}
}

func caseCLISignal(t *testing.T, sig syscall.Signal) {
	f := newFrontEnd(t)
	cwd := filepath.Join(f.root, "workspace")
	os.MkdirAll(cwd, 0o755)
	f.cmd.Path = realCLI(t)
	f.cmd.Args = []string{f.cmd.Path, "chat", "--cwd", cwd, "--timeout", "5m", "work until stopped"}
	f.start()
	pgid, grandchild := f.midTurn(60 * time.Second)
	f.cmd.Process.Signal(sig)
	st := f.waitExit(30 * time.Second)
	ws := st.Sys().(syscall.WaitStatus)
	if sig == syscall.SIGKILL {
		if !ws.Signaled() {
			t.Errorf("exit %v after SIGKILL", st)
		}
	} else {
		// Handled, not the default death: the turn was cancelled and the
		// exit code says by what, as a shell would.
		if ws.Signaled() || st.ExitCode() != 128+int(sig) {
			t.Errorf("exit %v, want a handled exit with code %d", st, 128+int(sig))
		}
		if !strings.Contains(f.output.String(), "stop: cancelled") {
			t.Errorf("the CLI did not report the turn cancelled:\n%s", f.output.String())
		}
	}
	f.assertNothingLeft(pgid, grandchild)
}

// appBinary is the production binary, built by `make build` (the faults
// target depends on it and names it in CDXTHEME_APP_BIN).
func appBinary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("CDXTHEME_APP_BIN")
	required := bin != ""
	if bin == "" {
		bin = filepath.Join("..", "..", "..", "build", "bin", "cdxtheme")
	}
	if _, err := os.Stat(bin); err != nil {
		if required {
			t.Fatalf("CDXTHEME_APP_BIN=%s: %v", bin, err)
		}
		skipCase(t, "no production binary at %s (make build; make faults builds it)", bin)
	}
	abs, _ := filepath.Abs(bin)
	return abs
}

var (
	displayOnce sync.Once
	display     string
	displayErr  error
)

// sharedDisplay starts one Xvfb and one session bus for every app case
// (lean: four launches, one server), as scripts/window-test.sh gives the
// app a virtual screen and a private bus. The app runs as this process's
// own child so its exact exit status can be read.
func sharedDisplay(t *testing.T) (string, string) {
	t.Helper()
	for _, p := range []string{"Xvfb", "dbus-daemon"} {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv("CDXTHEME_APP_BIN") != "" {
				t.Fatalf("%s is needed for the app cases: %v", p, err)
			}
			skipCase(t, "%s not installed (make deps installs it)", p)
		}
	}
	displayOnce.Do(func() { display, displayErr = startDisplay() })
	if displayErr != nil {
		t.Fatal(displayErr)
	}
	d, bus, _ := strings.Cut(display, "\n")
	return d, bus
}

// stopAfter ends a shared server when the cases are done.
func stopAfter(c *exec.Cmd) {
	atExit = append(atExit, func() {
		c.Process.Kill()
		c.Wait()
	})
}

func startDisplay() (string, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return "", err
	}
	x := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp")
	x.ExtraFiles = []*os.File{w}
	x.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := x.Start(); err != nil {
		return "", fmt.Errorf("start Xvfb: %w", err)
	}
	w.Close()
	stopAfter(x)
	num, err := readLineWithin(r, 30*time.Second)
	r.Close()
	if err != nil {
		return "", fmt.Errorf("Xvfb did not say its display: %w", err)
	}
	bus := exec.Command("dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1")
	bus.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := bus.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := bus.Start(); err != nil {
		return "", fmt.Errorf("start dbus-daemon: %w", err)
	}
	stopAfter(bus)
	addr, err := readLineWithin(out, 30*time.Second)
	if err != nil {
		return "", fmt.Errorf("dbus-daemon did not say its address: %w", err)
	}
	return ":" + num + "\n" + addr, nil
}

func readLineWithin(r io.Reader, d time.Duration) (string, error) {
	ch := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		ch <- strings.TrimSpace(s)
	}()
	select {
	case s := <-ch:
		if s == "" {
			return "", errors.New("nothing read")
		}
		return s, nil
	case <-time.After(d):
		return "", errors.New("timed out")
	}
}

func caseAppSignal(t *testing.T, sig syscall.Signal) {
	bin := appBinary(t)
	disp, bus := sharedDisplay(t)
	f := newFrontEnd(t)
	f.cmd.Path = bin
	f.cmd.Args = []string{bin}
	f.cmd.Env = append(f.cmd.Env,
		"DISPLAY="+disp, "DBUS_SESSION_BUS_ADDRESS="+bus, "NO_AT_BRIDGE=1", "WAYLAND_DISPLAY=",
		// The self-test sends this prompt through New Build at start.
		"CDXTHEME_SELFTEST_OUT="+filepath.Join(f.root, "selftest.json"),
		"CDXTHEME_SELFTEST_PROMPT=Work until stopped",
		"CDXTHEME_SELFTEST_STAY=1",
	)
	f.start()
	pgid, grandchild := f.midTurn(90 * time.Second)
	f.cmd.Process.Signal(sig)
	st := f.waitExit(30 * time.Second)
	ws := st.Sys().(syscall.WaitStatus)
	if sig == syscall.SIGKILL {
		if !ws.Signaled() {
			t.Errorf("exit %v after SIGKILL", st)
		}
	} else if ws.Signaled() {
		// The default action would have killed it without a teardown.
		t.Errorf("the app died of %v instead of handling it", ws.Signal())
	}
	f.assertNothingLeft(pgid, grandchild)
}
