package apply

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"cdxtheme/core/fsread"
	"cdxtheme/core/fswrite"
	"cdxtheme/core/install"
	"cdxtheme/core/paths"
)

// Installed reports what Apply wrote, what it left alone because it held
// the same bytes already, and the backups it made (in the app's data
// folder). Undo says there is an apply of this target to undo.
type Installed struct {
	Installed []string       `json:"installed"`
	Unchanged []string       `json:"unchanged"`
	Backups   []string       `json:"backups"`
	Note      string         `json:"note"`
	Steps     []install.Step `json:"steps"`
	Undo      bool           `json:"undo"`
}

// Undone reports what UndoApply put back: files restored to their earlier
// bytes and mode, and files removed because the apply had created them.
type Undone struct {
	Target   string   `json:"target"`
	Theme    string   `json:"theme"`
	Restored []string `json:"restored"`
	Removed  []string `json:"removed"`
}

// applyRecord is what one apply changed, kept in Store/<target>/<id>/ with
// the replaced files beside it, so UndoApply can put them back.
type applyRecord struct {
	Target string `json:"target"`
	Theme  string `json:"theme"`
	// Build is the workspace whose theme was applied: live updates
	// (Refresh) rewrite only the files of the build's own apply.
	Build string        `json:"build,omitempty"`
	At    time.Time     `json:"at"`
	Files []appliedFile `json:"files"`
	// Dirs are the folders the apply created, deepest first: Undo removes
	// each that is empty again.
	Dirs []string `json:"dirs,omitempty"`
}

type appliedFile struct {
	Path    string      `json:"path"`
	Existed bool        `json:"existed"`
	Mode    fs.FileMode `json:"mode,omitempty"` // the replaced file's
	Backup  string      `json:"backup,omitempty"`
	Wrote   string      `json:"wrote"` // sha256 of what Apply (or Refresh since) wrote
	// Next is the sha256 of a Refresh's write in flight: until it is
	// Wrote, either is the apply's own and Undo may take it back.
	Next string `json:"next,omitempty"`
	// Undo, for a settings file, takes the setting's change back when
	// the user changed the file elsewhere since (VS Code rewrites its
	// settings.json whenever a setting is changed).
	Undo *textUndo `json:"undo,omitempty"`
}

// applyMu serialises Apply, Refresh and UndoApply of one target in this
// process: a live rewrite must not race an undo of the same record. The
// targets' records are apart, so different targets go side by side.
var applyMu struct {
	sync.Mutex
	target map[string]*sync.Mutex
}

// lockTarget locks target's applies and returns the unlock.
func lockTarget(target string) func() {
	applyMu.Lock()
	if applyMu.target == nil {
		applyMu.target = map[string]*sync.Mutex{}
	}
	m := applyMu.target[target]
	if m == nil {
		m = &sync.Mutex{}
		applyMu.target[target] = m
	}
	applyMu.Unlock()
	m.Lock()
	return m.Unlock
}

const recordName = "record.json"

// beforeWrite, when set (by tests), runs right before Apply writes each
// file: a change the user makes there is the latest one Apply can meet.
var beforeWrite func(path string)

// beforeUndoWrite, when set (by tests), runs right before Undo writes
// each file back: the latest a user's save can meet it.
var beforeUndoWrite func(path string)

