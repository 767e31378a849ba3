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
	var cred *syscall.Ucred
	if err := peerSockopt(c, func(fd int) (err error) {
		cred, err = syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
		return err
	}); err != nil {
		return err
	}
	if int(cred.Uid) != os.Getuid() {
		return fmt.Errorf("the peer (pid %d) runs as uid %d, not %d", cred.Pid, cred.Uid, os.Getuid())
	}
	return nil
}
