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
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return fmt.Errorf("not a unix socket connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return fmt.Errorf("peer credentials: %w", err)
	}
	var cred *unix.Xucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	}); err != nil {
		return fmt.Errorf("peer credentials: %w", err)
	}
	if cerr != nil {
		return fmt.Errorf("peer credentials: %w", cerr)
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
