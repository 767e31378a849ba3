//go:build unix && !linux

package agent

import "syscall"

// shimAttr starts the shim as the leader of a new process group; it learns
// of its parent's death from the lifeline pipe alone.
func shimAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func shimChildAttr() *syscall.SysProcAttr { return nil }

func dupTo(from, to int) { syscall.Dup2(from, to) }

func setName(string) {}

// onlyZombies cannot tell zombies apart without /proc; init reaps orphans on
// these systems, so a group that is still there is really alive.
func onlyZombies(int) bool { return false }