// Apply writes a plan's files. A file that already holds the same bytes is
// left alone: no write, no backup. Every other file it replaces is first
// copied, with its mode, into the plan's Backups folder in the app's data
// folder (never into the program's own themes folder, where the program
// would list the copy as a theme), and the new file keeps the replaced
// one's mode. What it changed is recorded there for UndoApply. The folders
// on the way are the user's own and are followed; the file itself is
// never written through a symlink: a link there is refused, naming it.
func Apply(plan InstallPlan) (Installed, error) {
	defer lockTarget(plan.Target)()
	out := Installed{Note: plan.Note, Steps: plan.Steps}
	if plan.store == "" {
		return out, fmt.Errorf("install %s: plan has no backup folder (make plans with Plan)", plan.Target)
	}
	// Exactly what the plan showed, or nothing: a file created, changed or
	// removed since (a user's own file where a renamed theme now goes)
	// is not silently replaced.
	files := plan.Files
	changing := map[int]bool{}
	for _, i := range plan.Change {
		if changing[i] {
			continue
		}
		changing[i] = true
		j := slices.IndexFunc(plan.edits, func(e settingEdit) bool { return e.step == i })
		if j < 0 {
			return out, fmt.Errorf("install %s: step %d is not a setting Apply can change (make plans with Plan)", plan.Target, i+1)
		}
		files = append(files[:len(files):len(files)], plan.edits[j].file)
	}
	if err := plan.stillHolds(files); err != nil {
		return out, err
	}
	rec := applyRecord{Target: plan.Target, Theme: plan.Theme, Build: plan.Build, At: time.Now().UTC()}
	recDir := ""
	save := func() error {
		return paths.WriteFileAtomic(filepath.Join(recDir, recordName), recordJSON(rec), 0o600) // plain strings
	}
	// changed stops an apply half-way because a file is no longer what
	// the plan found (the user saved it meanwhile): what this apply wrote
	// is taken back, so "nothing was written" holds.
	changed := func(path, what string) (Installed, error) {
		err := fmt.Errorf("install %s: %w: %s %s while Apply was writing (apply again to see the new plan)", plan.Target, ErrPlanChanged, path, what)
		if recDir != "" {
			if _, uerr := undoRecord(plan.Target, recDir, rec); uerr != nil {
				return out, fmt.Errorf("%w; taking back what this apply wrote failed too (Undo it): %v", err, uerr)
			}
		}
		return Installed{Note: plan.Note, Steps: plan.Steps, Undo: len(records(plan.store, plan.Target)) > 0}, err
	}
	for _, f := range files {
		if f.data == nil {
			return out, fmt.Errorf("install %s: plan has no content for %s (make plans with Plan)", plan.Target, f.Path)
		}
		created := missingDirs(filepath.Dir(f.Path))
		dir, err := fswrite.Open(filepath.Dir(f.Path), "")
		if err != nil {
			return out, fmt.Errorf("install %s: %w", f.Path, err)
		}
		name := filepath.Base(f.Path)
		entry := appliedFile{Path: f.Path, Wrote: digest(f.data), Undo: f.undo}
		perm := fs.FileMode(0o644)
		old, fi, err := dir.ReadFile(name, maxReplaced)
		switch {
		case err == nil && bytes.Equal(old, f.data):
			dir.Close()
			out.Unchanged = append(out.Unchanged, f.Path)
			continue
		case err == nil && digest(old) != f.was, errors.Is(err, fs.ErrNotExist) && f.was != "absent":
			// Changed since stillHolds looked: the data was made from
			// what the plan found, not from this.
			dir.Close()
			what := "was changed"
			if err != nil {
				what = "was removed"
			} else if f.was == "absent" {
				what = "was created"
			}
			return changed(f.Path, what)
		case err == nil:
			perm = fi.Mode().Perm()
			if recDir == "" {
				if recDir, err = newRecordDir(plan.store, plan.Target); err != nil {
					dir.Close()
					return out, err
				}
			}
			entry.Existed, entry.Mode = true, perm
			entry.Backup = fmt.Sprintf("%d-%s", len(rec.Files), name)
			bak := filepath.Join(recDir, entry.Backup)
			if err := paths.WriteFileAtomic(bak, old, 0o600); err != nil {
				dir.Close()
				return out, fmt.Errorf("back up %s: %w", f.Path, err)
			}
			out.Backups = append(out.Backups, bak)
		case !errors.Is(err, fs.ErrNotExist):
			dir.Close()
			return out, fmt.Errorf("install %s: %w", plan.Target, err)
		}
		if recDir == "" {
			if recDir, err = newRecordDir(plan.store, plan.Target); err != nil {
				dir.Close()
				return out, err
			}
		}
		// Recorded before the write: a failure or crash half-way still
		// leaves a record that undoes what was done.
		rec.Files = append(rec.Files, entry)
		rec.Dirs = append(rec.Dirs, created...)
		if err := save(); err != nil {
			dir.Close()
			return out, fmt.Errorf("install %s: record for undo: %w", plan.Target, err)
		}
		out.Undo = true
		if beforeWrite != nil {
			beforeWrite(f.Path)
		}
		// Written only over exactly the bytes backed up (or where nothing
		// is yet), compared right before the rename: a save the user
		// made after the read is never replaced by a change computed
		// from the older bytes.
		if entry.Existed {
			_, err = dir.ReplaceIfUnchanged(name, old, f.data, perm)
		} else {
			_, err = dir.WriteIfAbsent(name, f.data, perm)
		}
		dir.Close()
		if errors.Is(err, fswrite.ErrChanged) {
			// Not written: the entry is not this apply's to take back.
			rec.Files = rec.Files[:len(rec.Files)-1]
			if entry.Backup != "" {
				os.Remove(filepath.Join(recDir, entry.Backup))
			}
			save() // should taking back fail, Undo is not stopped by this file
			what := "was created"
			if entry.Existed {
				what = "was changed"
			}
			return changed(f.Path, what)
		}
		if err != nil {
			return out, fmt.Errorf("install %s: %w", plan.Target, err)
		}
		out.Installed = append(out.Installed, f.Path)
	}
	if !out.Undo {
		out.Undo = len(records(plan.store, plan.Target)) > 0
	}
	// The steps Apply did are no longer the user's to do.
	out.Steps = slices.Clone(plan.Steps)
	for i := range out.Steps {
		if changing[i] {
			out.Steps[i].State, out.Steps[i].Edit = "changed", false
		}
	}
	return out, nil
}

