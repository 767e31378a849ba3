//go:build unix

package fswrite

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"cdxtheme/core/fsread"

	"golang.org/x/sys/unix"
)

const sep = "/"

// handle is an O_DIRECTORY file descriptor; every name below it is opened
// relative to it (openat), one component at a time, with O_NOFOLLOW.
type handle struct{ fd int }

func openBase(base string) (handle, error) {
	if err := os.MkdirAll(base, 0o755); err != nil {
		return handle{}, unwrap(err)
	}
	fd, err := unix.Open(base, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return handle{}, err
	}
	return handle{fd}, nil
}

func (h handle) close() error { return unix.Close(h.fd) }

func (h handle) dup() (handle, error) {
	fd, err := unix.FcntlInt(uintptr(h.fd), unix.F_DUPFD_CLOEXEC, 0)
	return handle{fd}, err
}

// subdir opens folder name below h, creating it when missing.
func (h handle) subdir(name string) (handle, error) {
	for attempt := 0; ; attempt++ {
		fd, err := unix.Openat(h.fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err == nil {
			return handle{fd}, nil
		}
		if errors.Is(err, unix.ENOENT) && attempt < 3 {
			if err := unix.Mkdirat(h.fd, name, uint32(h.narrow(0o755))); err != nil && !errors.Is(err, unix.EEXIST) {
				return handle{}, err
			}
			continue
		}
		// Say what is there instead of the system's ELOOP / ENOTDIR.
		if fi, serr := h.lstat(name); serr == nil {
			if fi.Mode()&fs.ModeSymlink != 0 {
				return handle{}, ErrSymlink
			}
			if !fi.IsDir() {
				return handle{}, ErrNotDir
			}
		}
		return handle{}, err
	}
}

// narrow keeps a new file or folder as private as the folder it is made in:
// what the folder does not let group or others do, the new one does not
// either (a workspace is 0700, so what is written there is 0600).
func (h handle) narrow(perm fs.FileMode) fs.FileMode {
	var st unix.Stat_t
	if unix.Fstat(h.fd, &st) != nil {
		return perm
	}
	return perm & (0o700 | fs.FileMode(st.Mode)&0o077)
}

func (h handle) lstat(name string) (fs.FileInfo, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(h.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		if errors.Is(err, unix.ENOENT) {
			return nil, fs.ErrNotExist
		}
		return nil, err
	}
	return statInfo{name: name, st: st}, nil
}

// checkTarget refuses a symlink or a non-regular file at name; a missing
// name is fine (it is created).
func (h handle) checkTarget(name string) error {
	fi, err := h.lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return ErrSymlink
	case !fi.Mode().IsRegular():
		return ErrNotRegular
	}
	return nil
}

// remove unlinks name, which never follows a link at name.
func (h handle) remove(name string) error { return unwrap(unix.Unlinkat(h.fd, name, 0)) }

// replace writes data to a new temporary file in h and renames it over
// name. rename(2) never follows a link at its target: a link raced in
// after checkTarget is replaced, not written through. check, when given,
// runs between the two and a failure leaves name as it was.
func (h handle) replace(name string, perm fs.FileMode, write func(io.Writer) error, check func() error) error {
	var r [6]byte
	if _, err := rand.Read(r[:]); err != nil {
		return err
	}
	tmp := "." + name + ".tmp-" + hex.EncodeToString(r[:])
	if err := h.create(tmp, perm, write); err != nil {
		return err
	}
	if check != nil {
		if err := check(); err != nil {
			unix.Unlinkat(h.fd, tmp, 0)
			return err
		}
	}
	if err := unix.Renameat(h.fd, tmp, h.fd, name); err != nil {
		unix.Unlinkat(h.fd, tmp, 0)
		return err
	}
	// The rename itself reaches the disk only with the folder (as in
	// core/paths); a file system that cannot sync folders has no more to give.
	if err := unix.Fsync(h.fd); err != nil && !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOTSUP) {
		return fmt.Errorf("sync folder: %w", err)
	}
	return nil
}

// create makes name with O_EXCL|O_NOFOLLOW (nothing there may be reused)
// and writes data to disk before it returns.
func (h handle) create(name string, perm fs.FileMode, write func(io.Writer) error) error {
	perm = h.narrow(perm)
	fd, err := unix.Openat(h.fd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm))
	if errors.Is(err, unix.EEXIST) {
		return fs.ErrExist
	}
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), name)
	werr := write(f)
	if werr == nil {
		werr = f.Chmod(perm) // the umask must not narrow a backup's mode
	}
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		unix.Unlinkat(h.fd, name, 0)
		return unwrap(werr)
	}
	return nil
}

// read opens name below h without following a link or blocking, and reads
// it as fsread does.
func (h handle) read(name, p string, limit int64) ([]byte, fs.FileInfo, error) {
	fd, err := unix.Openat(h.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ENOENT) {
			return nil, nil, fmt.Errorf("read %s: %w", p, fs.ErrNotExist)
		}
		if fi, serr := h.lstat(name); serr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, nil, fmt.Errorf("%s %w", p, ErrSymlink)
		}
		return nil, nil, fmt.Errorf("read %s: %w", p, err)
	}
	f := os.NewFile(uintptr(fd), p)
	defer f.Close()
	fi, err := fsread.Check(f, p)
	if err != nil {
		return nil, nil, err
	}
	b, err := fsread.ReadAll(f, fi, p, limit)
	return b, fi, err
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
