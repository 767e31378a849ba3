package app

import (
	"sort"
	"strings"

	"cdxtheme/app/editing"
	"cdxtheme/core/handedit"
	"cdxtheme/core/theme"
	"cdxtheme/core/themewatch"
	"cdxtheme/core/workspace"
)

// EditorEvent is the payload of the "editor" event: a workspace's hand-edit
// state changed (an edit, a lock, an undo, or locks restored after a turn).
type EditorEvent struct {
	WorkspaceID string `json:"workspaceId"`
	// Notice tells the designer what the app did on its own: locked
	// colours someone rewrote, put back.
	Notice string `json:"notice,omitempty"`
}

// EditorRole is one colour the editor lists (editing.Role: its fields
// are the page's).
type EditorRole editing.Role

// EditorState is what the editor shows besides the theme: the locks, the
// roles changed since the agent last heard, and what undo/redo would do.
type EditorState struct {
	Roles     []EditorRole `json:"roles"`
	Changed   []string     `json:"changed"`
	CanUndo   bool         `json:"canUndo"`
	CanRedo   bool         `json:"canRedo"`
	UndoLabel string       `json:"undoLabel"`
	RedoLabel string       `json:"redoLabel"`
}

// ColorTrial is a colour tried for a role before it is written
// (editing.Trial: its fields are the page's).
type ColorTrial editing.Trial

// TryColorRequest is a colour to try: Hex, or OKLCH when Hex is "".
type TryColorRequest struct {
	WorkspaceID string       `json:"workspaceId"`
	Path        string       `json:"path"`
	Hex         string       `json:"hex"`
	OKLCH       *theme.OKLCH `json:"oklch"`
}

// EditColorRequest sets one colour (a role or a palette entry).
type EditColorRequest struct {
	WorkspaceID string `json:"workspaceId"`
	Path        string `json:"path"`
	Hex         string `json:"hex"`
}

func editorState(t *theme.Theme, l *handedit.Log) EditorState {
	st := EditorState{Roles: []EditorRole{}, Changed: []string{}, CanUndo: len(l.Undo) > 0, CanRedo: len(l.Redo) > 0}
	if st.CanUndo {
		st.UndoLabel = l.Undo[len(l.Undo)-1].Label
	}
	if st.CanRedo {
		st.RedoLabel = l.Redo[len(l.Redo)-1].Label
	}
	for p := range l.Changed {
		st.Changed = append(st.Changed, p)
	}
	sort.Strings(st.Changed)
	if t == nil {
		return st
	}
	for _, r := range editing.Roles(t, l) {
		st.Roles = append(st.Roles, EditorRole(r))
	}
	return st
}

// EditorState is the workspace's roles with their locks, and its undo and
// redo.
func (ed *Editor) EditorState(workspaceID string) (EditorState, error) {
	ws, err := ed.openWorkspace(workspaceID)
	if err != nil {
		return EditorState{}, err
	}
	_, t, _ := editing.Read(ws) // without a valid theme the state still has undo and the changes
	l, err := ed.edits.WithRecord(workspaceID, func(*handedit.Log) error { return nil })
	if err != nil {
		return EditorState{}, err
	}
	return editorState(t, l), nil
}

// TryColor measures a colour for a role without writing it: the picker
// shows the pairs' contrast live as the designer drags.
func (ed *Editor) TryColor(req TryColorRequest) (ColorTrial, error) {
	ws, err := ed.openWorkspace(req.WorkspaceID)
	if err != nil {
		return ColorTrial{}, err
	}
	_, t, err := editing.Read(ws)
	if err != nil {
		return ColorTrial{}, err
	}
	tr, err := editing.TryColor(t, req.Path, req.Hex, req.OKLCH)
	return ColorTrial(tr), err
}