// newRecordDir makes Store/<target>/<id>, ids sorting in the order made.
func newRecordDir(store, target string) (string, error) {
	var r [4]byte
	rand.Read(r[:])
	id := time.Now().UTC().Format("20060102T150405.000000000") + "-" + hex.EncodeToString(r[:])
	dir := filepath.Join(store, target, id)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("backup folder: %w", err)
	}
	return dir, nil
}

// records lists the apply records of target, oldest first.
func records(store, target string) []string {
	entries, err := os.ReadDir(filepath.Join(store, target))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			if _, err := os.Stat(filepath.Join(store, target, e.Name(), recordName)); err == nil {
				out = append(out, e.Name())
			}
		}
	}
	slices.Sort(out)
	return out
}

// CanUndo lists the targets with an apply to undo.
func CanUndo(p install.Paths) []string {
	var out []string
	for _, t := range install.Targets {
		if len(records(p.Store, t.ID)) > 0 {
			out = append(out, t.ID)
		}
	}
	return out
}

// UndoApply undoes the latest apply into target that changed something:
// each file it replaced gets its earlier bytes and mode back, each file it
// created is removed. A file changed since (by the user, by the program)
// is not the apply's to take back: nothing is undone and the error names
// it. Undoing again goes one apply further back.
func UndoApply(p install.Paths, target string) (Undone, error) {
	defer lockTarget(target)()
	recs := records(p.Store, target)
	if len(recs) == 0 {
		return Undone{}, fmt.Errorf("undo apply to %s: nothing to undo", target)
	}
	recDir := filepath.Join(p.Store, target, recs[len(recs)-1])
	raw, err := fsread.ReadFile(filepath.Join(recDir, recordName), maxReplaced, fsread.NoFollow)
	if err != nil {
		return Undone{}, fmt.Errorf("undo apply to %s: %w", target, err)
	}
	var rec applyRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return Undone{}, fmt.Errorf("undo apply to %s: record %s is damaged: %w", target, recDir, err)
	}
	return undoRecord(target, recDir, rec)
}

