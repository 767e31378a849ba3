//go:build windows

package unixsock

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/windows"
)

// Need skips where the hand-off is off by design: a Windows whose Winsock
// has no AF_UNIX (before 10 1803, and Wine 8), where a follow-up runs its
// own turn (the CLI's TestChatWithoutServeAsBefore). Call it first: under
// Wine a test that made temporary folders fails in their cleanup.
func Need(t testing.TB) {
	t.Helper()
	p := filepath.Join(os.TempDir(), "cdxtheme-probe.sock")
	ln, err := net.Listen("unix", p)
	if errors.Is(err, windows.WSAEAFNOSUPPORT) {
		t.Skip("no AF_UNIX sockets on this Windows: the serve hand-off is off here")
	}
	if err == nil {
		ln.Close()
		os.Remove(p)
	}
}
