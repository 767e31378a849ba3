// Package handedit is the record of a designer's own edits to a theme: the
// roles they locked (with the colour each must keep), the roles they changed
// since the agent last heard of it, and the undo and redo steps of those
// edits. It lives in the app's data folder, not the workspace, so the agent
// (which writes the workspace) can neither unlock a role nor rewrite the
// history.
package handedit

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"cdxtheme/core/fsread"
	"cdxtheme/core/paths"
	"cdxtheme/core/theme"
)

// MaxSteps is how many undo (and redo) steps are kept; older ones go.
const MaxSteps = 100

// maxFile bounds the record file: MaxSteps documents of theme.MaxFileSize
// would be far more than any real use, so the record keeps small documents.
const maxFile = 16 << 20

// Step is one hand edit: the document before and after it.
type Step struct {
	Label  string   `json:"label"`
	Paths  []string `json:"paths"`
	Before []byte   `json:"before"`
	After  []byte   `json:"after"`
}

// Log is a workspace's hand-edit record.
type Log struct {
	// Locked maps a role path to the colour it must keep.
	Locked map[string]string `json:"locked"`
	// Changed maps a role path the user changed to its new colour, until
	// a prompt has told the agent.
	Changed map[string]string `json:"changed"`
	Undo    []Step            `json:"undo"`
	Redo    []Step            `json:"redo"`
}

// RecordPath is where a workspace's hand-edit record (its locks among
// them) is kept: the app's data folder, which the agent does not write.
// The desktop app and the CLI read the same one.
func RecordPath(workspaceID string) string {
	return filepath.Join(paths.DataDir(), "handedits", workspaceID+".json")
}

// Load reads the record at path; a missing file is an empty record. A
// damaged one is set aside (renamed with a .damaged suffix) and reported,
// with an empty record in its place, so nothing overwrites it.
func Load(path string) (*Log, error) {
	l := &Log{Locked: map[string]string{}, Changed: map[string]string{}}
	data, err := fsread.ReadFile(path, maxFile, fsread.NoFollow)
	if errors.Is(err, fs.ErrNotExist) {
		return l, nil
	}
	if err == nil {
		err = json.Unmarshal(data, l)
	}
	if err != nil {
		aside := fmt.Sprintf("%s.damaged-%d", path, time.Now().Unix())
		if rerr := os.Rename(path, aside); rerr != nil {
			return nil, fmt.Errorf("hand-edit record %s unreadable (%v) and not set aside: %w", path, err, rerr)
		}
		return &Log{Locked: map[string]string{}, Changed: map[string]string{}},
			fmt.Errorf("hand-edit record was damaged (%v); set aside as %s", err, aside)
	}
	if l.Locked == nil {
		l.Locked = map[string]string{}
	}
	if l.Changed == nil {
		l.Changed = map[string]string{}
	}
	return l, nil
}

// Peek reads the record at path without touching it: a missing file is an
// empty record, a damaged one an error (Load, the app's, sets it aside).
// For readers that must not write, such as the agent's MCP tools.
func Peek(path string) (*Log, error) {
	l := &Log{Locked: map[string]string{}, Changed: map[string]string{}}
	data, err := fsread.ReadFile(path, maxFile, fsread.NoFollow)
	if errors.Is(err, fs.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return nil, fmt.Errorf("hand-edit record: %w", err)
	}
	if err := json.Unmarshal(data, l); err != nil {
		return nil, fmt.Errorf("hand-edit record %s: %w", path, err)
	}
	if l.Locked == nil {
		l.Locked = map[string]string{}
	}
	if l.Changed == nil {
		l.Changed = map[string]string{}
	}
	return l, nil
}

// Save writes the record atomically.
func (l *Log) Save(path string) error {
	data, err := json.Marshal(l)
	if err != nil {
		return fmt.Errorf("hand-edit record: %w", err)
	}
	return paths.WriteFileAtomic(path, data, 0o600)
}

// Record adds an edit that turned before into after (t is after, parsed):
// an undo step, no redo, and the changed roles noted for the next prompt.
func (l *Log) Record(s Step, t *theme.Theme) {
	l.Undo = pushCapped(l.Undo, s)
	l.Redo = nil
	l.note(s.Paths, t)
}

func (l *Log) note(changed []string, t *theme.Theme) {
	for _, p := range changed {
		if c, ok := ColorAt(t, p); ok {
			l.Changed[p] = c.String()
		}
	}
}

func pushCapped(list []Step, s Step) []Step {
	list = append(list, s)
	if len(list) > MaxSteps {
		list = append([]Step(nil), list[len(list)-MaxSteps:]...)
	}
	return list
}

// ErrChangedSince is an undo or redo refused because theme.json is no
// longer what the step left (the agent or an editor wrote it since).
var ErrChangedSince = errors.New("theme.json changed since that edit; restore a checkpoint instead")

// TakeUndo pops the last step when current is what it left, and moves it
// to the redo list; the caller writes step.Before.
func (l *Log) TakeUndo(current []byte, t func([]byte) *theme.Theme) (Step, error) {
	if len(l.Undo) == 0 {
		return Step{}, errors.New("nothing to undo")
	}
	s := l.Undo[len(l.Undo)-1]
	if string(s.After) != string(current) {
		return Step{}, ErrChangedSince
	}
	l.Undo = l.Undo[:len(l.Undo)-1]
	l.Redo = pushCapped(l.Redo, s)
	if th := t(s.Before); th != nil {
		l.note(s.Paths, th)
	}
	return s, nil
}