// undoRecord undoes the apply recorded in recDir (rec, read from it) and
// removes the record: UndoApply's work, and a refused Apply's taking back
// of what it had written. The caller holds the target's lock.
func undoRecord(target, recDir string, rec applyRecord) (Undone, error) {
	out := Undone{Target: rec.Target, Theme: rec.Theme}
	// First check every file, so an undo is all or nothing.
	var changed []string
	reverted := map[int][]byte{} // settings files changed since: the setting taken back out
	// read is each file as the check found it, there while it was: it
	// is written back only while it still holds exactly that.
	read, there := make([][]byte, len(rec.Files)), make([]bool, len(rec.Files))
	for i, f := range rec.Files {
		b, err := fsread.ReadFile(f.Path, maxReplaced, fsread.NoFollow)
		read[i], there[i] = b, err == nil
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// Already gone: restoring or removing it is still right.
		case err != nil:
			return out, fmt.Errorf("undo apply to %s: %w", target, err)
		case digest(b) != f.Wrote && (f.Next == "" || digest(b) != f.Next) && !(f.Existed && holds(filepath.Join(recDir, filepath.Base(f.Backup)), b)):
			// (Holding the backup's bytes: the apply failed before writing it.)
			if data, ok := undoText(b, f.Undo); ok {
				reverted[i] = data
				continue
			}
			changed = append(changed, f.Path)
		}
	}
	if len(changed) > 0 {
		return out, fmt.Errorf("undo apply to %s: %s changed since the apply, so it was left alone (nothing was undone; the earlier version is in %s)",
			target, strings.Join(changed, ", "), recDir)
	}
	for i := len(rec.Files) - 1; i >= 0; i-- {
		f := rec.Files[i]
		dir, err := fswrite.Open(filepath.Dir(f.Path), "")
		if err != nil {
			return out, fmt.Errorf("undo apply to %s: %w", target, err)
		}
		name := filepath.Base(f.Path)
		// Written back over exactly the bytes checked above (or where
		// nothing was), compared right before the rename: a save the user
		// makes meanwhile is never replaced by bytes computed from, or
		// chosen by, the older content.
		put := func(data []byte, perm fs.FileMode) error {
			if beforeUndoWrite != nil {
				beforeUndoWrite(f.Path)
			}
			var err error
			if there[i] {
				_, err = dir.ReplaceIfUnchanged(name, read[i], data, perm)
			} else {
				_, err = dir.WriteIfAbsent(name, data, perm)
			}
			if errors.Is(err, fswrite.ErrChanged) {
				err = fmt.Errorf("%w: saved while Undo was writing it, it was left as saved (undo again to take the apply back from it)", err)
			}
			return err
		}
		if data, ok := reverted[i]; ok {
			perm := fs.FileMode(0o644)
			if fi, lerr := dir.Lstat(name); lerr == nil {
				perm = fi.Mode().Perm()
			}
			if err = put(data, perm); err == nil {
				out.Restored = append(out.Restored, f.Path)
			}
		} else if f.Existed {
			var old []byte
			if old, err = fsread.ReadFile(filepath.Join(recDir, filepath.Base(f.Backup)), maxReplaced, fsread.NoFollow); err == nil {
				err = put(old, f.Mode)
			}
			if err == nil {
				out.Restored = append(out.Restored, f.Path)
			}
		} else {
			err = dir.Remove(name)
			if errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
			if err == nil {
				out.Removed = append(out.Removed, f.Path)
			}
		}
		dir.Close()
		if err != nil {
			return out, fmt.Errorf("undo apply to %s: %w", target, err)
		}
	}
	// The folders the apply made go too, when nothing else is in them.
	for _, d := range rec.Dirs {
		os.Remove(d)
	}
	if err := os.RemoveAll(recDir); err != nil {
		return out, fmt.Errorf("undo apply to %s: done, but its record stays: %w", target, err)
	}
	return out, nil
}

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// recordJSON is the record as JSON; it holds only strings, times and
// modes, so it always encodes.
func recordJSON(rec applyRecord) []byte {
	b, err := json.Marshal(rec)
	if err != nil {
		panic("apply: " + err.Error())
	}
	return b
}

// missingDirs lists dir and its parents that do not exist yet, deepest
// first: the folders writing a file into dir creates.
func missingDirs(dir string) []string {
	var out []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) {
			return out
		}
		out = append(out, d)
		if filepath.Dir(d) == d {
			return out
		}
	}
}
