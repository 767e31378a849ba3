// Package editing is the designer's hand edits of a workspace's
// theme.json: each edit written over the file as it is now (never over a
// write of the agent's it did not see), recorded as one undo step and for
// the agent's next prompt (core/handedit keeps the record), undone and
// redone, and the locked colours put back whenever someone changes them.
//
// It knows no window: app.Editor, the bound service, turns its results
// into the page's EditorState and its hooks (Edits' func fields) into
// events.
package editing

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sync"

	"cdxtheme/core/checkpoint"
	"cdxtheme/core/companion"
	"cdxtheme/core/fsread"
	"cdxtheme/core/fswrite"
	"cdxtheme/core/handedit"
	"cdxtheme/core/theme"
	"cdxtheme/core/workspace"

	"github.com/rs/zerolog"
)

// Edits makes the hand edits of every workspace. Its func fields are the
// app's hooks, set before it is used; a nil hook is skipped.
type Edits struct {
	// Log is where what cannot be told to the designer goes (a pointer:
	// the app's logger may be replaced after the editor is made).
	Log *zerolog.Logger
	// Busy reports whether a turn runs in the workspace: the agent owns
	// theme.json then, and no hand edit is made.
	Busy func(workspaceID string) bool
	// Checkpointed runs after the checkpoint "before this edit" is taken.
	Checkpointed func(workspaceID string)
	// Wrote runs after theme.json was written with data.
	Wrote func(workspaceID string, data []byte)
	// Changed runs when the editor's state changed on its own (locked
	// colours put back, a variant kept); notice says what was done.
	Changed func(workspaceID, notice string)
	// Renamed runs, under the editor's lock, when an undo or redo gave
	// the theme (t, written as data) back another name.
	Renamed func(ws workspace.Meta, t *theme.Theme, data []byte)
	// BeforeWrite, when set (by tests, before the editor is used), runs
	// in writeTheme between a read of theme.json and the write made from
	// it: where the agent's write lands in the race tests.
	BeforeWrite func(workspaceID string)

	// mu serialises the hand-edit records (and the theme watchers'
	// reads, Mutex).
	mu sync.Mutex
	// lockMu guards duringTurn: per workspace, the locked colours the
	// watcher put back while a turn ran, for the turn's closing warning.
	lockMu     sync.Mutex
	duringTurn map[string][]handedit.Restored
}

// View is a workspace's theme as an operation left it (nil when
// theme.json is not a valid theme) and its hand-edit record: what the
// editor shows.
type View struct {
	Theme *theme.Theme
	Log   *handedit.Log
}

// Mutex is the lock every hand edit holds; the theme watcher holds it
// while it reads, so it never reads a half-made edit.
func (e *Edits) Mutex() *sync.Mutex { return &e.mu }

// errAgentWriting refuses a hand edit while a turn runs in the workspace.
var errAgentWriting = errors.New("the agent is writing this theme; wait for its turn to end or stop it")

// free says whether theme.json is the designer's to write now. Asked
// again on each try of an edit: a turn that started since owns the file.
func (e *Edits) free(workspaceID string) error {
	if e.Busy != nil && e.Busy(workspaceID) {
		return errAgentWriting
	}
	return nil
}

// Read reads the workspace's theme.json, its bytes and the parsed theme.
func Read(ws workspace.Meta) ([]byte, *theme.Theme, error) {
	data, err := fsread.ReadFile(filepath.Join(ws.Dir, theme.FileName), theme.MaxFileSize, fsread.NoFollow)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", theme.FileName, err)
	}
	t, err := theme.Parse(data)
	if err != nil {
		return data, nil, fmt.Errorf("%s is not valid, fix it first: %w", theme.FileName, err)
	}
	return data, t, nil
}

// writeTheme replaces the workspace's theme.json atomically, never through
// a link the agent planted, with data made from was (what Read read):
// when theme.json is no longer was, someone (the agent, mid-turn or not)
// wrote it since, and nothing is written (fswrite.ErrChanged); the caller
// reads again and makes its change over that write (rewrite), which is
// never lost to a change computed from the older file.
func (e *Edits) writeTheme(ws workspace.Meta, was, data []byte) error {
	if e.BeforeWrite != nil {
		e.BeforeWrite(ws.ID)
	}
	d, err := fswrite.Open(ws.Dir, "")
	if err != nil {
		return err
	}
	defer d.Close()
	_, err = d.ReplaceIfUnchanged(theme.FileName, was, data, 0o644)
	return err
}

func (e *Edits) wrote(workspaceID string, data []byte) {
	if e.Wrote != nil {
		e.Wrote(workspaceID, data)
	}
}

func (e *Edits) changed(workspaceID, notice string) {
	if e.Changed != nil {
		e.Changed(workspaceID, notice)
	}
}

// Rewrites bounds how often a read-modify-write of theme.json is made
// again when theme.json changed between its read and its write: an agent
// rewriting the file in a loop must not hold the editor's lock forever.
const Rewrites = 3

