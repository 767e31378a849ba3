package settings

import (
	"io/fs"
	"path/filepath"
	"runtime"
)

// private reports a file only its owner can read: mode 0600 on Unix.
// Windows has no mode bits (Go reports 0666, or 0444 for a read-only file);
// what keeps other users out there is the profile folder's ACL, which the
// file inherits, so only a regular file is asked for.
func private(fi fs.FileInfo) bool {
	if runtime.GOOS == "windows" {
		return fi.Mode().IsRegular()
	}
	return fi.Mode().Perm() == 0o600
}

// absPath is an absolute path on this OS (/a on Unix is only rooted on
// Windows, where absolute needs a drive).
func absPath(name string) string {
	if runtime.GOOS == "windows" {
		return filepath.Join(`C:\`, name)
	}
	return "/" + name
}
