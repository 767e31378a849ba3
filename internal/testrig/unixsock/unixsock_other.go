//go:build !windows

package unixsock

import "testing"

// Need: every Unix has AF_UNIX sockets.
func Need(testing.TB) {}
