//go:build !windows

package cli

import "testing"

// needHandOff: every Unix the app runs on has AF_UNIX sockets.
func needHandOff(*testing.T) {}
