// Package fswrite writes files below a folder without ever following a
// symbolic link: the agent can plant links in its workspace (export/css →
// ~/.config, export/kitty/x.conf → ~/.bashrc), and a write must neither
// leave the folder nor touch what a link points at. Folders are walked one
// component at a time with O_NOFOLLOW, files are written to a temporary
// file and renamed into place, and a link where a folder or file should be
// is refused with a message naming it. Each file and its folder are synced,
// so a crash leaves the old file or the new one.
//
// This is the writer for trees the agent can reach. The app's own files,
// in folders only the user and the app write, go through
// paths.WriteFileAtomic, which takes the folder's path as given.
package fswrite

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"cdxtheme/core/fsread"
	"cdxtheme/core/inside"
)

var (
	// ErrSymlink is a symbolic link where a folder or file is written.
	ErrSymlink = errors.New("is a symbolic link; not followed")
	// ErrNotDir is something other than a folder where one is needed.
	ErrNotDir = errors.New("is not a folder")
	// ErrNotRegular is something other than a regular file (a FIFO, a
	// device, a folder) where a file is written.
	ErrNotRegular = errors.New("is not a regular file; not replaced")
	// ErrChanged is a file that is no longer what the caller read (someone
	// wrote it, removed it or put something else there since): it is left
	// as it is, for the caller to read again and redo its change.
	ErrChanged = errors.New("changed since it was read; not replaced")
)

// beforeCheck, when set (by tests), runs in ReplaceIfUnchanged after the
// new content is on disk and just before the file is compared: a write
// landing there is the latest one the comparison can still see.
var beforeCheck func()

// Dir is an open folder that files are written into.
type Dir struct {
	path string // for messages
	h    handle
}

// Open opens base, the caller's own folder (created when missing and
// followed as given: the user chose it), then each folder of rel below it
// (slash-separated), creating missing ones and refusing any that is a
// symlink or not a folder.
func Open(base, rel string) (*Dir, error) {
	parts, err := split(rel)
	if err != nil {
		return nil, err
	}
	h, err := openBase(base)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", base, err)
	}
	d := &Dir{path: base, h: h}
	if len(parts) == 0 {
		return d, nil
	}
	sub, err := d.walk(parts)
	d.Close()
	if err != nil {
		return nil, err
	}
	return sub, nil
}

// Path is the folder's path.
func (d *Dir) Path() string { return d.path }

// Close releases the folder.
func (d *Dir) Close() error { return d.h.close() }

// walk opens (creating) the folders parts below d, as a new Dir.
func (d *Dir) walk(parts []string) (*Dir, error) {
	cur := &Dir{path: d.path, h: d.h}
	owned := false
	for _, p := range parts {
		next := join(cur.path, p)
		h, err := cur.h.subdir(p)
		if owned {
			cur.h.close()
		}
		if err != nil {
			return nil, describe(next, err)
		}
		cur, owned = &Dir{path: next, h: h}, true
	}
	if !owned {
		h, err := d.h.dup()
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", d.path, err)
		}
		return &Dir{path: d.path, h: h}, nil
	}
	return cur, nil
}

// parent opens the folder holding name (created as in Open) and returns it
// with name's last component.
func (d *Dir) parent(name string) (*Dir, string, error) {
	parts, err := split(name)
	if err != nil {
		return nil, "", err
	}
	if len(parts) == 0 {
		return nil, "", fmt.Errorf("write in %s: no file name", d.path)
	}
	dir, err := d.walk(parts[:len(parts)-1])
	if err != nil {
		return nil, "", err
	}
	return dir, parts[len(parts)-1], nil
}

// WriteFile replaces name (slash-separated, below d; folders on the way are
// made as in Open) with data and returns its path. The data goes to a
// temporary file that is renamed over name, so a reader never sees half a
// file and a link planted at name is replaced, never followed; a symlink
// or a non-regular file already at name is refused. perm is the new
// file's mode (not reduced by the umask).
func (d *Dir) WriteFile(name string, data []byte, perm fs.FileMode) (string, error) {
	return d.put(name, perm, bytesOf(data), nil)
}

// WriteFrom is WriteFile with the content streamed by write; when write
// fails, name is left as it was.
func (d *Dir) WriteFrom(name string, perm fs.FileMode, write func(io.Writer) error) (string, error) {
	return d.put(name, perm, write, nil)
}

// ReplaceIfUnchanged is WriteFile for a read-modify-write: name is
// replaced with data only while its content is still was (what the caller
// read and changed); otherwise nothing is written and the error is
// ErrChanged, so a write someone made in between (the agent's) is never
// overwritten by a change computed from the older content. The comparison
// is made as late as it can be: after data is written and synced to the
// temporary file, right before the rename, through the same folder handle.
//
// What remains is the time between that comparison and the rename (a
// read of a small file and one system call: microseconds). A write that
// lands there is lost to this rename, as with any rename without a lock
// the writer also takes (agents and editors take none). Callers that need
// more watch the file: the replacement is a change they see, and a later
// write is a change too.
func (d *Dir) ReplaceIfUnchanged(name string, was, data []byte, perm fs.FileMode) (string, error) {
	return d.put(name, perm, bytesOf(data), func(h handle, base, p string) error {
		if beforeCheck != nil {
			beforeCheck()
		}
		// Read at most one byte more than was: anything longer is a change.
		now, _, err := h.read(base, p, int64(len(was)))
		switch {
		case err == nil && bytes.Equal(now, was):
			return nil
		case err == nil, errors.Is(err, fs.ErrNotExist), errors.Is(err, fsread.ErrTooLarge),
			errors.Is(err, ErrSymlink), errors.Is(err, fsread.ErrNotRegular):
			return fmt.Errorf("%s %w", p, ErrChanged)
		}
		return err
	})
}

