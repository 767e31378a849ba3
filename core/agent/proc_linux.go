package agent

import (
	"os"
	"syscall"
	"unsafe"

	"cdxtheme/core/procfs"
)

// shimAttr starts the shim as the leader of a new process group, with a
// parent-death signal it catches (and checks against getppid).
func shimAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}

// shimChildAttr: should the shim itself be killed, the agent dies with it.
func shimChildAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

func dupTo(from, to int) { syscall.Dup3(from, to, 0) }

// setName sets the process name ps shows. init runs on the main thread,
// whose name is the process's.
func setName(name string) {
	b := append([]byte(name), 0)
	const prSetName = 15
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetName, uintptr(unsafe.Pointer(&b[0])), 0)
}

// onlyZombies reports whether every process in group pgid is a zombie that
// someone else must reap. Zombies that are our own children (we may be a
// subreaper) do not count: the next round of groupGone reaps them. Without
// /proc nothing can be told apart, so the group counts as alive.
func onlyZombies(pgid int) bool {
	all, err := procfs.All()
	if err != nil {
		return false
	}
	self := os.Getpid()
	for _, p := range all {
		if p.PGID == pgid && (!p.Zombie() || p.PPID == self) {
			return false
		}
	}
	return true
}
