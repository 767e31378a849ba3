//go:build !unix

package live

import "syscall"

// Windows has no /proc, no Unix signals and none of the programs told by
// a socket here: nothing is found, nothing told.

type proc struct {
	pid, ppid int
	comm      string
	args      []string
}

func userProcs(Env, []string, bool) []proc { return nil }

func ownSocket(Env, string) bool { return false }

func signalled(Env, []string, syscall.Signal) []int { return nil }

func signal([]int, syscall.Signal) (int, error) { return 0, nil }

const (
	sigUSR1 = syscall.Signal(0)
	sigUSR2 = syscall.Signal(0)
)
