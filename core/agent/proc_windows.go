//go:build windows

package agent

import (
	"os/exec"
	"strconv"
	"syscall"
)

const createNoWindow = 0x08000000

// sysProcAttr starts the agent in a new process group without a console
// window (the desktop app has none to share).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{
		CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | createNoWindow,
		HideWindow:    true,
	}
}

// terminateGroup asks the tree to close; console programs usually ignore
// it, which is why Stop escalates to a forced tree kill.
func terminateGroup(p *Process) error { return taskkill(p.pid, false) }

func killGroup(p *Process) {
	if err := taskkill(p.pid, true); err != nil {
		_ = p.proc.Kill()
	}
}

func taskkill(pid int, force bool) error {
	args := []string{"/T", "/PID", strconv.Itoa(pid)}
	if force {
		args = append([]string{"/F"}, args...)
	}
	c := exec.Command("taskkill", args...)
	c.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: createNoWindow}
	return c.Run()
}

// groupGone: taskkill /T has already walked the tree; once the leader is
// reaped there is nothing further we can observe.
func groupGone(*Process) bool { return true }

// startShimmed: Windows has no shim; taskkill /T walks the tree instead.
func startShimmed(*exec.Cmd) (*child, error) { return nil, errShimless }
