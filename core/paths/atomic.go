package paths

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Hooks for the test that checks the order of the steps; they call the
// real functions.
var (
	syncFile = (*os.File).Sync
	rename   = os.Rename
	syncDir  = syncFolder
)

// WriteFileAtomic replaces path with data so that a reader, a crash or a
// power cut leaves either the old file or the whole new one: the data goes
// to a temporary file in the same folder, which is synced, renamed over
// path, and the folder is synced so the rename itself is on disk. Missing
// folders are made with mode 0700 (the app's files are the user's alone).
//
// A new file gets perm exactly (not reduced by the umask); a file already
// there keeps its mode, narrowed to perm, so a user's chmod survives a save
// and a secret never becomes more readable than asked. A symlink at path is
// replaced, never written through.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	if err := writeAtomic(path, data, perm.Perm()); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func writeAtomic(path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
		perm &= fi.Mode().Perm()
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = syncFile(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	// The new file is in place; say so when the rename may not survive a
	// power cut.
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("sync folder %s: %w", dir, err)
	}
	return nil
}
