//go:build windows

package fsread

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"
)

// errLoop marks a refused symlink (Windows has no O_NOFOLLOW; the Lstat
// before the open is the check, and opens never block on Windows).
var errLoop = errors.New("symlink")

// openNonblock opens path for reading and lets others read, write, delete
// and rename it meanwhile. os.Open shares no delete access, and on Windows
// a rename that replaces a file needs it from every handle open on that
// file: while the app read theme.json, an agent writing it the atomic way
// (a temporary file renamed over it) was refused with "Access is denied".
// With FILE_SHARE_DELETE a rename with POSIX semantics (Go's os.Root,
// Rust's std::fs::rename) replaces the file under the open handle, which
// goes on reading the old one; a classic MoveFileEx still cannot, which
// is why the app keeps these handles open only for the read.
func openNonblock(path string, noFollow bool) (*os.File, error) {
	if noFollow {
		if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, &fs.PathError{Op: "open", Path: path, Err: errLoop}
		}
	}
	p, err := windows.UTF16PtrFromString(longPath(path))
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	// FILE_FLAG_BACKUP_SEMANTICS, as os.Open: a folder opens, and Check
	// then refuses it as a folder rather than as "Access is denied".
	h, err := windows.CreateFile(p, windows.GENERIC_READ,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL|windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}

func isLoop(err error) bool { return errors.Is(err, errLoop) }

// longPath gives an absolute path of MAX_PATH or more the \\?\ prefix
// CreateFile needs for it (os.Open does the same for its callers). Such a
// path is taken as written, so it is cleaned first: no "..", no "/".
func longPath(path string) string {
	const maxPath = 248 // a folder's limit; a file's is 260
	if len(path) < maxPath || !filepath.IsAbs(path) || strings.HasPrefix(path, `\\?\`) || strings.HasPrefix(path, `\\.\`) {
		return path
	}
	clean := filepath.Clean(path)
	if strings.HasPrefix(clean, `\\`) { // \\server\share\… is \\?\UNC\server\share\…
		return `\\?\UNC\` + clean[2:]
	}
	return `\\?\` + clean
}
