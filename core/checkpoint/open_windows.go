//go:build windows

package checkpoint

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// errLink is what a refused symlink or junction reads as, like ELOOP from
// O_NOFOLLOW on Unix.
var errLink = errors.New("is a symlink or junction; not followed")

// openFile opens name below r for reading without following a symlink or
// junction at name. (Windows has no FIFOs in the file system, so an open
// never blocks.)
func openFile(r *os.Root, name string) (*os.File, error) { return openNoReparse(r, name, false) }

// openDir opens folder name below r, refusing a symlink or junction there.
func openDir(r *os.Root, name string) (*os.File, error) { return openNoReparse(r, name, true) }

// fileAttributeTagInfo is FILE_ATTRIBUTE_TAG_INFO.
type fileAttributeTagInfo struct {
	FileAttributes uint32
	ReparseTag     uint32
}

// openNoReparse opens the entry at name itself (FILE_FLAG_OPEN_REPARSE_POINT,
// the Windows O_NOFOLLOW) and then refuses it when it is a name surrogate:
// a symlink, junction or mount point, what Lstat calls a link. Other
// reparse points (OneDrive, deduplicated files) hold their own data and are
// read as files.
func openNoReparse(r *os.Root, name string, dir bool) (*os.File, error) {
	f, err := r.OpenFile(name, os.O_RDONLY|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return nil, err
	}
	var ti fileAttributeTagInfo
	if err := windows.GetFileInformationByHandleEx(windows.Handle(f.Fd()), windows.FileAttributeTagInfo,
		(*byte)(unsafe.Pointer(&ti)), uint32(unsafe.Sizeof(ti))); err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	switch {
	case ti.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 && isNameSurrogate(ti.ReparseTag):
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: errLink}
	case dir && ti.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY == 0:
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.ENOTDIR}
	}
	return f, nil
}

// isNameSurrogate is IsReparseTagNameSurrogate from winnt.h: the tag names
// another file or folder.
func isNameSurrogate(tag uint32) bool { return tag&0x20000000 != 0 }
