package agent

import "syscall"

// installAttr makes `bun install` die with the app: a killed app must not
// leave a download running into a folder nobody will finish.
func installAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
