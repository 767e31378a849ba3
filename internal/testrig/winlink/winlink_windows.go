//go:build windows

package winlink

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"unicode/utf16"

	"golang.org/x/sys/windows"
)

func isPrivilege(err error) bool { return errors.Is(err, windows.ERROR_PRIVILEGE_NOT_HELD) }

// Junction makes link (a new, empty folder) a directory junction to
// target, an absolute path, as `mklink /J` does: a mount-point reparse
// point, which any user may create (unlike a symlink).
func Junction(link, target string) error {
	if err := os.Mkdir(link, 0o755); err != nil {
		return fmt.Errorf("junction %s: %w", link, err)
	}
	p, err := windows.UTF16PtrFromString(link)
	if err != nil {
		return fmt.Errorf("junction %s: %w", link, err)
	}
	h, err := windows.CreateFile(p, windows.GENERIC_WRITE, 0, nil, windows.OPEN_EXISTING,
		windows.FILE_FLAG_OPEN_REPARSE_POINT|windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		os.Remove(link)
		return fmt.Errorf("junction %s: open: %w", link, err)
	}
	// REPARSE_DATA_BUFFER, MountPointReparseBuffer: the substitute name
	// (\??\C:\…) then the print name, each NUL-terminated.
	sub := utf16.Encode([]rune(`\??\` + target))
	pr := utf16.Encode([]rune(target))
	subB, prB := len(sub)*2, len(pr)*2
	data := make([]byte, 8+subB+2+prB+2)
	binary.LittleEndian.PutUint16(data[0:], 0)
	binary.LittleEndian.PutUint16(data[2:], uint16(subB))
	binary.LittleEndian.PutUint16(data[4:], uint16(subB+2))
	binary.LittleEndian.PutUint16(data[6:], uint16(prB))
	for i, c := range sub {
		binary.LittleEndian.PutUint16(data[8+2*i:], c)
	}
	for i, c := range pr {
		binary.LittleEndian.PutUint16(data[8+subB+2+2*i:], c)
	}
	buf := make([]byte, 8+len(data))
	binary.LittleEndian.PutUint32(buf[0:], windows.IO_REPARSE_TAG_MOUNT_POINT)
	binary.LittleEndian.PutUint16(buf[4:], uint16(len(data)))
	copy(buf[8:], data)
	var n uint32
	err = windows.DeviceIoControl(h, windows.FSCTL_SET_REPARSE_POINT, &buf[0], uint32(len(buf)), nil, 0, &n, nil)
	windows.CloseHandle(h)
	if err != nil {
		os.Remove(link)
		return fmt.Errorf("junction %s: FSCTL_SET_REPARSE_POINT: %w", link, err)
	}
	return nil
}
