//go:build windows

package agent

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/sys/windows"
)

// The process trees of these tests are this test binary started again in
// a role (treeRoleEnv):
//
//	app        Start()s an agent, prints "agent PID grandchild PID", waits
//	agent      starts a middle that starts the grandchild; prints
//	           "grandchild PID"; then hangs, or exits on stdin EOF (exit-on-eof)
//	middle     starts the grandchild, prints its pid and exits, so the
//	           grandchild is an orphan that taskkill /T cannot find
//	grandchild waits to be killed
const treeRoleEnv = "CDXTHEME_TREE_ROLE"

func TestHelperTree(t *testing.T) {
	role := os.Getenv(treeRoleEnv)
	if role == "" {
		t.Skip("helper process for the Job Object tests")
	}
	switch role {
	case "grandchild":
		// Held by the test's own handle; ends only when something kills it.
		time.Sleep(time.Hour)
	case "middle":
		c := treeCmd("grandchild")
		if err := c.Start(); err != nil {
			fail("start grandchild: %v", err)
		}
		fmt.Println(c.Process.Pid)
	case "agent", "agent-exit-on-eof":
		out, err := treeCmd("middle").Output()
		if err != nil {
			fail("middle: %v", err)
		}
		fmt.Printf("grandchild %s\n", strings.TrimSpace(string(out)))
		if role == "agent" {
			time.Sleep(time.Hour)
		}
		io.Copy(io.Discard, os.Stdin)
	case "app":
		p, err := Start(context.Background(), treeCommand("agent"), os.TempDir(), zerolog.Nop())
		if err != nil {
			fail("start agent: %v", err)
		}
		line, err := bufio.NewReader(p.Stdout()).ReadString('\n')
		if err != nil {
			fail("agent said %q: %v", line, err)
		}
		fmt.Printf("agent %d %s", p.AgentPid(), line)
		time.Sleep(time.Hour)
	}
	os.Exit(0)
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(3)
}

func treeCommand(role string) Command {
	return Command{Path: os.Args[0], Args: []string{"-test.run=^TestHelperTree$"}, Env: []string{treeRoleEnv + "=" + role}, Source: "test", Reason: "the test's process tree"}
}

// treeCmd starts a role with no standard streams of its parent but stdout,
// so no pipe of the agent is held open by what it starts.
func treeCmd(role string) *exec.Cmd {
	c := exec.Command(os.Args[0], "-test.run=^TestHelperTree$")
	c.Env = append(os.Environ(), treeRoleEnv+"="+role)
	return c
}

// pidAfter reads "WORD PID" from r and opens the process (the handle keeps
// the pid from being reused while the test waits on it).
func pidAfter(t *testing.T, r *bufio.Reader, word string) windows.Handle {
	t.Helper()
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("read %s pid: %q, %v", word, line, err)
	}
	f := strings.Fields(line)
	for i := 0; i+1 < len(f); i++ {
		if f[i] == word {
			pid, err := strconv.Atoi(f[i+1])
			if err != nil {
				break
			}
			h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
			if err != nil {
				t.Fatalf("open %s %d: %v", word, pid, err)
			}
			t.Cleanup(func() {
				windows.TerminateProcess(h, 1)
				windows.CloseHandle(h)
			})
			return h
		}
	}
	t.Fatalf("no %s pid in %q", word, line)
	return 0
}

// requireGone fails unless the process has ended; the bound only keeps a
// broken teardown from hanging the run.
func requireGone(t *testing.T, h windows.Handle, what string) {
	t.Helper()
	ev, err := windows.WaitForSingleObject(h, 20000)
	if err != nil || ev != windows.WAIT_OBJECT_0 {
		t.Errorf("the %s is still running (wait: %d, %v)", what, ev, err)
	}
}

// chat --timeout and Stop end the agent through its context: the orphaned
// grandchild, which no parent link leads to, goes with it.
func TestContextEndsTheAgentsWholeTree(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, err := Start(ctx, treeCommand("agent"), os.TempDir(), zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	if p.tree == nil {
		t.Fatal("the agent runs outside a job object")
	}
	gc := pidAfter(t, bufio.NewReader(p.Stdout()), "grandchild")
	cancel()
	if err := p.Stop(); err != nil {
		t.Errorf("Stop: %v", err)
	}
	requireGone(t, gc, "grandchild")
}

// An agent that exits on stdin EOF takes what it left behind with it.
func TestAgentExitEndsWhatItLeft(t *testing.T) {
	p, err := Start(context.Background(), treeCommand("agent-exit-on-eof"), os.TempDir(), zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	gc := pidAfter(t, bufio.NewReader(p.Stdout()), "grandchild")
	p.Stdin().Close()
	<-p.Done()
	if err := p.ExitErr(); err != nil {
		t.Errorf("the agent's own exit was lost: %v", err)
	}
	requireGone(t, gc, "grandchild")
}

// The app ended abruptly (a crash, Task Manager's End task) runs no
// teardown at all: its job handle closing must end the tree.
func TestAppKilledEndsTheAgentsTree(t *testing.T) {
	app := treeCmd("app")
	out, err := app.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	app.Stderr = os.Stderr
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	defer app.Process.Kill()
	// One line names both: "agent PID grandchild PID".
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the app said %q: %v", line, err)
	}
	ag := pidAfter(t, bufio.NewReader(strings.NewReader(line)), "agent")
	gc := pidAfter(t, bufio.NewReader(strings.NewReader(line)), "grandchild")
	if err := app.Process.Kill(); err != nil { // TerminateProcess, as Task Manager does
		t.Fatal(err)
	}
	app.Wait()
	requireGone(t, ag, "agent")
	requireGone(t, gc, "grandchild")
}
