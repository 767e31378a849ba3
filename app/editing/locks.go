package editing

import (
	"fmt"
	"slices"
	"strings"

	"cdxtheme/core/handedit"
	"cdxtheme/core/theme"
	"cdxtheme/core/workspace"
)

// The leads of the two notices about locked colours put back: the turn's
// closing warning, and the editor's notice for a change the watcher saw.
const (
	TurnLocksLead    = "The agent changed locked colours; they were restored: "
	watcherLocksLead = "Locked colours were changed in theme.json; they were restored: "
)

// maxDuringTurn bounds the restores kept for one turn's closing warning:
// an agent rewriting theme.json in a loop must not grow it without end.
const maxDuringTurn = 64

// EnforceLocks runs after a turn: every locked colour the agent changed is
// put back in theme.json, and the returned message names each one, with
// those the watcher put back during the turn (LockedChanged), in one
// sentence: which of the two saw the agent's last write first is a race
// (the watcher reads a whole file at its first event), and the designer's
// warning must not depend on it. An invalid theme.json cannot be repaired
// role by role, which is said too.
func (e *Edits) EnforceLocks(ws workspace.Meta) string {
	var all []handedit.Restored
	msg, _ := e.restoreLocks(ws, TurnLocksLead, true, func(restored []handedit.Restored) {
		// Taken under the editor's lock, as LockedChanged records: a
		// restore the watcher made just before this one is in it.
		e.lockMu.Lock()
		all = append(e.duringTurn[ws.ID], restored...)
		delete(e.duringTurn, ws.ID)
		e.lockMu.Unlock()
	})
	var parts []string
	if len(all) > 0 {
		parts = append(parts, TurnLocksLead+restoredText(all))
	}
	if strings.HasPrefix(msg, "The locked colours could not") {
		parts = append(parts, msg)
	}
	return strings.Join(parts, " ")
}

// restoredText names each restored colour once, in the order first put
// back, with every value written over it (an agent may have written it
// more than once in a turn) and the colour kept.
func restoredText(all []handedit.Restored) string {
	type entry struct {
		was  []string
		kept string
	}
	var order []string
	by := map[string]*entry{}
	for _, r := range all {
		e, ok := by[r.Path]
		if !ok {
			e = &entry{}
			by[r.Path] = e
			order = append(order, r.Path)
		}
		if !slices.Contains(e.was, r.Was) {
			e.was = append(e.was, r.Was)
		}
		e.kept = r.Kept
	}
	parts := make([]string, len(order))
	for i, p := range order {
		e := by[p]
		verb := "was"
		if len(e.was) > 1 {
			verb = "were"
		}
		parts[i] = fmt.Sprintf("%s (%s %s written, %s kept)", p, andList(e.was), verb, e.kept)
	}
	return strings.Join(parts, "; ")
}

// andList joins "a", "a and b", "a, b and c".
func andList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// LockedChanged runs on every change of theme.json the watcher sees,
// whoever wrote it (the agent mid-turn, a process it left behind, another
// program): a locked colour is put back at once, so the preview, the
// editor and every export show only the locked value, and the designer is
// told (the Changed hook's notice; during a turn also the turn's closing
// warning). It reports whether it wrote theme.json. Its own write is seen
// by the watcher too, and then finds every lock held: no second write.
func (e *Edits) LockedChanged(ws workspace.Meta) bool {
	// A broken theme.json is the preview's error to show, and the turn's
	// end says the locks could not be checked.
	_, wrote := e.restoreLocks(ws, watcherLocksLead, false, func(restored []handedit.Restored) {
		// Recorded under the editor's lock, with the restore: the turn's
		// end (EnforceLocks) then either finds it here or runs first and
		// finds every lock held by its own restore. Recorded after the
		// restore, outside the lock, it could fall between EnforceLocks'
		// check and its reading of duringTurn and be lost.
		if len(restored) == 0 || e.free(ws.ID) == nil {
			return
		}
		e.lockMu.Lock()
		if e.duringTurn == nil {
			e.duringTurn = map[string][]handedit.Restored{}
		}
		if room := maxDuringTurn - len(e.duringTurn[ws.ID]); room > 0 {
			e.duringTurn[ws.ID] = append(e.duringTurn[ws.ID], restored[:min(room, len(restored))]...)
		}
		e.lockMu.Unlock()
	})
	return wrote
}