// TakeRedo pops the last undone step when current is what its undo left;
// the caller writes step.After.
func (l *Log) TakeRedo(current []byte, t func([]byte) *theme.Theme) (Step, error) {
	if len(l.Redo) == 0 {
		return Step{}, errors.New("nothing to redo")
	}
	s := l.Redo[len(l.Redo)-1]
	if string(s.Before) != string(current) {
		return Step{}, ErrChangedSince
	}
	l.Redo = l.Redo[:len(l.Redo)-1]
	l.Undo = pushCapped(l.Undo, s)
	if th := t(s.After); th != nil {
		l.note(s.Paths, th)
	}
	return s, nil
}

// ColorAt is the colour at a role path or palette entry ("palette.ink"),
// of the companion for a "companion." path (theme.Split); false when the
// document has no such colour (or the theme no companion).
func ColorAt(t *theme.Theme, path string) (theme.Color, bool) {
	doc, rest := t.At(path)
	if doc == nil {
		return theme.Color{}, false
	}
	if name, ok := strings.CutPrefix(rest, theme.PalettePrefix); ok {
		c, ok := doc.Palette[name]
		return c, ok
	}
	if _, ok := theme.RoleByPath(rest); ok {
		return doc.Color(rest), true
	}
	return theme.Color{}, false
}

// Lock records that path must keep its colour in t; unlock forgets it.
func (l *Log) Lock(t *theme.Theme, path string, locked bool) error {
	if !locked {
		delete(l.Locked, path)
		return nil
	}
	c, ok := ColorAt(t, path)
	if !ok {
		return fmt.Errorf("%s: no such colour role", path)
	}
	l.Locked[path] = c.String()
	return nil
}

// Relock moves the locks of the changed paths to their new colours: the
// user's own edit of a locked role is what the lock keeps from then on.
func (l *Log) Relock(t *theme.Theme, changed []string) {
	for _, p := range changed {
		if _, ok := l.Locked[p]; ok {
			if c, ok := ColorAt(t, p); ok {
				l.Locked[p] = c.String()
			}
		}
	}
}

// PromptNote is what the next prompt tells the agent: the roles the user
// changed by hand (with their colours) and the locked ones it must keep.
// It is "" when there is nothing to tell.
func (l *Log) PromptNote() string {
	if len(l.Changed) == 0 && len(l.Locked) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<hand-edits>\n")
	if len(l.Changed) > 0 {
		b.WriteString("Since your last turn the user edited these colours in theme.json by hand; keep them unless asked otherwise:\n")
		for _, p := range sortedKeys(l.Changed) {
			fmt.Fprintf(&b, "- %s = %s\n", p, l.Changed[p])
		}
	}
	if len(l.Locked) > 0 {
		b.WriteString("These colours are LOCKED by the user. Do not change them; the app restores a locked colour after your turn:\n")
		for _, p := range sortedKeys(l.Locked) {
			fmt.Fprintf(&b, "- %s = %s\n", p, l.Locked[p])
		}
	}
	b.WriteString("</hand-edits>")
	return b.String()
}

// Told forgets the changes a prompt note reported (a copy of Changed taken
// when the note was made), unless the user changed them again since.
func (l *Log) Told(reported map[string]string) {
	for p, c := range reported {
		if l.Changed[p] == c {
			delete(l.Changed, p)
		}
	}
}

// Forget drops the locks and the unreported changes of the companion's
// colours when t has no companion (it was removed, or its addition
// undone): the agent must not be told to keep colours of a variant that
// is gone, and no lock can put them back. Undoing the removal brings the
// colours back, not their locks.
func (l *Log) Forget(t *theme.Theme) {
	if t.Companion != nil {
		return
	}
	for _, m := range []map[string]string{l.Locked, l.Changed} {
		for p := range m {
			if companion, _ := theme.Split(p); companion {
				delete(m, p)
			}
		}
	}
}

// Restored is a locked colour the agent changed, put back.
type Restored struct {
	Path string `json:"path"`
	Was  string `json:"was"` // what the agent wrote
	Kept string `json:"kept"`
}

// EnforceLocks puts every locked colour back into t and returns those it
// had to restore, in path order.
func (l *Log) EnforceLocks(t *theme.Theme) []Restored {
	return l.enforce(t, sortedKeys(l.Locked))
}

// KeepCompanionLocks puts the companion's locked colours back into t after
// its companion was derived anew, and returns those it had to restore: a
// lock keeps its colour through "derive again" as through an agent's turn.
func (l *Log) KeepCompanionLocks(t *theme.Theme) []Restored {
	var keys []string
	for _, p := range sortedKeys(l.Locked) {
		if companion, _ := theme.Split(p); companion {
			keys = append(keys, p)
		}
	}
	return l.enforce(t, keys)
}

func (l *Log) enforce(t *theme.Theme, keys []string) []Restored {
	var out []Restored
	for _, p := range keys {
		want, err := theme.ParseColor(l.Locked[p])
		if err != nil {
			continue
		}
		got, ok := ColorAt(t, p)
		if !ok || got == want {
			continue
		}
		// The locked entry goes back, and with it the roles that follow it;
		// a palette lock does not carry to the roles the agent detached from
		// it. A companion's lock goes back into the companion.
		doc, rest := t.At(p)
		if name, ok := strings.CutPrefix(rest, theme.PalettePrefix); ok {
			if _, err := doc.SetEntry(name, want); err != nil {
				continue
			}
		} else {
			doc.Set(rest, want)
		}
		out = append(out, Restored{Path: p, Was: got.String(), Kept: want.String()})
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
