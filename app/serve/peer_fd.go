//go:build linux || darwin || freebsd

package serve

import (
	"fmt"
	"net"
)

// peerSockopt runs read on the socket of c, for the peer-credential
// getsockopt each OS has (SO_PEERCRED, LOCAL_PEERCRED), and returns its
// error or the connection's.
func peerSockopt(c net.Conn, read func(fd int) error) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return fmt.Errorf("not a unix socket connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return fmt.Errorf("peer credentials: %w", err)
	}
	var rerr error
	if err := raw.Control(func(fd uintptr) { rerr = read(int(fd)) }); err != nil {
		return fmt.Errorf("peer credentials: %w", err)
	}
	if rerr != nil {
		return fmt.Errorf("peer credentials: %w", rerr)
	}
	return nil
}