// rewrite runs f, a read-modify-write of theme.json, again from a fresh
// read while its write finds theme.json changed (at most Rewrites times).
func rewrite(f func() error) error {
	var err error
	for range Rewrites {
		if err = f(); !errors.Is(err, fswrite.ErrChanged) {
			return err
		}
	}
	return fmt.Errorf("%s kept changing while it was written, so nothing was written; try again: %w", theme.FileName, err)
}

// WithRecord runs f on the workspace's hand-edit record under the editor
// lock and saves it when f succeeds. It returns the record as f left it.
func (e *Edits) WithRecord(workspaceID string, f func(l *handedit.Log) error) (*handedit.Log, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	p := handedit.RecordPath(workspaceID)
	l, err := handedit.Load(p)
	if err != nil && l == nil {
		return nil, err
	}
	if err != nil {
		e.Log.Warn().Err(err).Str("workspace", workspaceID).Msg("hand-edit record")
	}
	if err := f(l); err != nil {
		return nil, err
	}
	return l, l.Save(p)
}

// Edit runs one hand edit of theme.json: change.Apply returns the paths it
// changed (none: nothing to write); the edit is written after a checkpoint,
// recorded as one undo step and for the agent's next prompt.
func (e *Edits) Edit(ws workspace.Meta, change Change) (View, error) {
	label := change.Label
	var v View
	err := rewrite(func() error {
		if err := e.free(ws.ID); err != nil {
			return err
		}
		before, t, err := Read(ws)
		if err != nil {
			return err
		}
		changed, err := change.Apply(t)
		if err != nil {
			return err
		}
		l, err := e.WithRecord(ws.ID, func(l *handedit.Log) error {
			if len(changed) == 0 {
				return nil
			}
			after, err := theme.Rewrite(before, t)
			if err != nil {
				return err
			}
			if err := e.handWrite(ws, label, before, after); err != nil {
				return err
			}
			l.Record(handedit.Step{Label: label, Paths: changed, Before: before, After: after}, t)
			l.Relock(t, changed)
			return nil
		})
		v = View{Theme: t, Log: l}
		return err
	})
	return v, err
}

// Companion gives the theme its other appearance derived from it
// (companion.Counterpart) or derives it again over the one it has (derive),
// or drops it; an edit like any other: a checkpoint first, and undo.
func (e *Edits) Companion(ws workspace.Meta, derive bool) (View, error) {
	var v View
	err := rewrite(func() error {
		if err := e.free(ws.ID); err != nil {
			return err
		}
		before, t, err := Read(ws)
		if err != nil {
			return err
		}
		other := theme.Opposite(t.Appearance)
		var label string
		switch {
		case derive && t.Companion == nil:
			label = "Add the " + other + " variant"
		case derive:
			label = "Derive the " + other + " variant again"
		case t.Companion == nil:
			return errors.New("the theme has no " + other + " variant to remove")
		default:
			label = "Remove the " + other + " variant"
		}
		if derive {
			t.Companion = companion.Counterpart(t)
		} else {
			t.Companion = nil
		}
		l, err := e.WithRecord(ws.ID, func(l *handedit.Log) error {
			if derive {
				l.KeepCompanionLocks(t) // derived again, a locked colour keeps its own
			}
			after, err := theme.Rewrite(before, t)
			if err != nil {
				return err
			}
			if err := e.handWrite(ws, label, before, after); err != nil {
				return err
			}
			l.Record(handedit.Step{Label: label, Paths: []string{"companion"}, Before: before, After: after}, t)
			l.Forget(t)
			return nil
		})
		v = View{Theme: t, Log: l}
		return err
	})
	return v, err
}

// handWrite takes the checkpoint "before this edit" and writes theme.json
// over was (writeTheme). Made again after theme.json changed, it takes the
// checkpoint again: that one holds the write the edit is now made over.
func (e *Edits) handWrite(ws workspace.Meta, label string, was, data []byte) error {
	if _, err := checkpoint.Take(ws.Dir, checkpoint.Info{Kind: checkpoint.KindEdit, Label: label}); err != nil {
		return fmt.Errorf("checkpoint before the edit: %w", err)
	}
	if e.Checkpointed != nil {
		e.Checkpointed(ws.ID)
	}
	if err := e.writeTheme(ws, was, data); err != nil {
		return err
	}
	e.wrote(ws.ID, data)
	return nil
}

// Step puts theme.json back as it was before the last hand edit (undo),
// or makes the last undone one again.
func (e *Edits) Step(ws workspace.Meta, undo bool) (View, error) {
	parse := func(b []byte) *theme.Theme {
		t, _ := theme.Parse(b)
		return t
	}
	var v View
	err := rewrite(func() error {
		if err := e.free(ws.ID); err != nil {
			return err
		}
		current, _, err := Read(ws)
		if current == nil {
			return err
		}
		var t *theme.Theme
		l, err := e.WithRecord(ws.ID, func(l *handedit.Log) error {
			var s handedit.Step
			var err error
			write, verb := []byte(nil), "Undo"
			if undo {
				s, err = l.TakeUndo(current, parse)
				write = s.Before
			} else {
				s, err = l.TakeRedo(current, parse)
				write, verb = s.After, "Redo"
			}
			if err != nil {
				return err
			}
			if err := e.handWrite(ws, verb+": "+s.Label, current, write); err != nil {
				return err
			}
			if t = parse(write); t == nil {
				return nil
			}
			l.Relock(t, s.Paths)
			l.Forget(t) // an undone variant takes its locks with it
			if slices.Contains(s.Paths, "name") && e.Renamed != nil {
				e.Renamed(ws, t, write)
			}
			return nil
		})
		v = View{Theme: t, Log: l}
		return err
	})
	return v, err
}

