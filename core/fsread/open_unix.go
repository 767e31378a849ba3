//go:build unix

package fsread

import (
	"errors"
	"os"
	"syscall"
)

func openNonblock(path string, noFollow bool) (*os.File, error) {
	flag := os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_CLOEXEC
	if noFollow {
		flag |= syscall.O_NOFOLLOW
	}
	return os.OpenFile(path, flag, 0)
}

// isLoop is what open(2) says for a symlink under O_NOFOLLOW (EMLINK on
// FreeBSD).
func isLoop(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK)
}
