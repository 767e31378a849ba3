//go:build linux

// maxrss runs a command and writes the peak resident set of that command
// alone, in bytes, to the file named by its first argument:
//
//	maxrss OUT PROGRAM ARGS...
//
// The fault matrix cannot read this from its own wait4: Linux carries the
// parent's high-water mark into a child across fork and exec, and the test
// process is large. This program is small, so what it hands on is too.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: maxrss OUT PROGRAM ARGS...")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "maxrss:", err)
		os.Exit(127)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if err := os.WriteFile(os.Args[1], []byte(strconv.FormatInt(ru.Maxrss<<10, 10)), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "maxrss:", err)
		os.Exit(127)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}
