package workspace

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"cdxtheme/core/fsread"
)

// TrashDir is the folder under the root that deleted workspaces are moved
// into, so a delete can be undone.
const TrashDir = ".trash"

// maxCopy bounds what Duplicate copies: a workspace is the agent's to fill
// and may hold anything.
const maxCopy = 256 << 20

// Started reports whether the workspace's first message reached the agent
// (a session was recorded) or it holds a theme (an import): the builds
// Home shows. Others are leftovers of a first turn that never ran.
func (m Meta) Started() bool {
	if len(m.SessionIDs) > 0 {
		return true
	}
	_, err := os.Lstat(filepath.Join(m.Dir, "theme.json"))
	return err == nil
}

// Unused reports whether the folder holds nothing but what Create put
// there, so removing it loses nothing.
func (m Meta) Unused() bool {
	if len(m.SessionIDs) > 0 {
		return false
	}
	entries, err := os.ReadDir(m.Dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Name() != MetaFile && e.Name() != "AGENTS.md" {
			return false
		}
	}
	return true
}

// Remove deletes an unused workspace (see Unused); one with anything else
// in it must go to the trash instead.
func Remove(root, id string) error {
	m, err := Open(root, id)
	if err != nil {
		return err
	}
	if !m.Unused() {
		return fmt.Errorf("remove workspace %s: it is in use; move it to the trash", id)
	}
	return os.RemoveAll(m.Dir)
}

// Trash moves a workspace into the trash folder; Restore brings it back.
func Trash(root, id string) error {
	mu.Lock()
	defer mu.Unlock()
	m, err := Open(root, id)
	if err != nil {
		return err
	}
	trash := filepath.Join(filepath.Dir(m.Dir), TrashDir)
	if err := os.MkdirAll(trash, 0o700); err != nil {
		return fmt.Errorf("delete workspace %s: %w", id, err)
	}
	dst := filepath.Join(trash, id)
	if err := os.RemoveAll(dst); err != nil { // an older copy of the same id
		return fmt.Errorf("delete workspace %s: %w", id, err)
	}
	if err := os.Rename(m.Dir, dst); err != nil {
		return fmt.Errorf("delete workspace %s: %w", id, err)
	}
	now := time.Now()
	os.Chtimes(dst, now, now) // when it was trashed, for PruneTrash
	return nil
}

// Restore moves a trashed workspace back.
func Restore(root, id string) error {
	if !ValidID(id) {
		return fmt.Errorf("restore workspace: %q is not a workspace id", id)
	}
	mu.Lock()
	defer mu.Unlock()
	abs, err := filepath.Abs(root)
	if err != nil {
		return fmt.Errorf("restore workspace %s: %w", id, err)
	}
	src, dst := filepath.Join(abs, TrashDir, id), filepath.Join(abs, id)
	if fi, err := os.Lstat(src); err != nil || !fi.IsDir() {
		return fmt.Errorf("restore workspace %s: not in the trash", id)
	}
	if _, err := os.Lstat(dst); err == nil {
		return fmt.Errorf("restore workspace %s: a workspace of that id exists", id)
	}
	if err := os.Rename(src, dst); err != nil {
		return fmt.Errorf("restore workspace %s: %w", id, err)
	}
	return nil
}

// TrashEntry is one deleted workspace waiting in the trash.
type TrashEntry struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Created time.Time `json:"created" ts_type:"string"`
	Deleted time.Time `json:"deleted" ts_type:"string"` // when Trash moved it (the folder's time, which PruneTrash goes by)
	Dir     string    `json:"dir"`                      // where it lived and where Restore puts it back
}

// Trashed lists the trash, newest deletion first, so deleted builds can be
// found and restored long after the delete. It only reads: an entry whose
// metadata is missing, unreadable or damaged is skipped and reported in
// problems, never repaired (Open would set its file aside) nor removed; it
// stays until PruneTrash's age. A missing trash is an empty list.
func Trashed(root string) (list []TrashEntry, problems []error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, []error{fmt.Errorf("list trash: %w", err)}
	}
	trash := filepath.Join(abs, TrashDir)
	entries, err := os.ReadDir(trash)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{fmt.Errorf("list trash: %w", err)}
	}
	for _, e := range entries {
		if !ValidID(e.Name()) {
			continue // not something Trash put there
		}
		t, err := trashed(trash, abs, e.Name())
		if err != nil {
			problems = append(problems, fmt.Errorf("trashed workspace %s: %w", e.Name(), err))
			continue
		}
		list = append(list, t)
	}
	sort.Slice(list, func(i, j int) bool {
		if !list[i].Deleted.Equal(list[j].Deleted) {
			return list[i].Deleted.After(list[j].Deleted)
		}
		return list[i].ID > list[j].ID
	})
	return list, problems
}

