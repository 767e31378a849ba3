//go:build unix

package agent

import (
	"errors"
	"syscall"
)

// sysProcAttr puts the child in a new process group led by itself, so the
// whole tree it spawns can be signalled at once.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func terminateGroup(p *Process) error { return signalGroup(p.pid, syscall.SIGTERM) }

func killGroup(p *Process) { _ = signalGroup(p.pid, syscall.SIGKILL) }

func signalGroup(pgid int, sig syscall.Signal) error {
	err := syscall.Kill(-pgid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// groupGone reports whether no live process is left in the group. Called only
// after the leader has been reaped, so reaping the group's other members here
// (they are our children only if we are a subreaper) cannot race exec.Wait.
func groupGone(p *Process) bool {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-p.pid, &ws, syscall.WNOHANG, nil)
		if err != nil || pid <= 0 {
			break
		}
	}
	if errors.Is(syscall.Kill(-p.pid, 0), syscall.ESRCH) {
		return true
	}
	// Orphans end up as zombies under an init that never reaps (some
	// containers); they are dead and hold nothing.
	return onlyZombies(p.pid)
}

// tree: Unix holds the tree as a process group (and the shim), not as an
// object of its own.
type tree struct{}
