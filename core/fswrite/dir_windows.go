//go:build windows

package fswrite

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"cdxtheme/core/fsread"

	"golang.org/x/sys/windows"
)

const sep = `\`

// handle is an os.Root: names below it cannot escape it. Windows has no
// O_NOFOLLOW, so each component is Lstat-checked before it is used, a
// file read refused as a link by its handle (read), and creating
// symlinks there needs privileges the agent rarely has.
type handle struct{ r *os.Root }

func openBase(base string) (handle, error) {
	if err := os.MkdirAll(base, 0o755); err != nil {
		return handle{}, err
	}
	r, err := os.OpenRoot(base)
	return handle{r}, err
}

func (h handle) close() error { return h.r.Close() }

func (h handle) dup() (handle, error) {
	r, err := h.r.OpenRoot(".")
	return handle{r}, err
}

func (h handle) subdir(name string) (handle, error) {
	fi, err := h.r.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		if err := h.r.Mkdir(name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return handle{}, err
		}
		fi, err = h.r.Lstat(name)
	}
	if err != nil {
		return handle{}, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return handle{}, ErrSymlink
	}
	if !fi.IsDir() {
		return handle{}, ErrNotDir
	}
	r, err := h.r.OpenRoot(name)
	return handle{r}, err
}

func (h handle) remove(name string) error { return h.r.Remove(name) }

func (h handle) lstat(name string) (fs.FileInfo, error) { return h.r.Lstat(name) }

func (h handle) checkTarget(name string) error {
	fi, err := h.r.Lstat(name)
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

func (h handle) replace(name string, perm fs.FileMode, write func(io.Writer) error, check func() error) error {
	var r [6]byte
	if _, err := rand.Read(r[:]); err != nil {
		return err
	}
	tmp := "." + name + ".tmp-" + hex.EncodeToString(r[:])
	if err := h.create(tmp, perm, write); err != nil {
		return err
	}
	if err := h.rename(tmp, name, check); err != nil {
		h.r.Remove(tmp)
		return err
	}
	return nil
}

// renameWaits are the pauses between tries of a rename that Windows
// refuses because another program has the file open without sharing
// delete access (an editor, a virus scanner, a reader made with os.Open):
// "Access is denied" or a sharing violation. Such opens are short, so the
// rename is tried again for about a second and a half before the error is
// given; a folder that refuses for good costs that much once.
var renameWaits = []time.Duration{
	time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond,
	20 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond,
	200 * time.Millisecond, 400 * time.Millisecond, 600 * time.Millisecond,
}

// beforeRetry, when set (by tests), is called before each pause.
var beforeRetry func(error)

// rename renames tmp over name, trying again while the file is busy.
// check (ReplaceIfUnchanged's comparison) runs before every try: a file
// held open is being written by its holder, so after a refused try it may
// hold a newer write that a later try must not replace.
func (h handle) rename(tmp, name string, check func() error) error {
	for i := 0; ; i++ {
		if check != nil {
			if err := check(); err != nil {
				return err
			}
		}
		err := h.r.Rename(tmp, name)
		if err == nil || i == len(renameWaits) ||
			!(errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION)) {
			return err
		}
		if beforeRetry != nil {
			beforeRetry(err)
		}
		time.Sleep(renameWaits[i])
	}
}

func (h handle) create(name string, perm fs.FileMode, write func(io.Writer) error) error {
	f, err := h.r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if errors.Is(err, fs.ErrExist) {
		return fs.ErrExist
	}
	if err != nil {
		return err
	}
	werr := write(f)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		h.r.Remove(name)
		return werr
	}
	return nil
}

// beforeOpen, when set (by tests), runs right before read opens the
// file: a link planted there is the latest one the open can meet.
var beforeOpen func(name string)

// read opens name itself, not what a link there names
// (FILE_FLAG_OPEN_REPARSE_POINT), and the handle decides whether it is a
// link (fsread.RefuseLink): an Lstat before the open would leave the time
// between the two for a link to be planted, which os.Root then follows.
func (h handle) read(name, p string, limit int64) ([]byte, fs.FileInfo, error) {
	open := func(flag int) (*os.File, error) { return h.r.OpenFile(name, os.O_RDONLY|flag, 0) }
	if beforeOpen != nil {
		beforeOpen(name)
	}
	f, err := open(windows.FILE_FLAG_OPEN_REPARSE_POINT)
	if err == nil {
		f, err = fsread.RefuseLink(f, func() (*os.File, error) { return open(0) })
	}
	if errors.Is(err, fsread.ErrSymlink) {
		return nil, nil, fmt.Errorf("%s %w", p, ErrSymlink)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", p, err)
	}
	defer f.Close()
	fi, err := fsread.Check(f, p)
	if err != nil {
		return nil, nil, err
	}
	b, err := fsread.ReadAll(f, fi, p, limit)
	return b, fi, err
}
