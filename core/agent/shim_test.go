//go:build unix

package agent

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"cdxtheme/core/procfs"

	"github.com/rs/zerolog"
)

// treeScript starts a grandchild and says which it is: the shape of
// codex-acp, whose node process runs `codex app-server` below it.
const treeScript = `sleep 300 & echo "ready $!"; wait`

func TestTheShimLeadsTheAgentsGroup(t *testing.T) {
	p := start(t, sh(treeScript))
	line := readLineFrom(t, bufio.NewReader(p.Stdout()))
	grandchild, _ := strconv.Atoi(strings.TrimPrefix(line, "ready "))
	if p.AgentPid() == p.Pid() {
		t.Fatalf("the agent %d leads its own group: no shim ran", p.AgentPid())
	}
	for _, pid := range []int{p.Pid(), p.AgentPid(), grandchild} {
		if g, err := syscall.Getpgid(pid); err != nil || g != p.Pid() {
			t.Errorf("process %d is in group %d (%v), want the shim's %d", pid, g, err, p.Pid())
		}
	}
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
	if groupExists(p.Pid()) {
		t.Error("the group survived Stop")
	}
}

// The agent exiting on its own takes what it left in the group along, and
// its exit status comes through the shim unchanged.
func TestAgentExitEndsItsGroupAndKeepsItsStatus(t *testing.T) {
	p := start(t, sh(`sleep 300 & echo "ready $!"; read x; exit 7`))
	line := readLineFrom(t, bufio.NewReader(p.Stdout()))
	grandchild, _ := strconv.Atoi(strings.TrimPrefix(line, "ready "))
	p.Stdin().Write([]byte("bye\n"))
	waitDone(t, p)
	var ee *ExitError
	if !errors.As(p.ExitErr(), &ee) || ee.Code != 7 || ee.Signal != 0 {
		t.Errorf("ExitErr = %v, want exit status 7", p.ExitErr())
	}
	waitGone(t, grandchild)
}

// A shim that does not speak the protocol (another release's, a broken
// file) costs nothing but the guard: the agent starts without it.
func TestABrokenShimFallsBackToADirectStart(t *testing.T) {
	old := shimPath
	shimPath = func() string { return "/bin/true" }
	defer func() { shimPath = old }()
	p := start(t, sh(`echo ready; read x`))
	if got := readLineFrom(t, bufio.NewReader(p.Stdout())); got != "ready" {
		t.Fatalf("stdout %q", got)
	}
	if p.AgentPid() != p.Pid() {
		t.Errorf("agent %d, group %d: want the agent leading its group", p.AgentPid(), p.Pid())
	}
	if err := p.Stop(); err != nil {
		t.Fatal(err)
	}
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		p, ok := procfs.Lookup(pid)
		if err := procfs.Available(); err != nil {
			if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
				return
			}
		} else if !ok || p.Zombie() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d still alive: %v", pid, p)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// parentEnv makes this test binary play a front end: it starts the tree
// and prints "group PGID grandchild PID", then does what the mode says.
const parentEnv = "AGENT_TEST_PARENT_MODE"

func TestHelperFrontEnd(t *testing.T) {
	mode := os.Getenv(parentEnv)
	if mode == "" {
		t.Skip("the front end helper runs only in a child process")
	}
	script := treeScript
	switch mode {
	case "release":
		// Saves its session for a while after stdin closes, talking on
		// stderr meanwhile (which the front end no longer reads).
		script = `echo "ready $$"; while read x; do :; done; sleep 0.3; echo saving >&2; echo saved > "$AGENT_TEST_SAVE"`
	case "release-stuck":
		script = `trap '' TERM HUP; sleep 300 & echo "ready $!"; while read x; do :; done; wait`
		exitGrace = 200 * time.Millisecond
	}
	started := make(chan *Process, 1)
	start := func() {
		p, err := Start(context.Background(), sh(script), os.TempDir(), zerolog.Nop())
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		started <- p
	}
	if mode == "no-shim" {
		shimPath = func() string { return "/bin/true" }
	}
	if mode == "thread-exit" {
		// The goroutine that started the agent ends on a locked thread,
		// which the runtime then terminates: a naive parent-death signal
		// would fire now (golang/go#27505).
		go func() {
			runtime.LockOSThread()
			start()
		}()
	} else {
		start()
	}
	p := <-started
	line := readLineFrom(t, bufio.NewReader(p.Stdout()))
	fmt.Printf("group %d %s\n", p.Pid(), line)
	os.Stdout.Sync()
	if strings.HasPrefix(mode, "release") {
		// A CLI whose turn is done: it lets the agent go and exits at once.
		p.Release()
		os.Exit(0)
	}
	select {} // until the test kills this process
}

