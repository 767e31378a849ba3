//go:build unix

package paths

import (
	"errors"
	"os"
	"syscall"
)

// syncFolder flushes a folder's entries (a rename in it) to disk. A file
// system that cannot sync folders (EINVAL, ENOTSUP: some FUSE and network
// mounts) has nothing more to offer, so that is not an error.
func syncFolder(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) {
		return nil
	}
	return err
}
