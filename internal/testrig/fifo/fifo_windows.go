//go:build windows

// Package fifo plants named pipes in the file system for the tests that
// check a FIFO the agent left in a folder is never read (it would block).
package fifo

import "errors"

// Make reports errors.ErrUnsupported: Windows file systems hold no FIFOs
// (its named pipes live under \\.\pipe\, out of the agent's folders), so
// there is nothing to plant and nothing that could block a read.
func Make(path string) error { return errors.ErrUnsupported }