func trashed(trash, root, id string) (TrashEntry, error) {
	dir := filepath.Join(trash, id)
	fi, err := os.Lstat(dir)
	if err != nil {
		return TrashEntry{}, err
	}
	if !fi.IsDir() {
		return TrashEntry{}, fmt.Errorf("%s, not a folder", fsread.Kind(fi.Mode()))
	}
	b, err := readMeta(dir)
	if err != nil {
		return TrashEntry{}, err
	}
	var m Meta
	if err := json.Unmarshal(b, &m); err != nil {
		return TrashEntry{}, fmt.Errorf("parse %s: %w", MetaFile, err)
	}
	if m.ID != id {
		return TrashEntry{}, fmt.Errorf("%s says id %q", MetaFile, m.ID)
	}
	return TrashEntry{ID: id, Title: cleanTitle(m.Title), Created: m.Created, Deleted: fi.ModTime(), Dir: filepath.Join(root, id)}, nil
}

// Purge deletes a trashed workspace for good (the user asked to: Restore
// can no longer bring it back).
func Purge(root, id string) error {
	if !ValidID(id) {
		return fmt.Errorf("delete workspace forever: %q is not a workspace id", id)
	}
	mu.Lock()
	defer mu.Unlock()
	abs, err := filepath.Abs(root)
	if err != nil {
		return fmt.Errorf("delete workspace %s forever: %w", id, err)
	}
	dir := filepath.Join(abs, TrashDir, id)
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("delete workspace %s forever: not in the trash", id)
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("delete workspace %s forever: %w", id, err)
	}
	return nil
}

// PruneTrash deletes what was trashed more than age ago.
func PruneTrash(root string, age time.Duration) error {
	trash := filepath.Join(root, TrashDir)
	entries, err := os.ReadDir(trash)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("empty trash: %w", err)
	}
	var errs []error
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil || time.Since(fi.ModTime()) < age {
			continue
		}
		if err := os.RemoveAll(filepath.Join(trash, e.Name())); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Duplicate copies a workspace into a new one titled "<title> (copy)":
// its regular files (never symlinks or devices the agent may have left),
// without its sessions, which stay the original's. The copy keeps its
// title: following the theme's name would make it the original's again.
func Duplicate(root, id string) (Meta, error) {
	src, err := Open(root, id)
	if err != nil {
		return Meta{}, err
	}
	dup, err := Create(root, copyTitle(src.Title), src.Model)
	if err == nil {
		dup.FollowsTheme = false
		err = write(dup)
		if err != nil {
			os.RemoveAll(dup.Dir)
		}
	}
	if err != nil {
		return Meta{}, fmt.Errorf("duplicate workspace %s: %w", id, err)
	}
	budget := int64(maxCopy)
	err = filepath.WalkDir(src.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src.Dir, p)
		if rel == "." || rel == MetaFile || rel == "AGENTS.md" {
			return nil
		}
		dst := filepath.Join(dup.Dir, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, 0o700)
		case !d.Type().IsRegular():
			return nil
		}
		return copyFile(p, dst, &budget)
	})
	if err != nil {
		os.RemoveAll(dup.Dir)
		return Meta{}, fmt.Errorf("duplicate workspace %s: %w", id, err)
	}
	return dup, nil
}

func copyFile(src, dst string, budget *int64) error {
	in, err := os.OpenFile(src, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return err // swapped for something else since the walk: skip it
	}
	if fi.Size() > *budget {
		return fmt.Errorf("more than %d MB to copy", maxCopy>>20)
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	n, err := io.Copy(out, io.LimitReader(in, *budget+1))
	*budget -= n
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil && *budget < 0 {
		err = fmt.Errorf("more than %d MB to copy", maxCopy>>20)
	}
	return err
}

// copyTitle names a duplicate: "X (copy)", then "X (copy 2)" and so on.
func copyTitle(title string) string {
	base, n := title, 1
	if i := strings.LastIndex(title, " (copy"); i > 0 && strings.HasSuffix(title, ")") {
		rest := strings.TrimSuffix(title[i+len(" (copy"):], ")")
		if rest == "" {
			base, n = title[:i], 2
		} else if _, err := fmt.Sscanf(rest, " %d", &n); err == nil {
			base, n = title[:i], n+1
		}
	}
	if n == 1 {
		return base + " (copy)"
	}
	return fmt.Sprintf("%s (copy %d)", base, n)
}

// Changed is when anything in the workspace last changed: its newest
// file's time (one level deep: theme.json, exports' folder, metadata).
func (m Meta) Changed() time.Time {
	latest := m.Created
	entries, err := os.ReadDir(m.Dir)
	if err != nil {
		return latest
	}
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && fi.ModTime().After(latest) {
			latest = fi.ModTime()
		}
	}
	return latest
}