// helperFrontEnd runs TestHelperFrontEnd in mode and returns the agent's
// group and the pid on its ready line once it is running.
func helperFrontEnd(t *testing.T, mode string, env ...string) (cmd *exec.Cmd, pgid, pid int) {
	t.Helper()
	cmd = exec.Command(os.Args[0], "-test.run=^TestHelperFrontEnd$", "-test.v")
	cmd.Env = append(append(os.Environ(), parentEnv+"="+mode), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	sc := bufio.NewScanner(out)
	for pgid == 0 && sc.Scan() {
		fmt.Sscanf(sc.Text(), "group %d ready %d", &pgid, &pid)
	}
	if pgid == 0 || pid == 0 {
		t.Fatalf("the helper never started its agent (%v)", sc.Err())
	}
	go io.Copy(io.Discard, out)
	return cmd, pgid, pid
}

// waitGroupGone waits (10 s at most) until group pgid has no live process;
// this test process is a subreaper, so the orphans are ours to reap.
func waitGroupGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var ws syscall.WaitStatus
		for pid, _ := syscall.Wait4(-pgid, &ws, syscall.WNOHANG, nil); pid > 0; pid, _ = syscall.Wait4(-pgid, &ws, syscall.WNOHANG, nil) {
		}
		if !groupExists(pgid) || onlyZombies(pgid) {
			return
		}
		if time.Now().After(deadline) {
			live, _ := procfs.LiveInGroup(pgid)
			syscall.Kill(-pgid, syscall.SIGKILL)
			t.Fatalf("group %d outlived its front end: %v", pgid, live)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A front end that lets its agent go after a finished turn and exits at
// once must not cut the agent's last work short: the shim gives it its
// grace, stderr still open, then the group goes.
func TestReleasedAgentFinishesAfterItsFrontEndExits(t *testing.T) {
	save := filepath.Join(t.TempDir(), "session")
	cmd, pgid, _ := helperFrontEnd(t, "release", "AGENT_TEST_SAVE="+save)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("front end: %v", err)
	}
	waitGroupGone(t, pgid)
	if b, err := os.ReadFile(save); err != nil || string(b) != "saved\n" {
		t.Fatalf("the agent did not finish saving after its front end left: %q, %v", b, err)
	}
}

// The grace has an end: an agent that ignores its closed stdin (and
// SIGTERM) is killed with its whole group, the front end long gone.
func TestReleasedAgentThatStaysIsKilled(t *testing.T) {
	cmd, pgid, grandchild := helperFrontEnd(t, "release-stuck")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("front end: %v", err)
	}
	waitGone(t, grandchild)
	waitGroupGone(t, pgid)
}