// Note is the hand-edit note for a workspace's next prompt and the
// changes it reports (Told forgets them once the turn ran).
func (e *Edits) Note(workspaceID string) (string, map[string]string) {
	var note string
	told := map[string]string{}
	_, err := e.WithRecord(workspaceID, func(l *handedit.Log) error {
		note = l.PromptNote()
		for k, v := range l.Changed {
			told[k] = v
		}
		return nil
	})
	if err != nil {
		e.Log.Warn().Err(err).Str("workspace", workspaceID).Msg("hand-edit note")
	}
	return note, told
}

// Told forgets the changes a turn's prompt reported (Note).
func (e *Edits) Told(workspaceID string, told map[string]string) {
	if len(told) == 0 {
		return
	}
	if _, err := e.WithRecord(workspaceID, func(l *handedit.Log) error { l.Told(told); return nil }); err != nil {
		e.Log.Warn().Err(err).Str("workspace", workspaceID).Msg("hand-edit note")
	}
}

// CompanionOf is the light/dark variant the workspace's theme.json has now
// (nil without one, or when theme.json is missing or invalid).
func CompanionOf(ws workspace.Meta) *theme.Theme {
	_, t, _ := Read(ws)
	if t == nil {
		return nil
	}
	return t.Companion
}

// KeepCompanion runs after a turn: when theme.json had the variant was
// before it and the agent's rewrite left it out, it is put back (a hand-edit
// step, so Undo drops it again) and the returned notice says so. A variant
// that now has the theme's own appearance, or whose name the theme took,
// cannot be put back beside it; that is said instead.
func (e *Edits) KeepCompanion(ws workspace.Meta, was *theme.Theme) string {
	if was == nil {
		return ""
	}
	var msg string
	err := rewrite(func() error {
		msg = ""
		return e.keepCompanionOnce(ws, was, &msg)
	})
	if err != nil {
		e.Log.Warn().Err(err).Str("workspace", ws.ID).Msg("keep companion")
		return "The agent's rewrite left out the " + was.Appearance + " variant; it could not be kept: " + err.Error()
	}
	if msg != "" {
		e.changed(ws.ID, "")
	}
	return msg
}

// keepCompanionOnce is one try of KeepCompanion, from a fresh read.
func (e *Edits) keepCompanionOnce(ws workspace.Meta, was *theme.Theme, msg *string) error {
	_, err := e.WithRecord(ws.ID, func(l *handedit.Log) error {
		before, t, _ := Read(ws)
		if t == nil || t.Companion != nil {
			return nil // nothing to check in a broken theme; a variant is there
		}
		if t.Appearance == was.Appearance {
			*msg = fmt.Sprintf("The agent's rewrite left out the %s variant and made the theme itself %s, so the variant was not kept.", was.Appearance, t.Appearance)
			return nil
		}
		t.Companion = was
		after, err := theme.Rewrite(before, t)
		if err != nil {
			return err
		}
		if _, err := theme.Parse(after); err != nil {
			*msg = fmt.Sprintf("The agent's rewrite left out the %s variant; it could not be kept: %v", was.Appearance, err)
			return nil
		}
		label := "Keep the " + was.Appearance + " variant the agent left out"
		if err := e.handWrite(ws, label, before, after); err != nil {
			return err
		}
		l.Record(handedit.Step{Label: label, Paths: []string{"companion"}, Before: before, After: after}, t)
		*msg = "Kept the " + was.Appearance + " variant the agent's rewrite left out."
		return nil
	})
	return err
}

// Rename writes the build's name into theme.json as a hand edit does
// (a checkpoint first, an atomic write, a step to undo), unless the agent
// is writing the theme now or theme.json is not a valid theme.
func (e *Edits) Rename(ws workspace.Meta) error {
	return rewrite(func() error {
		if err := e.free(ws.ID); err != nil {
			return err
		}
		before, t, err := Read(ws)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // no theme yet
			}
			return err
		}
		if !theme.Rename(t, ws.Title) {
			return nil
		}
		after, err := theme.Rewrite(before, t)
		if err != nil {
			return err
		}
		if _, err := theme.Parse(after); err != nil {
			return err // the new name clashes with the companion's
		}
		label := fmt.Sprintf("Rename the theme to %q", t.Name)
		_, err = e.WithRecord(ws.ID, func(l *handedit.Log) error {
			if err := e.handWrite(ws, label, before, after); err != nil {
				return err
			}
			l.Record(handedit.Step{Label: label, Paths: []string{"name"}, Before: before, After: after}, t)
			return nil
		})
		return err
	})
}
