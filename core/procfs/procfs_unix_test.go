//go:build unix

package procfs

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"
)

func TestGroupAndMarkerOfARealProcess(t *testing.T) {
	if err := Available(); err != nil {
		t.Skipf("process checks impossible here: %v", err)
	}
	if runtime.GOOS != "linux" {
		t.Skip("linux only")
	}
	marker := "PROCFS_TEST=" + strconv.Itoa(os.Getpid())
	cmd := exec.Command("/bin/sh", "-c", "sleep 300 & wait")
	cmd.Env = append(os.Environ(), marker)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	defer func() {
		syscall.Kill(-pgid, syscall.SIGKILL)
		cmd.Wait()
	}()
	deadline := time.Now().Add(20 * time.Second)
	for {
		live, err := LiveInGroup(pgid)
		if err != nil {
			t.Fatal(err)
		}
		marked, _ := Marked(marker)
		// The shell's child is forked (an "sh" with the marker) before it
		// execs sleep: wait for the exec, not just the fork.
		ds, _ := Descendants(pgid)
		if len(live) == 2 && len(marked) == 2 && len(ds) == 1 && ds[0].Comm == "sleep" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("group %d: live %v, marked %v; want the shell and its sleep", pgid, live, marked)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if exe, err := Exe(pgid); err != nil || exe != mustReal(t, "/bin/sh") {
		t.Errorf("Exe of the shell = %q, %v; want %s", exe, err, mustReal(t, "/bin/sh"))
	}
	if args, err := Cmdline(pgid); err != nil || len(args) != 3 || args[0] != "/bin/sh" || args[2] != "sleep 300 & wait" {
		t.Errorf("Cmdline of the shell = %q, %v", args, err)
	}
	ds, err := Descendants(pgid)
	if err != nil || len(ds) != 1 || ds[0].Comm != "sleep" {
		t.Fatalf("descendants of the shell: %v %v", ds, err)
	}
	if g := Groups(ds); len(g) != 1 || g[0] != pgid {
		t.Fatalf("Groups = %v", g)
	}
}

func mustReal(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