// MakePass finds the colour for a role nearest its own in OKLCH lightness
// (hue and chroma kept) at which all its pairs reach target; nothing is
// written.
func (ed *Editor) MakePass(workspaceID, path string, target float64) (ColorTrial, error) {
	ws, err := ed.openWorkspace(workspaceID)
	if err != nil {
		return ColorTrial{}, err
	}
	_, t, err := editing.Read(ws)
	if err != nil {
		return ColorTrial{}, err
	}
	tr, err := editing.MakePass(t, path, target)
	return ColorTrial(tr), err
}

// EditColor writes one colour into theme.json, after a checkpoint as a turn
// takes, and records the edit for undo and for the agent's next prompt. A
// palette entry's path ("palette.blue") changes the entry and every role
// following it, as one step; a role's path gives the role its own colour
// (detaching it from the palette entry it followed).
func (ed *Editor) EditColor(req EditColorRequest) (EditorState, error) {
	c, err := theme.ParseColor(strings.TrimSpace(req.Hex))
	if err != nil {
		return EditorState{}, err
	}
	return ed.edit(req.WorkspaceID, editing.SetColor(req.Path, c))
}

// PaletteEntryRequest adds a palette entry or changes its colour.
type PaletteEntryRequest struct {
	WorkspaceID string `json:"workspaceId"`
	// Name is the entry's name, "companion." first for the companion's.
	Name string `json:"name"`
	Hex  string `json:"hex"`
}

// SetPaletteEntry gives a palette entry a colour, adding the entry when the
// palette has none of that name; every role following it moves with it.
// One undo step.
func (ed *Editor) SetPaletteEntry(req PaletteEntryRequest) (EditorState, error) {
	c, err := theme.ParseColor(strings.TrimSpace(req.Hex))
	if err != nil {
		return EditorState{}, err
	}
	return ed.edit(req.WorkspaceID, editing.SetEntry(req.Name, c))
}

// PaletteRampRequest makes a palette entry a ramp, or a plain colour again.
type PaletteRampRequest struct {
	WorkspaceID string `json:"workspaceId"`
	// Name is the entry's name, "companion." first for the companion's.
	Name string `json:"name"`
	// Ramp is the ramp's steps and base step (theme.Ramp: empty for the
	// default eleven steps, the base at the step nearest its lightness);
	// nil makes the entry a plain colour, detaching the roles that
	// followed its steps (they keep their colours).
	Ramp *theme.Ramp `json:"ramp"`
}

// SetPaletteRamp makes a palette entry a ramp generated from its colour
// (roles may then follow "name.600"), or a plain colour again. One undo
// step.
func (ed *Editor) SetPaletteRamp(req PaletteRampRequest) (EditorState, error) {
	return ed.edit(req.WorkspaceID, editing.SetRamp(req.Name, req.Ramp))
}

// AttachRole makes a role follow a palette entry ("blue") or ramp step
// ("blue.600"): its colour becomes the entry's and moves with it. One undo
// step.
func (ed *Editor) AttachRole(workspaceID, path, ref string) (EditorState, error) {
	return ed.edit(workspaceID, editing.Attach(path, ref))
}

// DetachRole makes a role hold its own colour (the one it has) instead of
// following the palette. One undo step.
func (ed *Editor) DetachRole(workspaceID, path string) (EditorState, error) {
	return ed.edit(workspaceID, editing.Detach(path))
}

// edit runs one hand edit of theme.json (editing.Edits.Edit).
func (ed *Editor) edit(workspaceID string, change editing.Change) (EditorState, error) {
	ws, err := ed.openWorkspace(workspaceID)
	if err != nil {
		return EditorState{}, err
	}
	return stateOf(ed.edits.Edit(ws, change))
}

// stateOf is what the editor shows after an operation of editing's.
func stateOf(v editing.View, err error) (EditorState, error) {
	if err != nil {
		return EditorState{}, err
	}
	return editorState(v.Theme, v.Log), nil
}

// DeriveCompanion gives the theme its other appearance derived from it
// (companion.Counterpart), or derives it again over the one it has (after the
// theme changed); an edit like any other: a checkpoint first, and undo.
func (ed *Editor) DeriveCompanion(workspaceID string) (EditorState, error) {
	return ed.editCompanion(workspaceID, true)
}

