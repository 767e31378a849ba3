package apply

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"cdxtheme/core/fsread"
	"cdxtheme/core/fswrite"
	"cdxtheme/core/install"
	"cdxtheme/core/paths"
	"cdxtheme/core/theme"
)

// ErrNotApplied is Refresh's answer when the latest apply into a target is
// not the build's own: never applied, undone, or applied from another
// build since. Nothing is written.
var ErrNotApplied = errors.New("the latest apply into this program is not this build's")

// Refreshed is what Refresh did. Written are the files rewritten with the
// theme as it is now (in the plan's order; empty when every file held it
// already); Kept the files someone else changed since the apply, left
// alone; Missing the files the theme now goes to that the apply did not
// write (the theme was renamed, or a companion added): applying again
// installs those.
type Refreshed struct {
	Target  string   `json:"target"`
	Written []string `json:"written"`
	Kept    []string `json:"kept"`
	Missing []string `json:"missing"`
	// Primary is the theme's own file (the first planned), beside its
	// companion's: a program that loads one file by name loads this one.
	Primary string `json:"primary"`
}

// latestRecord reads the newest apply record of target.
func latestRecord(store, target string) (string, applyRecord, error) {
	recs := records(store, target)
	if len(recs) == 0 {
		return "", applyRecord{}, ErrNotApplied
	}
	dir := filepath.Join(store, target, recs[len(recs)-1])
	raw, err := fsread.ReadFile(filepath.Join(dir, recordName), maxReplaced, fsread.NoFollow)
	if err != nil {
		return dir, applyRecord{}, err
	}
	var rec applyRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return dir, applyRecord{}, fmt.Errorf("record %s is damaged: %w", dir, err)
	}
	return dir, rec, nil
}

// AppliedBy lists, in menu order, the targets whose latest apply came
// from build.
func AppliedBy(p install.Paths, build string) []string {
	if build == "" {
		return nil
	}
	var out []string
	for _, t := range install.Targets {
		if _, rec, err := latestRecord(p.Store, t.ID); err == nil && rec.Build == build {
			out = append(out, t.ID)
		}
	}
	return out
}

// Refresh rewrites the files the build's latest apply into target wrote
// with t as it is now, the way Apply writes (atomically, never through a
// link, keeping each file's mode), and keeps the record current so Undo
// still recognises them as the apply's own and puts back the user's
// original bytes. It never writes a file the apply did not write, nor one
// changed since by someone else. A target whose latest apply is not the
// build's is ErrNotApplied.
func Refresh(t *theme.Theme, target, build string, p install.Paths) (Refreshed, error) {
	defer lockTarget(target)()
	out := Refreshed{Target: target}
	if build == "" {
		return out, fmt.Errorf("refresh %s: %w", target, ErrNotApplied)
	}
	recDir, rec, err := latestRecord(p.Store, target)
	if err != nil {
		return out, fmt.Errorf("refresh %s: %w", target, err)
	}
	if rec.Build != build {
		return out, fmt.Errorf("refresh %s: %w", target, ErrNotApplied)
	}
	// The theme files alone: the settings are Apply's (a live edit does
	// not change them), and the plan's reading of each file is its state.
	plan, err := planFiles(t, target, p)
	if err != nil {
		return out, fmt.Errorf("refresh %s: %w", target, err)
	}
	if len(plan.Files) > 0 {
		out.Primary = plan.Files[0].Path
	}
	byPath := map[string]int{}
	for i, f := range rec.Files {
		byPath[f.Path] = i
	}
	type write struct {
		i         int
		path, was string
		data      []byte
	}
	var todo []write
	now := map[string]string{} // what the plan found at each path
	for _, f := range plan.Files {
		now[f.Path] = f.was
		i, ok := byPath[f.Path]
		if !ok {
			if !f.Same {
				out.Missing = append(out.Missing, f.Path)
			}
			continue
		}
		e := rec.Files[i]
		switch {
		case f.was == digest(f.data):
			// Holds it already (an edit this program does not show).
		case f.was != e.Wrote && (e.Next == "" || f.was != e.Next):
			out.Kept = append(out.Kept, f.Path)
		default:
			todo = append(todo, write{i, f.Path, f.was, f.data})
		}
	}
	if len(todo) == 0 {
		return out, nil
	}
	// One record save, before any write: a write done by an earlier
	// refresh becomes Wrote, the new bytes Next, so a crash half-way
	// leaves each file as one of the two Undo accepts.
	for i, e := range rec.Files {
		state, ok := now[e.Path]
		if !ok && e.Next != "" {
			state = fileState(e.Path) // a file the theme no longer goes to
		}
		if e.Next != "" && state == e.Next {
			rec.Files[i].Wrote = e.Next
		}
		rec.Files[i].Next = ""
	}
	for _, w := range todo {
		rec.Files[w.i].Next = digest(w.data)
	}
	if err := paths.WriteFileAtomic(filepath.Join(recDir, recordName), recordJSON(rec), 0o600); err != nil {
		return out, fmt.Errorf("refresh %s: record for undo: %w", target, err)
	}
	for _, w := range todo {
		err := rewrite(w.path, w.was, w.data)
		switch {
		case errors.Is(err, fswrite.ErrChanged):
			out.Kept = append(out.Kept, w.path) // someone wrote it meanwhile
		case err != nil:
			return out, fmt.Errorf("refresh %s: %w", target, err)
		default:
			out.Written = append(out.Written, w.path)
		}
	}
	return out, nil
}

// rewrite replaces the regular file at path, which held was (fileState)
// when planned, with data, keeping its mode; a file changed since, even
// right before the rename, is left alone (fswrite.ErrChanged).
func rewrite(path, was string, data []byte) error {
	dir, err := fswrite.Open(filepath.Dir(path), "")
	if err != nil {
		return err
	}
	defer dir.Close()
	name := filepath.Base(path)
	old, fi, err := dir.ReadFile(name, maxReplaced)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %w", path, fswrite.ErrChanged)
	case err != nil:
		return err
	case digest(old) != was:
		return fmt.Errorf("%s %w", path, fswrite.ErrChanged)
	}
	_, err = dir.ReplaceIfUnchanged(name, old, data, fi.Mode().Perm())
	return err
}