// WriteIfAbsent is WriteFile for a file the caller found missing and
// means to create: name is written only while nothing is there, checked
// as late as ReplaceIfUnchanged checks (right before the rename); a file
// that appeared meanwhile is left as it is and the error is ErrChanged.
// Unlike CreateNew, the content appears whole (a temporary file renamed).
func (d *Dir) WriteIfAbsent(name string, data []byte, perm fs.FileMode) (string, error) {
	return d.put(name, perm, bytesOf(data), func(h handle, base, p string) error {
		if beforeCheck != nil {
			beforeCheck()
		}
		_, err := h.lstat(base)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil
		case err == nil:
			return fmt.Errorf("%s %w", p, ErrChanged)
		}
		return err
	})
}

// put is the one way a file is replaced: folders walked as in Open, a
// link or non-regular file at name refused, the content written to a
// temporary file renamed over name; unchanged, when set, is asked right
// before the rename (each try on Windows) whether name may still be
// replaced, and its ErrChanged is returned as it is.
func (d *Dir) put(name string, perm fs.FileMode, write func(io.Writer) error, unchanged func(h handle, base, p string) error) (string, error) {
	dir, base, err := d.parent(name)
	if err != nil {
		return "", err
	}
	defer dir.Close()
	p := join(dir.path, base)
	if err := dir.h.checkTarget(base); err != nil {
		return p, describe(p, err)
	}
	var check func() error
	if unchanged != nil {
		check = func() error { return unchanged(dir.h, base, p) }
	}
	err = dir.h.replace(base, perm.Perm(), write, check)
	switch {
	case errors.Is(err, ErrChanged):
		return p, err
	case err != nil:
		return p, fmt.Errorf("write %s: %w", p, err)
	}
	return p, nil
}

// bytesOf is a write of data, for the writers that take a stream.
func bytesOf(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}
}

// CreateNew writes a new file name (folders made as in Open) and returns
// its path; anything already there, a symlink included, is fs.ErrExist.
func (d *Dir) CreateNew(name string, data []byte, perm fs.FileMode) (string, error) {
	dir, base, err := d.parent(name)
	if err != nil {
		return "", err
	}
	defer dir.Close()
	p := join(dir.path, base)
	if err := dir.h.create(base, perm.Perm(), bytesOf(data)); err != nil {
		return p, fmt.Errorf("write %s: %w", p, err)
	}
	return p, nil
}

// ReadFile reads name (a regular file directly in d, never through a
// symlink, at most limit bytes) and its mode. A missing file is
// fs.ErrNotExist.
func (d *Dir) ReadFile(name string, limit int64) ([]byte, fs.FileInfo, error) {
	if _, err := split(name); err != nil || strings.Contains(name, "/") {
		return nil, nil, fmt.Errorf("read %s in %s: not a plain file name", name, d.path)
	}
	p := join(d.path, name)
	b, fi, err := d.h.read(name, p, limit)
	if err != nil {
		return nil, nil, err
	}
	return b, fi, nil
}

// Remove deletes the regular file name directly in d; a symlink or
// anything other than a regular file there is refused, never followed.
func (d *Dir) Remove(name string) error {
	if _, err := split(name); err != nil || strings.Contains(name, "/") {
		return fmt.Errorf("remove %s in %s: not a plain file name", name, d.path)
	}
	p := join(d.path, name)
	if err := d.h.checkTarget(name); err != nil {
		return describe(p, err)
	}
	if err := d.h.remove(name); err != nil {
		return fmt.Errorf("remove %s: %w", p, err)
	}
	return nil
}

// Lstat describes name directly in d without following a link.
func (d *Dir) Lstat(name string) (fs.FileInfo, error) {
	fi, err := d.h.lstat(name)
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", join(d.path, name), err)
	}
	return fi, nil
}

// split checks a slash-separated relative path (inside.Local: no absolute
// path, no "..", no empty or "." component), so a name can only reach
// below d.
func split(rel string) ([]string, error) {
	if rel == "" || rel == "." {
		return nil, nil
	}
	if !inside.Local(rel) {
		return nil, fmt.Errorf("%q: want a relative, slash-separated path below the folder", rel)
	}
	return strings.Split(rel, "/"), nil
}

func join(dir, name string) string {
	return strings.TrimSuffix(dir, sep) + sep + name
}

// describe turns what the system said about p into a sentence naming it.
func describe(p string, err error) error {
	switch {
	case errors.Is(err, ErrSymlink), errors.Is(err, ErrNotDir), errors.Is(err, ErrNotRegular):
		return fmt.Errorf("%s %w", p, err)
	}
	return fmt.Errorf("write %s: %w", p, err)
}
