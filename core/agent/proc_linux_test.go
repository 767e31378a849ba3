package agent

import "syscall"

// Orphaned grandchildren are reparented to init, and some container inits
// never reap them: the zombies would keep kill(-pgid, 0) succeeding. As a
// subreaper the test process inherits them, and Stop reaps its group.
func init() {
	const prSetChildSubreaper = 36
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
}
