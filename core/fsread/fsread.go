// Package fsread reads files that may be hostile: planted by the agent in
// its workspace, or found in CODEX_HOME. Every open is non-blocking (a
// FIFO cannot hang it), every file is checked with fstat to be a regular
// file, and every read stops at a limit that fits what the file holds, so
// /dev/zero, a named pipe or a sparse giant cannot hang the app or grow
// its memory.
package fsread

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Links says whether a symbolic link in the last component of a path is
// followed.
type Links int

const (
	// NoFollow refuses a symlink: files in a workspace, where the agent
	// may have planted one pointing anywhere.
	NoFollow Links = iota
	// Follow reads through a symlink (it must still end at a regular
	// file): CODEX_HOME and the user's own folders.
	Follow
)

var (
	// ErrNotRegular is a FIFO, device, socket or folder where a file was expected.
	ErrNotRegular = errors.New("not a regular file")
	// ErrSymlink is a symlink opened with NoFollow.
	ErrSymlink = errors.New("a symbolic link, not followed")
	// ErrTooLarge is a file over the limit of its kind.
	ErrTooLarge = errors.New("too large")
)

// Open opens path for reading without blocking and checks that it is a
// regular file. Errors name the path; fs.ErrNotExist stays testable.
func Open(path string, links Links) (*os.File, fs.FileInfo, error) {
	f, err := openNonblock(path, links == NoFollow)
	if err != nil {
		if isLoop(err) && links == NoFollow {
			if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
				return nil, nil, fmt.Errorf("read %s: %w", path, ErrSymlink)
			}
		}
		return nil, nil, fmt.Errorf("read %s: %w", path, unwrapPath(err))
	}
	fi, err := Check(f, path)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// Check fstats an open file and refuses anything but a regular file.
func Check(f *os.File, path string) (fs.FileInfo, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, unwrapPath(err))
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("read %s: %w (%s)", path, ErrNotRegular, Kind(fi.Mode()))
	}
	return fi, nil
}

// ReadFile reads the whole of path, a regular file of at most limit bytes.
func ReadFile(path string, limit int64, links Links) ([]byte, error) {
	f, fi, err := Open(path, links)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, fi, path, limit)
}

// ReadAll reads an open regular file (fi is its fstat) of at most limit
// bytes. A file that grows past the limit while it is read is refused too.
func ReadAll(r io.Reader, fi fs.FileInfo, path string, limit int64) ([]byte, error) {
	if fi.Size() > limit {
		return nil, tooLarge(path, fi.Size(), limit)
	}
	var buf bytes.Buffer
	buf.Grow(int(fi.Size()) + 1)
	if _, err := buf.ReadFrom(io.LimitReader(r, limit+1)); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, unwrapPath(err))
	}
	if int64(buf.Len()) > limit {
		return nil, tooLarge(path, int64(buf.Len()), limit)
	}
	return buf.Bytes(), nil
}

func tooLarge(path string, size, limit int64) error {
	return fmt.Errorf("read %s: %w (%s; the limit is %s)", path, ErrTooLarge, Size(size), Size(limit))
}

// Kind names a file mode for a message ("named pipe", "device", …).
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsRegular():
		return "a regular file"
	}
	return "an irregular file"
}

// Size is n bytes for people: "512 KiB", "1 MiB", "3.2 GiB".
func Size(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	f, suffix := float64(n), ""
	for _, s := range []string{"KiB", "MiB", "GiB", "TiB"} {
		f /= unit
		suffix = s
		if f < unit {
			break
		}
	}
	if f == float64(int64(f)) {
		return fmt.Sprintf("%d %s", int64(f), suffix)
	}
	return fmt.Sprintf("%.1f %s", f, suffix)
}

// unwrapPath drops an *fs.PathError's own "op path:" prefix (the caller
// names the path once) but keeps the cause testable with errors.Is.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
