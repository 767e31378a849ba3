//go:build unix

package checkpoint

import (
	"io/fs"
	"os"
	"path"

	"golang.org/x/sys/unix"
)

// openFile opens name below r for reading without following a symlink at
// name and without blocking on a FIFO the agent put there.
func openFile(r *os.Root, name string) (*os.File, error) {
	return openNoFollow(r, name, unix.O_RDONLY|unix.O_NONBLOCK)
}

// openDir opens folder name below r, refusing a symlink at name.
func openDir(r *os.Root, name string) (*os.File, error) {
	return openNoFollow(r, name, unix.O_RDONLY|unix.O_DIRECTORY)
}

// openNoFollow opens name's folder through the root (which keeps every
// step inside it), then name itself with O_NOFOLLOW. os.Root.OpenFile
// cannot do the last step: it adds O_NOFOLLOW itself and, on ELOOP,
// follows the link in userspace, so a flag passed to it is lost.
func openNoFollow(r *os.Root, name string, flag int) (*os.File, error) {
	dir, base := path.Split(name)
	if dir == "" {
		dir = "."
	}
	d, err := r.OpenFile(dir, os.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	fd, err := unix.Openat(int(d.Fd()), base, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}
