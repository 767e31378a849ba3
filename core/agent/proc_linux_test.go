package agent

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Orphaned grandchildren are reparented to init, and some container inits
// never reap them: the zombies would keep kill(-pgid, 0) succeeding. As a
// subreaper the test process inherits them, and Stop reaps its group.
func init() {
	const prSetChildSubreaper = 36
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
}

// A group whose only member is a zombie another process must reap (an
// orphan a container's init never reaps) counts as gone, so Stop does not
// wait on it; a group with a live member never does.
func TestOnlyZombiesTellsADeadGroupFromALiveOne(t *testing.T) {
	// perl forks a child that leads its own group and exits at once; perl
	// never reaps it.
	cmd := exec.Command("perl", "-e", `$|=1; pipe(R,W); my $p=fork; if(!$p){close R; setpgrp(0,0); exit 0} close W; <R>; print "$p\n"; sleep 300`)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start perl (it makes the zombie): %v", err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	var pid int
	if _, err := fmt.Fscan(out, &pid); err != nil {
		t.Fatal(err)
	}
	// Its pipe closes as it exits; the zombie state follows at once.
	for deadline := time.Now().Add(10 * time.Second); ; {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:])); len(f) > 0 && f[0] == "Z" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("pid %d never became a zombie: %q", pid, b)
		}
		runtime.Gosched()
	}
	if !onlyZombies(pid) {
		t.Errorf("a group of one zombie perl must reap counts as alive")
	}
	if onlyZombies(syscall.Getpgrp()) {
		t.Errorf("the test's own group counts as only zombies")
	}
}