// restoreLocks puts every locked colour back into theme.json when someone
// changed it, tells the Changed hook, and returns what it said (lead,
// then each colour; or why it could not), "" when every lock held (or,
// unless reportInvalid, when theme.json is not a valid theme), and
// whether it wrote theme.json. then runs with the colours it put back
// (none when it wrote nothing) while the editor's lock is still held.
func (e *Edits) restoreLocks(ws workspace.Meta, lead string, reportInvalid bool, then func(restored []handedit.Restored)) (string, bool) {
	msg, wrote := e.restoreUnderLock(ws, lead, reportInvalid, then)
	if msg != "" {
		e.changed(ws.ID, msg)
	}
	return msg, len(wrote) > 0
}

// restoreUnderLock is restoreLocks under the editor's lock, as a hand
// edit; the record is only read (nothing in it changes), so a check that
// finds every lock held writes nothing, whichever change of theme.json it
// runs on.
func (e *Edits) restoreUnderLock(ws workspace.Meta, lead string, reportInvalid bool, then func([]handedit.Restored)) (string, []handedit.Restored) {
	e.mu.Lock()
	defer e.mu.Unlock()
	msg, wrote, err := e.restore(ws, lead, reportInvalid)
	if err != nil {
		e.Log.Warn().Err(err).Str("workspace", ws.ID).Msg("enforce locks")
		msg = "The locked colours could not be restored: " + err.Error()
	}
	then(wrote)
	return msg, wrote
}

// restore reads the record and puts the locks back. Made again from a
// fresh read when the agent wrote theme.json between this read and this
// write: the locks are put back into its latest write, never that write
// replaced by the older one's repair. The few microseconds left between
// writeTheme's check and its rename are covered by the watcher: a write
// landing there is a change it sees, and it runs this again.
func (e *Edits) restore(ws workspace.Meta, lead string, reportInvalid bool) (msg string, wrote []handedit.Restored, err error) {
	l, err := handedit.Load(handedit.RecordPath(ws.ID))
	if l == nil {
		return "", nil, err
	}
	if err != nil {
		e.Log.Warn().Err(err).Str("workspace", ws.ID).Msg("hand-edit record")
	}
	if len(l.Locked) == 0 {
		return "", nil, nil
	}
	err = rewrite(func() error {
		var err error
		msg, wrote, err = e.restoreOnce(ws, l, lead, reportInvalid)
		return err
	})
	return msg, wrote, err
}

// restoreOnce is one try of restore, from a fresh read of theme.json.
func (e *Edits) restoreOnce(ws workspace.Meta, l *handedit.Log, lead string, reportInvalid bool) (string, []handedit.Restored, error) {
	before, t, err := Read(ws)
	if t == nil {
		if before != nil && reportInvalid {
			return "The locked colours could not be checked: " + err.Error(), nil, nil
		}
		return "", nil, nil
	}
	restored := l.EnforceLocks(t)
	if len(restored) == 0 {
		return "", nil, nil
	}
	after, err := theme.Rewrite(before, t)
	if err != nil {
		return "", nil, err
	}
	// Written only when it holds: a file that would still break a lock
	// once written would have the watcher restore it again, forever.
	if back, err := theme.Parse(after); err != nil || len(l.EnforceLocks(back)) > 0 {
		return "", nil, fmt.Errorf("the restored %s would not keep them (%v)", theme.FileName, err)
	}
	if err := e.writeTheme(ws, before, after); err != nil {
		return "", nil, err
	}
	e.wrote(ws.ID, after)
	return lead + restoredText(restored), restored, nil
}