// TestParentDeathKillsTheWholeGroup kills the front end with SIGKILL: no
// teardown of its own runs, yet the agent and its grandchild must go.
func TestParentDeathKillsTheWholeGroup(t *testing.T) {
	for _, mode := range []string{"plain", "thread-exit", "no-shim"} {
		t.Run(mode, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperFrontEnd$", "-test.v")
			cmd.Env = append(os.Environ(), parentEnv+"="+mode)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			var pgid, grandchild int
			sc := bufio.NewScanner(out)
			for pgid == 0 && sc.Scan() {
				fmt.Sscanf(sc.Text(), "group %d ready %d", &pgid, &grandchild)
			}
			if pgid == 0 || grandchild == 0 {
				t.Fatalf("the helper never started its agent (%v)", sc.Err())
			}
			if mode == "thread-exit" {
				// The forking thread is gone; the shim must not take that
				// for its parent's death.
				time.Sleep(300 * time.Millisecond)
				if !groupExists(pgid) || syscall.Kill(grandchild, 0) != nil {
					t.Fatal("the agent died when the thread that started it ended, though its parent lives")
				}
			}
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
			if mode == "no-shim" {
				// The control: without the shim nothing outlives the front
				// end to end the group, and the check above can see that.
				time.Sleep(300 * time.Millisecond)
				alive := syscall.Kill(grandchild, 0) == nil
				syscall.Kill(-pgid, syscall.SIGKILL)
				if !alive {
					t.Fatal("without the shim the grandchild died anyway: the check proves nothing")
				}
				return
			}
			waitGone(t, grandchild)
			deadline := time.Now().Add(10 * time.Second)
			for {
				// This test process is a subreaper: the orphans are ours to reap.
				var ws syscall.WaitStatus
				for pid, _ := syscall.Wait4(-pgid, &ws, syscall.WNOHANG, nil); pid > 0; pid, _ = syscall.Wait4(-pgid, &ws, syscall.WNOHANG, nil) {
				}
				if !groupExists(pgid) || onlyZombies(pgid) {
					break
				}
				if time.Now().After(deadline) {
					live, _ := procfs.LiveInGroup(pgid)
					t.Fatalf("group %d outlived its front end: %v", pgid, live)
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}

// Stop after Release waits for the released agent's end: one that ignores
// its closed stdin and SIGTERM is killed with its group when the grace is
// up, and Stop returns only then (the app's quit waits for it).
func TestStopAfterReleaseWaitsForTheGroupToGo(t *testing.T) {
	old := exitGrace
	exitGrace = 200 * time.Millisecond
	t.Cleanup(func() { exitGrace = old })
	p := start(t, sh(`trap '' TERM HUP; echo ready; exec sleep 300`))
	if line := readLineFrom(t, bufio.NewReader(p.Stdout())); line != "ready" {
		t.Fatalf("agent said %q", line)
	}
	p.Release()
	if err := p.Stop(); err != nil {
		t.Fatalf("Stop after Release: %v", err)
	}
	if groupExists(p.Pid()) {
		t.Fatal("Stop returned while the released agent's group is still alive")
	}
}

// The shim run by hand (not with the protocol's arguments) refuses at once
// and says it is not meant to be run that way.
func TestShimRunByHandSaysSo(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd := &exec.Cmd{Path: exe, Args: []string{shimName, shimProtocol, "1"}, Stderr: &stderr}
	err = cmd.Run()
	var xe *exec.ExitError
	if !errors.As(err, &xe) || xe.ExitCode() != 2 || !strings.Contains(stderr.String(), "never by hand") {
		t.Fatalf("shim run by hand: %v, stderr %q; want exit 2 saying it is run by cdxtheme", err, stderr.String())
	}
}

// Started with the right arguments but without its two pipes (by hand, or
// by a caller that forgot them), the shim refuses before it runs anything:
// descriptors 3 and 4 may then be the Go runtime's own (its poller), which
// a bare "is it open" check took for the lifeline.
func TestShimWithoutItsPipesRefuses(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "ran")
	var stderr strings.Builder
	cmd := &exec.Cmd{Path: exe, Args: []string{shimName, shimProtocol, strconv.Itoa(os.Getpid()), "--", "/bin/sh", "-c", "touch " + marker},
		Stderr: &stderr, SysProcAttr: &syscall.SysProcAttr{Setpgid: true}}
	err = cmd.Run()
	var xe *exec.ExitError
	if !errors.As(err, &xe) || xe.ExitCode() != 2 || !strings.Contains(stderr.String(), "descriptors missing") {
		t.Fatalf("shim without its pipes: %v, stderr %q; want exit 2 saying the descriptors are missing", err, stderr.String())
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the shim ran the agent without its lifeline")
	}
}
