//go:build !windows

package cli

import (
	"cdxtheme/core/agent"
	"cdxtheme/core/procfs"
)

func processesCheckable() error { return procfs.Available() }

// processesOf counts live processes running exe; newChatEnv has made sure
// /proc can be read.
func processesOf(exe string) int {
	all, err := procfs.All()
	if err != nil {
		return -1
	}
	n := 0
	for _, p := range all {
		target, err := procfs.Exe(p.PID)
		if err == nil && target == exe && !p.Zombie() && p.Comm != agent.ShimComm {
			n++
		}
	}
	return n
}
