//go:build windows

package fsread

import (
	"errors"
	"io/fs"
	"os"
)

// errLoop marks a refused symlink (Windows has no O_NOFOLLOW; the Lstat
// before the open is the check, and opens never block on Windows).
var errLoop = errors.New("symlink")

func openNonblock(path string, noFollow bool) (*os.File, error) {
	if noFollow {
		if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, &fs.PathError{Op: "open", Path: path, Err: errLoop}
		}
	}
	return os.Open(path)
}

func isLoop(err error) bool { return errors.Is(err, errLoop) }
