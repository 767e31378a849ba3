package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

// Workspaces hold the user's prompts (the title is the first one), their
// attachments and every checkpoint of the agent's files: folders are 0700,
// files 0600. Folders made before that are tightened the first time this
// process opens them.

// tightened remembers the workspaces already tightened in this process.
var tightened sync.Map

// tightenDir takes group and other access away from a folder of the app's.
func tightenDir(dir string) {
	if runtime.GOOS == "windows" {
		return
	}
	if fi, err := os.Lstat(dir); err == nil && fi.IsDir() && fi.Mode().Perm()&0o077 != 0 {
		os.Chmod(dir, fi.Mode().Perm()&0o700)
	}
}

// tighten makes root and the workspace dir 0700 and every file and folder
// below dir private to the user. The agent writes this folder: the walk
// goes through the workspace's os.Root and never follows a symlink.
func tighten(root, dir string) {
	if runtime.GOOS == "windows" {
		return
	}
	if _, done := tightened.LoadOrStore(dir, true); done {
		return
	}
	tightenDir(root)
	tightenDir(dir)
	r, err := os.OpenRoot(dir)
	if err != nil {
		return
	}
	defer r.Close()
	fs.WalkDir(r.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "." || d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		fi, err := d.Info()
		if err != nil || fi.Mode().Perm()&0o077 == 0 || !(fi.IsDir() || fi.Mode().IsRegular()) {
			return nil
		}
		r.Chmod(filepath.FromSlash(p), fi.Mode().Perm()&0o700)
		return nil
	})
}