// RemoveCompanion drops the theme's other appearance (undo brings it back).
func (ed *Editor) RemoveCompanion(workspaceID string) (EditorState, error) {
	return ed.editCompanion(workspaceID, false)
}

func (ed *Editor) editCompanion(workspaceID string, derive bool) (EditorState, error) {
	ws, err := ed.openWorkspace(workspaceID)
	if err != nil {
		return EditorState{}, err
	}
	return stateOf(ed.edits.Companion(ws, derive))
}

// SetLock locks a role (or palette entry) at its current colour, or unlocks it.
func (ed *Editor) SetLock(workspaceID, path string, locked bool) (EditorState, error) {
	ws, err := ed.openWorkspace(workspaceID)
	if err != nil {
		return EditorState{}, err
	}
	_, t, err := editing.Read(ws)
	if err != nil {
		return EditorState{}, err
	}
	l, err := ed.edits.WithRecord(workspaceID, func(l *handedit.Log) error { return l.Lock(t, path, locked) })
	if err != nil {
		return EditorState{}, err
	}
	return editorState(t, l), nil
}

// UndoEdit puts theme.json back as it was before the last hand edit.
func (ed *Editor) UndoEdit(workspaceID string) (EditorState, error) {
	return ed.step(workspaceID, true)
}

// RedoEdit makes the last undone hand edit again.
func (ed *Editor) RedoEdit(workspaceID string) (EditorState, error) {
	return ed.step(workspaceID, false)
}

func (ed *Editor) step(workspaceID string, undo bool) (EditorState, error) {
	ws, err := ed.openWorkspace(workspaceID)
	if err != nil {
		return EditorState{}, err
	}
	return stateOf(ed.edits.Step(ws, undo))
}

// nameAfterTheme keeps a build's name in step with its theme's after an
// undo or redo of a rename: a build the user named takes the name back with
// the theme (the rename was theirs), one that follows its theme follows it.
func (ed *Editor) nameAfterTheme(id string, t *theme.Theme, st themewatch.State) {
	m, err := ed.openWorkspace(id)
	if err != nil || m.Title == t.Name {
		return
	}
	if m.FollowsTheme {
		ed.builds.followTheme(m, st)
		return
	}
	m, err = workspace.Rename(workspace.Root(), id, t.Name)
	if err != nil {
		ed.log.Warn().Err(err).Str("workspace", id).Msg("name the build after its theme")
		return
	}
	ed.emit.Emit("build", ed.builds.cardOf(m, st))
}

// lockedChanged runs on every change of theme.json the watcher sees: a
// locked colour is put back at once (editing.Edits.LockedChanged). It
// reports whether it wrote theme.json.
func (ed *Editor) lockedChanged(workspaceID string) bool {
	ws, err := ed.openWorkspace(workspaceID)
	if err != nil {
		return false
	}
	return ed.edits.LockedChanged(ws)
}

// renameTheme writes the build's name into theme.json as a hand edit does
// (editing.Edits.Rename).
func (ed *Editor) renameTheme(ws workspace.Meta) error { return ed.edits.Rename(ws) }

// newEdits makes the hand-edit engine, its hooks the events the page gets
// and the questions only other services answer.
func (ed *Editor) newEdits() *editing.Edits {
	return &editing.Edits{
		Log:  &ed.log,
		Busy: func(id string) bool { return ed.turns.busy(id) },
		Checkpointed: func(id string) {
			ed.emit.Emit("checkpoints", CheckpointsEvent{WorkspaceID: id})
		},
		Wrote: func(id string, data []byte) {
			ed.emit.Emit("theme", ThemeEvent{WorkspaceID: id, State: themewatch.StateOf(data)})
		},
		Changed: func(id, notice string) {
			ed.emit.Emit("editor", EditorEvent{WorkspaceID: id, Notice: notice})
		},
		Renamed: func(ws workspace.Meta, t *theme.Theme, data []byte) {
			ed.nameAfterTheme(ws.ID, t, themewatch.StateOf(data))
		},
	}
}
