package apply

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"cdxtheme/core/fsread"
	"cdxtheme/core/install"
	"cdxtheme/core/paths"
)

// Sweep cleans up after an Apply that was killed, at the next start: the
// record folders it made but never saved a record in (their backups are
// of files it had not replaced yet), the temporary files of a record save,
// and the ".NAME.tmp-…" file an interrupted write left beside a file an
// apply recorded. Only that file's own temporaries go, never another
// program's; only what is older than age (a younger one may be another
// instance's apply under way). It returns how many entries went.
func Sweep(p install.Paths, age time.Duration) int {
	n := 0
	for _, t := range install.Targets {
		root := filepath.Join(p.Store, t.ID)
		entries, err := os.ReadDir(root)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !e.IsDir() { // a link is not a folder here, and is left alone
				continue
			}
			dir := filepath.Join(root, e.Name())
			n += paths.SweepTemps(dir, age)
			raw, err := fsread.ReadFile(filepath.Join(dir, recordName), maxReplaced, fsread.NoFollow)
			if errors.Is(err, fs.ErrNotExist) {
				if old(e, age) && os.RemoveAll(dir) == nil {
					n++
				}
				continue
			}
			var rec applyRecord
			if err != nil || json.Unmarshal(raw, &rec) != nil {
				continue // damaged: Undo names it; not ours to guess at
			}
			for _, f := range rec.Files {
				n += sweepTempsOf(f.Path, age)
			}
		}
	}
	return n
}

// sweepTempsOf removes the temporaries of an atomic write of path.
func sweepTempsOf(path string, age time.Duration) int {
	dir, prefix := filepath.Dir(path), "."+filepath.Base(path)+".tmp-"
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), prefix) || !paths.IsTemp(e.Name()) || !old(e, age) {
			continue
		}
		if os.Remove(filepath.Join(dir, e.Name())) == nil {
			n++
		}
	}
	return n
}

func old(e os.DirEntry, age time.Duration) bool {
	fi, err := e.Info()
	return err == nil && time.Since(fi.ModTime()) >= age
}
