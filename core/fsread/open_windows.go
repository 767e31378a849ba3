//go:build windows

package fsread

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unsafe"

	"golang.org/x/sys/windows"
)

// errLoop marks a refused link: a reparse point that names another file
// (a symlink, a WSL symlink), found on the handle itself.
var errLoop = ErrSymlink

// beforeOpen, when set (by tests), runs right before the file is opened:
// a link planted there is the latest one the open can meet.
var beforeOpen func(path string)

// attributeTagInfo is FILE_ATTRIBUTE_TAG_INFO (FileAttributeTagInfo).
type attributeTagInfo struct {
	FileAttributes uint32
	ReparseTag     uint32
}

// openNonblock opens path for reading and lets others read, write, delete
// and rename it meanwhile. os.Open shares no delete access, and on Windows
// a rename that replaces a file needs it from every handle open on that
// file: while the app read theme.json, an agent writing it the atomic way
// (a temporary file renamed over it) was refused with "Access is denied".
// With FILE_SHARE_DELETE a rename with POSIX semantics (Go's os.Root,
// Rust's std::fs::rename) replaces the file under the open handle, which
// goes on reading the old one; a classic MoveFileEx still cannot, which
// is why the app keeps these handles open only for the read.
//
// Windows has no O_NOFOLLOW. With noFollow the path is opened with
// FILE_FLAG_OPEN_REPARSE_POINT, which opens a link itself rather than
// what it names, and the handle's own attributes decide: a check of the
// path before the open (Lstat) would leave the time between the two for a
// link to be planted.
func openNonblock(path string, noFollow bool) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(longPath(path))
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	if beforeOpen != nil {
		beforeOpen(path)
	}
	// FILE_FLAG_BACKUP_SEMANTICS, as os.Open: a folder opens, and Check
	// then refuses it as a folder rather than as "Access is denied".
	flags := uint32(windows.FILE_ATTRIBUTE_NORMAL | windows.FILE_FLAG_BACKUP_SEMANTICS)
	open := func(flags uint32) (windows.Handle, error) {
		return windows.CreateFile(p, windows.GENERIC_READ,
			windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
			nil, windows.OPEN_EXISTING, flags, 0)
	}
	if !noFollow {
		h, err := open(flags)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(h), path), nil
	}
	h, err := open(flags | windows.FILE_FLAG_OPEN_REPARSE_POINT)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	f, err := RefuseLink(os.NewFile(uintptr(h), path), func() (*os.File, error) {
		h, err := open(flags)
		if err != nil {
			return nil, err
		}
		return os.NewFile(uintptr(h), path), nil
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return f, nil
}

// RefuseLink decides by the handle's own attributes what f, opened with
// FILE_FLAG_OPEN_REPARSE_POINT (the last component itself, not what it
// names), is: a link to another file (a symlink, a WSL symlink) is closed
// and refused with ErrSymlink; anything else is given back for Check to
// judge by its kind. A file whose content a file system filter gives only
// to a normal open (a cloud file's placeholder, a deduplicated file) is
// opened again with reopen, and must be the same file, not one a link
// planted meanwhile leads to. This is how every no-follow open on Windows
// refuses a link: an Lstat of the path before the open would leave the
// time between the two for a link to be planted.
func RefuseLink(f *os.File, reopen func() (*os.File, error)) (*os.File, error) {
	h := handleOf(f)
	if t, err := windows.GetFileType(h); err == nil && t != windows.FILE_TYPE_DISK {
		// A pipe or a device (NUL, CON) is no link; Check refuses it by
		// its kind (file systems of pipes answer no attribute query).
		return f, nil
	}
	var ti attributeTagInfo
	if err := windows.GetFileInformationByHandleEx(h, windows.FileAttributeTagInfo, (*byte)(unsafe.Pointer(&ti)), uint32(unsafe.Sizeof(ti))); err != nil {
		f.Close()
		return nil, err
	}
	if ti.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT == 0 {
		return f, nil
	}
	switch {
	case ti.ReparseTag == windows.IO_REPARSE_TAG_MOUNT_POINT:
		// A junction, always to a folder: the handle is the junction
		// (a folder too), which Check refuses as one.
		return f, nil
	case ti.ReparseTag&0x20000000 != 0:
		// A name surrogate (IsReparseTagNameSurrogate): a link to
		// another file, not followed.
		f.Close()
		return nil, errLoop
	}
	g, err := reopen()
	if err == nil && !sameFile(h, handleOf(g)) {
		g.Close()
		err = errLoop
	}
	f.Close()
	if err != nil {
		return nil, err
	}
	return g, nil
}

// handleOf is f's handle, for the queries above; unlike Fd it leaves f as
// it is.
func handleOf(f *os.File) windows.Handle {
	h := windows.InvalidHandle
	if c, err := f.SyscallConn(); err == nil {
		c.Control(func(fd uintptr) { h = windows.Handle(fd) })
	}
	return h
}

// sameFile reports whether two handles are open on one file.
func sameFile(a, b windows.Handle) bool {
	var x, y windows.ByHandleFileInformation
	if windows.GetFileInformationByHandle(a, &x) != nil || windows.GetFileInformationByHandle(b, &y) != nil {
		return false
	}
	return x.VolumeSerialNumber == y.VolumeSerialNumber && x.FileIndexHigh == y.FileIndexHigh && x.FileIndexLow == y.FileIndexLow
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
