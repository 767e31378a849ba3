//go:build linux

package faults

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// startGroup starts `sh -c 'sleep 300 & wait'` as the leader of its own
// process group, with marker in its environment: a leader and a child.
func startGroup(t *testing.T, marker string, shell string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(shell, "-c", "sleep 300 & wait")
	cmd.Env = append(os.Environ(), marker)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	return cmd
}

// waitMarked polls until n processes carry marker (the shell forks its
// child asynchronously).
func waitMarked(t *testing.T, marker string, n int) []Proc {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ps, err := Marked(marker)
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) == n {
			return ps
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d processes carry %s, want %d: %v", len(ps), marker, n, ps)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestMarkedAndGroupGone(t *testing.T) {
	marker := "FAULTS_PROC_TEST=" + strconv.Itoa(os.Getpid()) + "-group"
	cmd := startGroup(t, marker, "/bin/sh")
	pgid := cmd.Process.Pid
	ps := waitMarked(t, marker, 2)
	for _, p := range ps {
		if p.PGID != pgid {
			t.Fatalf("%v is not in group %d", p, pgid)
		}
	}
	if got := Groups(ps); len(got) != 1 || got[0] != pgid {
		t.Fatalf("Groups = %v, want [%d]", got, pgid)
	}
	if gone, live := GroupGone(pgid); gone || len(live) != 2 {
		t.Fatalf("a running group reported gone=%v live=%v", gone, live)
	}

	syscall.Kill(-pgid, syscall.SIGKILL)
	cmd.Wait()
	// The orphaned sleep is reparented; under a PID 1 that never reaps it
	// stays a zombie, which must count as gone.
	deadline := time.Now().Add(30 * time.Second)
	for {
		gone, live := GroupGone(pgid)
		if gone {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("group %d still has live members after SIGKILL: %v", pgid, live)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if ps, _ := Marked(marker); len(ps) != 0 {
		t.Fatalf("dead processes still reported as marked: %v", ps)
	}
}

func TestReadStatOddCommand(t *testing.T) {
	// A command name with spaces and parentheses must not shift the fields.
	odd := filepath.Join(t.TempDir(), "a) (b c")
	sh, err := os.ReadFile("/bin/sh")
	if err != nil {
		t.Skip("no /bin/sh to copy")
	}
	if err := os.WriteFile(odd, sh, 0o755); err != nil {
		t.Fatal(err)
	}
	marker := "FAULTS_PROC_TEST=" + strconv.Itoa(os.Getpid()) + "-odd"
	cmd := startGroup(t, marker, odd)
	ps := waitMarked(t, marker, 2)
	var leader Proc
	for _, p := range ps {
		if p.PID == cmd.Process.Pid {
			leader = p
		}
	}
	if leader.Comm != "a) (b c" || leader.PGID != cmd.Process.Pid || leader.PPID != os.Getpid() {
		t.Fatalf("parsed %+v", leader)
	}
}

func TestWatchSeesShortLivedProcesses(t *testing.T) {
	marker := "FAULTS_PROC_TEST=" + strconv.Itoa(os.Getpid()) + "-watch"
	w := StartWatch(marker, 5*time.Millisecond)
	cmd := startGroup(t, marker, "/bin/sh")
	waitMarked(t, marker, 2)
	w.Sample()
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()
	seen, err := w.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || len(Groups(seen)) != 1 || Groups(seen)[0] != cmd.Process.Pid {
		t.Fatalf("watch saw %v", seen)
	}
	if _, ok := Lookup(os.Getpid()); !ok {
		t.Fatal("Lookup cannot find the test process itself")
	}
}

func TestDescendants(t *testing.T) {
	marker := "FAULTS_PROC_TEST=" + strconv.Itoa(os.Getpid()) + "-desc"
	cmd := startGroup(t, marker, "/bin/sh")
	waitMarked(t, marker, 2)
	ds, err := Descendants(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	var leader, grandchild bool
	for _, p := range ds {
		leader = leader || p.PID == cmd.Process.Pid
		grandchild = grandchild || p.PPID == cmd.Process.Pid
	}
	if !leader || !grandchild {
		t.Fatalf("descendants %v lack the child %d or its child", ds, cmd.Process.Pid)
	}
	if ds, _ := Descendants(cmd.Process.Pid); len(ds) != 1 || ds[0].Comm != "sleep" {
		t.Fatalf("descendants of the shell: %v, want its sleep", ds)
	}
}
