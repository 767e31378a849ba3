package faults

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Entry is what a Snapshot knows of one path.
type Entry struct {
	Mode  fs.FileMode
	Size  int64
	Mtime time.Time
	Sum   string // content hash of files (sampled for huge ones); link target of symlinks
}

// Snapshot maps slash paths relative to the root ("." for the root) to
// their state. It catches any write: new, removed or renamed entries,
// changed bytes, sizes, modes or modification times.
type Snapshot map[string]Entry

// fullHashLimit: files up to this size are hashed whole; larger ones are
// hashed at their start, middle and end (plus size and mtime), which any
// append, truncation or rewrite by a program still changes.
const (
	fullHashLimit = 64 << 20
	sampleBytes   = 1 << 20
)

// Take records root and everything under it. A missing root is a valid
// snapshot with no entries (the folder must stay missing).
func Take(root string) (Snapshot, error) {
	s := Snapshot{}
	if _, err := os.Lstat(root); os.IsNotExist(err) {
		return s, nil
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		fi, err := os.Lstat(path)
		if err != nil {
			return err
		}
		e := Entry{Mode: fi.Mode(), Size: fi.Size(), Mtime: fi.ModTime()}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			e.Sum, err = os.Readlink(path)
		case fi.Mode().IsRegular():
			e.Sum, err = hashFile(path, fi.Size())
		case fi.IsDir():
			e.Size = 0 // a directory's size is a file system detail
		}
		if err != nil {
			return err
		}
		s[filepath.ToSlash(rel)] = e
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", root, err)
	}
	return s, nil
}

func hashFile(path string, size int64) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if size <= fullHashLimit {
		if _, err := io.Copy(h, f); err != nil {
			return "", err
		}
	} else {
		for _, off := range []int64{0, size/2 - sampleBytes/2, size - sampleBytes} {
			if _, err := io.Copy(h, io.NewSectionReader(f, off, sampleBytes)); err != nil {
				return "", err
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Diff lists, one sentence each and sorted, how after differs from s.
func (s Snapshot) Diff(after Snapshot) []string {
	var out []string
	for p, a := range s {
		b, ok := after[p]
		switch {
		case !ok:
			out = append(out, p+": removed")
		case a.Mode != b.Mode:
			out = append(out, fmt.Sprintf("%s: mode %v -> %v", p, a.Mode, b.Mode))
		case a.Size != b.Size:
			out = append(out, fmt.Sprintf("%s: size %d -> %d", p, a.Size, b.Size))
		case a.Sum != b.Sum:
			out = append(out, p+": content changed")
		case !a.Mtime.Equal(b.Mtime):
			out = append(out, fmt.Sprintf("%s: modified at %s (was %s)", p, b.Mtime.Format(time.RFC3339Nano), a.Mtime.Format(time.RFC3339Nano)))
		}
	}
	for p := range after {
		if _, ok := s[p]; !ok {
			out = append(out, p+": created")
		}
	}
	sort.Strings(out)
	return out
}
