//go:build !windows

package app

import "testing"

// needHandOff: every Unix the app runs on has AF_UNIX sockets.
func needHandOff(*testing.T) {}
