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

	"cdxtheme/core/fsread"
)

const sep = `\`

// handle is an os.Root: names below it cannot escape it. Windows has no
// O_NOFOLLOW, so each component is Lstat-checked before it is used (and
// creating symlinks there needs privileges the agent rarely has).
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
	if check != nil {
		if err := check(); err != nil {
			h.r.Remove(tmp)
			return err
		}
	}
	if err := h.r.Rename(tmp, name); err != nil {
		h.r.Remove(tmp)
		return err
	}
	return nil
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

func (h handle) read(name, p string, limit int64) ([]byte, fs.FileInfo, error) {
	if fi, err := h.r.Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, nil, fmt.Errorf("%s %w", p, ErrSymlink)
	}
	f, err := h.r.Open(name)
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
