package serve

import (
	"fmt"
	"net"
	"os"
	"syscall"
)

// samePeer checks, with SO_PEERCRED, that the other end of c runs as this
// user.
func samePeer(c net.Conn) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return fmt.Errorf("not a unix socket connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return err
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return err
	}
	if cerr != nil {
		return fmt.Errorf("peer credentials: %w", cerr)
	}
	if int(cred.Uid) != os.Getuid() {
		return fmt.Errorf("the peer (pid %d) runs as uid %d, not %d", cred.Pid, cred.Uid, os.Getuid())
	}
	return nil
}
