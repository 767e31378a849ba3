package agent

import (
	"bytes"
	"os"
	"strconv"
)

// onlyZombies reports whether every process in group pgid is a zombie that
// someone else must reap, reading /proc/PID/stat: "pid (comm) state ppid pgrp ...".
// Zombies that are our own children (we may be a subreaper) do not count:
// the next round of groupGone reaps them.
func onlyZombies(pgid int) bool {
	self := strconv.Itoa(os.Getpid())
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(b[i+1:])
		if len(f) < 3 {
			continue
		}
		if g, err := strconv.Atoi(string(f[2])); err != nil || g != pgid {
			continue
		}
		if string(f[0]) != "Z" || string(f[1]) == self {
			return false
		}
	}
	return true
}
