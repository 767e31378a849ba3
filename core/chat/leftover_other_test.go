//go:build !windows

package chat

import (
	"os"

	"cdxtheme/core/procfs"
)

// leftoverCheckable says why the leftover-process checks cannot look here
// (no Linux /proc), or nil.
func leftoverCheckable() error { return procfs.Available() }

// holdPID is Windows' (process groups keep their id here).
func holdPID(int) {}

// liveInGroup counts the live processes of process group pgid but this one.
func liveInGroup(pgid int) (int, error) {
	live, err := procfs.LiveInGroup(pgid)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, p := range live {
		if p.PID != os.Getpid() {
			n++
		}
	}
	return n, nil
}
