//go:build unix

// Package fifo plants named pipes in the file system for the tests that
// check a FIFO the agent left in a folder is never read (it would block).
package fifo

import "syscall"

// Make creates a FIFO at path.
func Make(path string) error { return syscall.Mkfifo(path, 0o644) }
