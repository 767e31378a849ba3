//go:build darwin || freebsd

package serve

import (
	"fmt"
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// samePeer checks, with LOCAL_PEERCRED (what getpeereid reads on macOS
// and FreeBSD), that the other end of c runs as this user.
func samePeer(c net.Conn) error {
	var cred *unix.Xucred
	if err := peerSockopt(c, func(fd int) (err error) {
		cred, err = unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
		return err
	}); err != nil {
		return err
	}
	return peerUID(cred.Version, cred.Uid)
}

// xucredVersion is XUCRED_VERSION of <sys/ucred.h> (both kernels), which
// x/sys does not export: another layout must not be read as a uid.
const xucredVersion = 0

// peerUID accepts a struct xucred of the version this code knows whose
// uid is ours.
func peerUID(version, uid uint32) error {
	if version != xucredVersion {
		return fmt.Errorf("peer credentials of version %d, not %d", version, xucredVersion)
	}
	if int(uid) != os.Getuid() {
		return fmt.Errorf("the peer runs as uid %d, not %d", uid, os.Getuid())
	}
	return nil
}
