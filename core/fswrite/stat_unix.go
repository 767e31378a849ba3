//go:build unix

package fswrite

import (
	"io/fs"
	"time"

	"golang.org/x/sys/unix"
)

// statInfo is an fstatat result as an fs.FileInfo.
type statInfo struct {
	name string
	st   unix.Stat_t
}

func (s statInfo) Name() string { return s.name }
func (s statInfo) Size() int64  { return s.st.Size }
func (s statInfo) ModTime() time.Time {
	sec, nsec := s.st.Mtim.Unix()
	return time.Unix(sec, nsec)
}
func (s statInfo) IsDir() bool { return s.Mode().IsDir() }
func (s statInfo) Sys() any    { return &s.st }
func (s statInfo) Mode() fs.FileMode {
	m := fs.FileMode(uint32(s.st.Mode) & 0o777)
	switch uint32(s.st.Mode) & unix.S_IFMT {
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	case unix.S_IFIFO:
		m |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		m |= fs.ModeSocket
	case unix.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		m |= fs.ModeDevice
	}
	return m
}
