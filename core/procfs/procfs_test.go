package procfs

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"
)

func TestParseStatOddCommandNames(t *testing.T) {
	// comm may hold spaces and parentheses: the fields start after the last ')'.
	p, err := parseStat(42, []byte("42 (a) (b c) S 7 42 42 0 -1 4194560 ..."))
	if err != nil {
		t.Fatal(err)
	}
	if p.Comm != "a) (b c" || p.State != "S" || p.PPID != 7 || p.PGID != 42 {
		t.Fatalf("parsed %+v", p)
	}
	for _, bad := range []string{"42 no parens S 1 2", "42 (x) S", "42 (x) S one two"} {
		if _, err := parseStat(42, []byte(bad)); err == nil {
			t.Errorf("%q parsed without an error", bad)
		}
	}
}

func TestNoProcIsUnavailableNotEmpty(t *testing.T) {
	old := root
	root = filepath.Join(t.TempDir(), "missing")
	defer func() { root = old }()
	for name, f := range map[string]func() error{
		"All":         func() error { _, err := All(); return err },
		"LiveInGroup": func() error { _, err := LiveInGroup(1); return err },
		"Marked":      func() error { _, err := Marked("A=b"); return err },
		"Descendants": func() error { _, err := Descendants(1); return err },
	} {
		if err := f(); !errors.Is(err, ErrUnavailable) {
			t.Errorf("%s without /proc: %v, want ErrUnavailable", name, err)
		}
	}
}

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
		if len(live) == 2 && len(marked) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("group %d: live %v, marked %v; want the shell and its sleep", pgid, live, marked)
		}
		time.Sleep(10 * time.Millisecond)
	}
	ds, err := Descendants(pgid)
	if err != nil || len(ds) != 1 || ds[0].Comm != "sleep" {
		t.Fatalf("descendants of the shell: %v %v", ds, err)
	}
	if g := Groups(ds); len(g) != 1 || g[0] != pgid {
		t.Fatalf("Groups = %v", g)
	}
}
