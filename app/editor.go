package app

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"cdxtheme/core/checkpoint"
	"cdxtheme/core/companion"
	"cdxtheme/core/contrast"
	"cdxtheme/core/fsread"
	"cdxtheme/core/fswrite"
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

// EditorRole is one colour the editor lists: a role of the theme or a
// palette entry, with its colour and whether it is locked; or one of its
// companion's, whose Path starts with "companion." (theme.Split).
type EditorRole struct {
	Path  string `json:"path"`
	Label string `json:"label"`
	// Companion is true for a colour of the theme's companion.
	Companion bool `json:"companion,omitempty"`
	// Group is "palette" or the catalogue's group (theme.Groups);
	// Section is the catalogue's heading within it, Help what it paints.
	Group   string `json:"group"`
	Section string `json:"section"`
	Help    string `json:"help"`
	Color   string `json:"color"`
	Locked  bool   `json:"locked"`
	// Derived roles take their colour from Rule (in words) until the
	// designer sets one; setting it gives the role its own colour.
	Derived bool   `json:"derived"`
	Rule    string `json:"rule,omitempty"`
	// Users are, for a palette entry, the roles following it (or a step of
	// its ramp).
	Users []string `json:"users,omitempty"`
	// Follows is, for a role, the palette reference it follows ("blue",
	// "blue.600"; theme.Theme.Follows); "" when it has its own colour.
	Follows string `json:"follows,omitempty"`
	// Steps are, for a ramp entry, its steps in order ("blue.50" …) with
	// their colours and followers.
	Steps []theme.PaletteSwatch `json:"steps,omitempty"`
}

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

// ColorTrial is a colour tried for a role before it is written: its hex and
// OKLCH values and the contrast pairs the role would then have.
type ColorTrial struct {
	Path  string           `json:"path"`
	Hex   string           `json:"hex"`
	OKLCH theme.OKLCH      `json:"oklch"`
	Pairs []contrast.Check `json:"pairs"`
	// Theme is the whole theme with the colour in place, which the preview
	// shows while the picker moves (the page never patches a document).
	Theme *theme.Theme `json:"theme" ts_type:"{[key: string]: unknown}"`
	// Roles are every role as the trial paints it, derived ones included,
	// so the preview follows the rules while the picker moves;
	// CompanionRoles the same for the companion (when the theme has one),
	// which a companion path's trial changes instead.
	Roles          []theme.RoleValue `json:"roles"`
	CompanionRoles []theme.RoleValue `json:"companionRoles,omitempty"`
}

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

// editRecordPath is where a workspace's hand-edit record is kept: the app's
// data folder, which the agent does not write.
func editRecordPath(workspaceID string) string { return handedit.RecordPath(workspaceID) }

// handTheme reads the workspace's theme.json, its bytes and the parsed theme.
func handTheme(ws workspace.Meta) ([]byte, *theme.Theme, error) {
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
// a link the agent planted, with data made from was (what handTheme read):
// when theme.json is no longer was, someone (the agent, mid-turn or not)
// wrote it since, and nothing is written (fswrite.ErrChanged); the caller
// reads again and makes its change over that write (rewrite), which is
// never lost to a change computed from the older file.
func (ed *Editor) writeTheme(ws workspace.Meta, was, data []byte) error {
	if ed.beforeThemeWrite != nil {
		ed.beforeThemeWrite(ws.ID)
	}
	d, err := fswrite.Open(ws.Dir, "")
	if err != nil {
		return err
	}
	defer d.Close()
	_, err = d.ReplaceIfUnchanged(theme.FileName, was, data, 0o644)
	return err
}

// rewrites bounds how often a read-modify-write of theme.json is made
// again when theme.json changed between its read and its write: an agent
// rewriting the file in a loop must not hold the editor's lock forever.
const rewrites = 3

// rewrite runs f, a read-modify-write of theme.json, again from a fresh
// read while its write finds theme.json changed (at most rewrites times).
func rewrite(f func() error) error {
	var err error
	for range rewrites {
		if err = f(); !errors.Is(err, fswrite.ErrChanged) {
			return err
		}
	}
	return fmt.Errorf("%s kept changing while it was written, so nothing was written; try again: %w", theme.FileName, err)
}

// withRecord runs f on the workspace's hand-edit record under the editor
// lock and saves it when f succeeds.
func (ed *Editor) withRecord(workspaceID string, f func(l *handedit.Log) error) error {
	ed.editMu.Lock()
	defer ed.editMu.Unlock()
	p := editRecordPath(workspaceID)
	l, err := handedit.Load(p)
	if err != nil && l == nil {
		return err
	}
	if err != nil {
		ed.log.Warn().Err(err).Str("workspace", workspaceID).Msg("hand-edit record")
	}
	if err := f(l); err != nil {
		return err
	}
	return l.Save(p)
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
	st.Roles = editorRoles(st.Roles, t, "", l)
	if t.Companion != nil {
		st.Roles = editorRoles(st.Roles, t.Companion, theme.CompanionPrefix, l)
	}
	return st
}

// editorRoles appends the palette entries and catalogue roles of doc, the
// theme or its companion, their paths starting with prefix ("" or
// "companion.").
func editorRoles(out []EditorRole, doc *theme.Theme, prefix string, l *handedit.Log) []EditorRole {
	companion := prefix != ""
	swatches := doc.Swatches()
	names := make([]string, 0, len(doc.Palette))
	for k := range doc.Palette {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, n := range names {
		p := prefix + theme.PalettePrefix + n
		_, locked := l.Locked[p]
		users := theme.PaletteUsers(doc, n)
		for i := range users {
			users[i] = prefix + users[i]
		}
		r := EditorRole{Path: p, Label: n, Group: "palette", Color: doc.Palette[n].String(),
			Locked: locked, Users: users, Companion: companion}
		for _, sw := range swatches {
			if sw.Entry == n && sw.Step != 0 {
				for i := range sw.Users {
					sw.Users[i] = prefix + sw.Users[i]
				}
				r.Steps = append(r.Steps, sw)
			}
		}
		out = append(out, r)
	}
	for _, info := range theme.Catalogue() {
		p := prefix + info.Path
		_, locked := l.Locked[p]
		r := EditorRole{Path: p, Label: info.Label, Group: info.Group, Section: info.Section, Help: info.Help,
			Color: doc.Color(info.Path).String(), Locked: locked, Derived: !doc.Has(info.Path), Companion: companion,
			Follows: doc.Follows(info.Path)}
		if r.Derived {
			if rule, ok := doc.RuleFor(info.Path); ok {
				r.Rule = rule.String()
			}
		}
		out = append(out, r)
	}
	return out
}

// EditorState is the workspace's roles with their locks, and its undo and
// redo.
func (ed *Editor) EditorState(workspaceID string) (EditorState, error) {
	ws, err := ed.openWorkspace(workspaceID)
	if err != nil {
		return EditorState{}, err
	}
	_, t, _ := handTheme(ws) // without a valid theme the state still has undo and the changes
	var st EditorState
	err = ed.withRecord(workspaceID, func(l *handedit.Log) error {
		st = editorState(t, l)
		return nil
	})
	return st, err
}

func trialOf(t *theme.Theme, path string, c theme.Color) (ColorTrial, error) {
	trial := t.Clone()
	if _, err := theme.SetColor(trial, path, c); err != nil {
		return ColorTrial{}, err
	}
	out := ColorTrial{Path: path, Hex: c.String(), OKLCH: theme.ToOKLCH(c), Pairs: contrast.PairsAt(trial, path), Theme: trial, Roles: trial.Values()}
	if trial.Companion != nil {
		out.CompanionRoles = trial.Companion.Values()
	}
	return out, nil
}

// TryColor measures a colour for a role without writing it: the picker
// shows the pairs' contrast live as the designer drags.
func (ed *Editor) TryColor(req TryColorRequest) (ColorTrial, error) {
	ws, err := ed.openWorkspace(req.WorkspaceID)
	if err != nil {
		return ColorTrial{}, err
	}
	_, t, err := handTheme(ws)
	if err != nil {
		return ColorTrial{}, err
	}
	var c theme.Color
	switch {
	case req.Hex != "":
		if c, err = theme.ParseColor(strings.TrimSpace(req.Hex)); err != nil {
			return ColorTrial{}, err
		}
	case req.OKLCH != nil:
		c = theme.FromOKLCH(*req.OKLCH)
		if cur, ok := handedit.ColorAt(t, req.Path); ok {
			c.A = cur.A // the sliders set the colour, not its translucency
		}
	default:
		return ColorTrial{}, errors.New("no colour to try")
	}
	return trialOf(t, req.Path, c)
}

// MakePass finds the colour for a role nearest its own in OKLCH lightness
// (hue and chroma kept) at which all its pairs reach target; nothing is
// written.
func (ed *Editor) MakePass(workspaceID, path string, target float64) (ColorTrial, error) {
	ws, err := ed.openWorkspace(workspaceID)
	if err != nil {
		return ColorTrial{}, err
	}
	_, t, err := handTheme(ws)
	if err != nil {
		return ColorTrial{}, err
	}
	if target < 1 || target > 21 {
		return ColorTrial{}, fmt.Errorf("target ratio %.2f is outside 1…21", target)
	}
	c, err := contrast.MakePass(t, path, target)
	if err != nil {
		return ColorTrial{}, err
	}
	return trialOf(t, path, c)
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
	return ed.edit(req.WorkspaceID, fmt.Sprintf("Set %s to %s", req.Path, c), func(t *theme.Theme) ([]string, error) {
		return theme.SetColor(t, req.Path, c)
	})
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
	path := theme.PalettePrefix + req.Name
	if companion, rest := theme.Split(req.Name); companion {
		path = theme.CompanionPrefix + theme.PalettePrefix + rest
	}
	return ed.edit(req.WorkspaceID, fmt.Sprintf("Set %s to %s", path, c), func(t *theme.Theme) ([]string, error) {
		doc, rest := t.At(path)
		if doc == nil {
			return nil, fmt.Errorf("%s: the theme has no companion", path)
		}
		name := strings.TrimPrefix(rest, theme.PalettePrefix)
		if _, ok := doc.Palette[name]; ok {
			return theme.SetColor(t, path, c)
		}
		moved, err := doc.SetEntry(name, c)
		if err != nil {
			return nil, err
		}
		return withPrefix(path, append([]string{rest}, moved...)), nil
	})
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
	path := theme.PalettePrefix + req.Name
	if companion, rest := theme.Split(req.Name); companion {
		path = theme.CompanionPrefix + theme.PalettePrefix + rest
	}
	label := "Make " + path + " a ramp"
	if req.Ramp == nil {
		label = "Make " + path + " a single colour"
	}
	return ed.edit(req.WorkspaceID, label, func(t *theme.Theme) ([]string, error) {
		doc, rest := t.At(path)
		if doc == nil {
			return nil, fmt.Errorf("%s: the theme has no companion", path)
		}
		name := strings.TrimPrefix(rest, theme.PalettePrefix)
		_, was := doc.Ramps[name]
		if req.Ramp == nil && !was {
			return nil, nil
		}
		before := doc.EntryUsers(name)
		moved, err := doc.SetRamp(name, req.Ramp)
		if err != nil {
			return nil, err
		}
		// The entry changed shape even when no role moved: the write is
		// the step, and the roles that stopped following it are named.
		changed := []string{rest}
		for _, p := range before {
			if doc.Follows(p) == "" || slices.Contains(moved, p) {
				changed = append(changed, p)
			}
		}
		return withPrefix(path, changed), nil
	})
}

// AttachRole makes a role follow a palette entry ("blue") or ramp step
// ("blue.600"): its colour becomes the entry's and moves with it. One undo
// step.
func (ed *Editor) AttachRole(workspaceID, path, ref string) (EditorState, error) {
	return ed.edit(workspaceID, fmt.Sprintf("Make %s follow %s", path, ref), func(t *theme.Theme) ([]string, error) {
		doc, rest := t.At(path)
		if doc == nil {
			return nil, fmt.Errorf("%s: the theme has no companion", path)
		}
		if doc.Follows(rest) == ref {
			return nil, nil
		}
		if err := doc.Attach(rest, ref); err != nil {
			return nil, err
		}
		return []string{path}, nil
	})
}

// DetachRole makes a role hold its own colour (the one it has) instead of
// following the palette. One undo step.
func (ed *Editor) DetachRole(workspaceID, path string) (EditorState, error) {
	return ed.edit(workspaceID, fmt.Sprintf("Give %s its own colour", path), func(t *theme.Theme) ([]string, error) {
		doc, rest := t.At(path)
		if doc == nil {
			return nil, fmt.Errorf("%s: the theme has no companion", path)
		}
		if !doc.Detach(rest) {
			return nil, nil
		}
		return []string{path}, nil
	})
}

// withPrefix names paths of the document path addresses from the theme.
func withPrefix(path string, paths []string) []string {
	if companion, _ := theme.Split(path); companion {
		for i, p := range paths {
			paths[i] = theme.CompanionPrefix + p
		}
	}
	return paths
}

// edit runs one hand edit of theme.json: change returns the paths it
// changed (none: nothing to write); the edit is written after a checkpoint,
// recorded as one undo step and for the agent's next prompt.
func (ed *Editor) edit(workspaceID, label string, change func(t *theme.Theme) ([]string, error)) (EditorState, error) {
	ws, err := ed.openWorkspace(workspaceID)
	if err != nil {
		return EditorState{}, err
	}
	var st EditorState
	err = rewrite(func() error {
		// Asked again on each try: a turn that started since owns the file.
		if ed.turns.busy(workspaceID) {
			return errors.New("the agent is writing this theme; wait for its turn to end or stop it")
		}
		before, t, err := handTheme(ws)
		if err != nil {
			return err
		}
		changed, err := change(t)
		if err != nil {
			return err
		}
		return ed.withRecord(workspaceID, func(l *handedit.Log) error {
			if len(changed) > 0 {
				after, err := theme.Rewrite(before, t)
				if err != nil {
					return err
				}
				if err := ed.handWrite(ws, label, before, after); err != nil {
					return err
				}
				l.Record(handedit.Step{Label: label, Paths: changed, Before: before, After: after}, t)
				l.Relock(t, changed)
			}
			st = editorState(t, l)
			return nil
		})
	})
	return st, err
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
	var st EditorState
	err = rewrite(func() error {
		if ed.turns.busy(workspaceID) {
			return errors.New("the agent is writing this theme; wait for its turn to end or stop it")
		}
		before, t, err := handTheme(ws)
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
		return ed.withRecord(workspaceID, func(l *handedit.Log) error {
			if derive {
				l.KeepCompanionLocks(t) // derived again, a locked colour keeps its own
			}
			after, err := theme.Rewrite(before, t)
			if err != nil {
				return err
			}
			if err := ed.handWrite(ws, label, before, after); err != nil {
				return err
			}
			l.Record(handedit.Step{Label: label, Paths: []string{"companion"}, Before: before, After: after}, t)
			l.Forget(t)
			st = editorState(t, l)
			return nil
		})
	})
	return st, err
}

// handWrite takes the checkpoint "before this edit" and writes theme.json
// over was (writeTheme). Made again after theme.json changed, it takes the
// checkpoint again: that one holds the write the edit is now made over.
func (ed *Editor) handWrite(ws workspace.Meta, label string, was, data []byte) error {
	if _, err := checkpoint.Take(ws.Dir, checkpoint.Info{Kind: checkpoint.KindEdit, Label: label}); err != nil {
		return fmt.Errorf("checkpoint before the edit: %w", err)
	}
	ed.emit.Emit("checkpoints", CheckpointsEvent{WorkspaceID: ws.ID})
	if err := ed.writeTheme(ws, was, data); err != nil {
		return err
	}
	ed.emit.Emit("theme", ThemeEvent{WorkspaceID: ws.ID, State: themewatch.StateOf(data)})
	return nil
}

// SetLock locks a role (or palette entry) at its current colour, or unlocks it.
func (ed *Editor) SetLock(workspaceID, path string, locked bool) (EditorState, error) {
	ws, err := ed.openWorkspace(workspaceID)
	if err != nil {
		return EditorState{}, err
	}
	_, t, err := handTheme(ws)
	if err != nil {
		return EditorState{}, err
	}
	var st EditorState
	err = ed.withRecord(workspaceID, func(l *handedit.Log) error {
		if err := l.Lock(t, path, locked); err != nil {
			return err
		}
		st = editorState(t, l)
		return nil
	})
	return st, err
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
	parse := func(b []byte) *theme.Theme {
		t, _ := theme.Parse(b)
		return t
	}
	var st EditorState
	err = rewrite(func() error {
		if ed.turns.busy(workspaceID) {
			return errors.New("the agent is writing this theme; wait for its turn to end or stop it")
		}
		current, _, err := handTheme(ws)
		if current == nil {
			return err
		}
		return ed.withRecord(workspaceID, func(l *handedit.Log) error {
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
			if err := ed.handWrite(ws, verb+": "+s.Label, current, write); err != nil {
				return err
			}
			t := parse(write)
			if t != nil {
				l.Relock(t, s.Paths)
				l.Forget(t) // an undone variant takes its locks with it
				if slices.Contains(s.Paths, "name") {
					ed.nameAfterTheme(ws.ID, t, themewatch.StateOf(write))
				}
			}
			st = editorState(t, l)
			return nil
		})
	})
	return st, err
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

// handNote is the hand-edit note for a workspace's next prompt and the
// changes it reports (handTold forgets them once the turn ran).
func (ed *Editor) handNote(workspaceID string) (string, map[string]string) {
	var note string
	told := map[string]string{}
	err := ed.withRecord(workspaceID, func(l *handedit.Log) error {
		note = l.PromptNote()
		for k, v := range l.Changed {
			told[k] = v
		}
		return nil
	})
	if err != nil {
		ed.log.Warn().Err(err).Str("workspace", workspaceID).Msg("hand-edit note")
	}
	return note, told
}

func (ed *Editor) handTold(workspaceID string, told map[string]string) {
	if len(told) == 0 {
		return
	}
	if err := ed.withRecord(workspaceID, func(l *handedit.Log) error { l.Told(told); return nil }); err != nil {
		ed.log.Warn().Err(err).Str("workspace", workspaceID).Msg("hand-edit note")
	}
}

// companionOf is the light/dark variant the workspace's theme.json has now
// (nil without one, or when theme.json is missing or invalid).
func (ed *Editor) companionOf(workspaceID string) *theme.Theme {
	ws, err := ed.openWorkspace(workspaceID)
	if err != nil {
		return nil
	}
	_, t, _ := handTheme(ws)
	if t == nil {
		return nil
	}
	return t.Companion
}

// keepCompanion runs after a turn: when theme.json had the variant was
// before it and the agent's rewrite left it out, it is put back (a hand-edit
// step, so Undo drops it again) and the returned notice says so. A variant
// that now has the theme's own appearance, or whose name the theme took,
// cannot be put back beside it; that is said instead.
func (ed *Editor) keepCompanion(workspaceID string, was *theme.Theme) string {
	if was == nil {
		return ""
	}
	ws, err := ed.openWorkspace(workspaceID)
	if err != nil {
		return ""
	}
	var msg string
	err = rewrite(func() error {
		msg = ""
		return ed.keepCompanionOnce(ws, was, &msg)
	})
	if err != nil {
		ed.log.Warn().Err(err).Str("workspace", workspaceID).Msg("keep companion")
		return "The agent's rewrite left out the " + was.Appearance + " variant; it could not be kept: " + err.Error()
	}
	if msg != "" {
		ed.emit.Emit("editor", EditorEvent{WorkspaceID: workspaceID})
	}
	return msg
}

// keepCompanionOnce is one try of keepCompanion, from a fresh read.
func (ed *Editor) keepCompanionOnce(ws workspace.Meta, was *theme.Theme, msg *string) error {
	return ed.withRecord(ws.ID, func(l *handedit.Log) error {
		before, t, _ := handTheme(ws)
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
		if err := ed.handWrite(ws, label, before, after); err != nil {
			return err
		}
		l.Record(handedit.Step{Label: label, Paths: []string{"companion"}, Before: before, After: after}, t)
		*msg = "Kept the " + was.Appearance + " variant the agent's rewrite left out."
		return nil
	})
}

// The leads of the two notices about locked colours put back: the turn's
// closing warning, and the editor's notice for a change the watcher saw.
const (
	turnLocksLead    = "The agent changed locked colours; they were restored: "
	watcherLocksLead = "Locked colours were changed in theme.json; they were restored: "
)

// maxDuringTurn bounds the restores kept for one turn's closing warning:
// an agent rewriting theme.json in a loop must not grow it without end.
const maxDuringTurn = 64

// enforceLocks runs after a turn: every locked colour the agent changed is
// put back in theme.json, and the returned message names each one, with
// those the watcher put back during the turn (lockedChanged), in one
// sentence: which of the two saw the agent's last write first is a race
// (the watcher reads a whole file at its first event), and the designer's
// warning must not depend on it. An invalid theme.json cannot be repaired
// role by role, which is said too.
func (ed *Editor) enforceLocks(workspaceID string) string {
	var all []handedit.Restored
	msg, _ := ed.restoreLocks(workspaceID, turnLocksLead, true, func(restored []handedit.Restored) {
		// Taken under the editor's lock, as lockedChanged records: a
		// restore the watcher made just before this one is in it.
		ed.lockMu.Lock()
		all = append(ed.duringTurn[workspaceID], restored...)
		delete(ed.duringTurn, workspaceID)
		ed.lockMu.Unlock()
	})
	var parts []string
	if len(all) > 0 {
		parts = append(parts, turnLocksLead+restoredText(all))
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

// lockedChanged runs on every change of theme.json the watcher sees,
// whoever wrote it (the agent mid-turn, a process it left behind, another
// program): a locked colour is put back at once, so the preview, the
// editor and every export show only the locked value, and the designer is
// told (the editor event's notice; during a turn also the turn's closing
// warning). It reports whether it wrote theme.json. Its own write is seen
// by the watcher too, and then finds every lock held: no second write.
func (ed *Editor) lockedChanged(workspaceID string) bool {
	// A broken theme.json is the preview's error to show, and the turn's
	// end says the locks could not be checked.
	_, wrote := ed.restoreLocks(workspaceID, watcherLocksLead, false, func(restored []handedit.Restored) {
		// Recorded under the editor's lock, with the restore: the turn's
		// end (enforceLocks) then either finds it here or runs first and
		// finds every lock held by its own restore. Recorded after the
		// restore, outside the lock, it could fall between enforceLocks'
		// check and its reading of duringTurn and be lost.
		if len(restored) == 0 || !ed.turns.busy(workspaceID) {
			return
		}
		ed.lockMu.Lock()
		if ed.duringTurn == nil {
			ed.duringTurn = map[string][]handedit.Restored{}
		}
		if room := maxDuringTurn - len(ed.duringTurn[workspaceID]); room > 0 {
			ed.duringTurn[workspaceID] = append(ed.duringTurn[workspaceID], restored[:min(room, len(restored))]...)
		}
		ed.lockMu.Unlock()
	})
	return wrote
}

// restoreLocks puts every locked colour back into theme.json when someone
// changed it, emits the theme and editor events, and returns what it said
// (lead, then each colour; or why it could not), "" when every lock held
// (or, unless reportInvalid, when theme.json is not a valid theme), and
// whether it wrote theme.json. then runs with the colours it put back
// (none when it wrote nothing) while the editor's lock is still held.
func (ed *Editor) restoreLocks(workspaceID, lead string, reportInvalid bool, then func(restored []handedit.Restored)) (string, bool) {
	ws, err := ed.openWorkspace(workspaceID)
	if err != nil {
		return "", false
	}
	var msg string
	var wrote []handedit.Restored
	// Under the editor's lock, as a hand edit; the record is only read
	// (nothing in it changes), so a check that finds every lock held
	// writes nothing, whichever change of theme.json it runs on.
	func() {
		ed.editMu.Lock()
		defer ed.editMu.Unlock()
		err := func() error {
			l, err := handedit.Load(editRecordPath(workspaceID))
			if l == nil {
				return err
			}
			if err != nil {
				ed.log.Warn().Err(err).Str("workspace", workspaceID).Msg("hand-edit record")
			}
			if len(l.Locked) == 0 {
				return nil
			}
			// Made again from a fresh read when the agent wrote theme.json
			// between this read and this write: the locks are put back into
			// its latest write, never that write replaced by the older one's
			// repair. The few microseconds left between writeTheme's check
			// and its rename are covered by the watcher: a write landing
			// there is a change it sees, and it runs this again.
			return rewrite(func() error {
				msg = ""
				before, t, err := handTheme(ws)
				if t == nil {
					if before != nil && reportInvalid {
						msg = "The locked colours could not be checked: " + err.Error()
					}
					return nil
				}
				restored := l.EnforceLocks(t)
				if len(restored) == 0 {
					return nil
				}
				after, err := theme.Rewrite(before, t)
				if err != nil {
					return err
				}
				// Written only when it holds: a file that would still break a lock
				// once written would have the watcher restore it again, forever.
				if back, err := theme.Parse(after); err != nil || len(l.EnforceLocks(back)) > 0 {
					return fmt.Errorf("the restored %s would not keep them (%v)", theme.FileName, err)
				}
				if err := ed.writeTheme(ws, before, after); err != nil {
					return err
				}
				ed.emit.Emit("theme", ThemeEvent{WorkspaceID: ws.ID, State: themewatch.StateOf(after)})
				wrote = restored
				msg = lead + restoredText(restored)
				return nil
			})
		}()
		if err != nil {
			ed.log.Warn().Err(err).Str("workspace", workspaceID).Msg("enforce locks")
			msg = "The locked colours could not be restored: " + err.Error()
		}
		then(wrote)
	}()
	if msg != "" {
		ed.emit.Emit("editor", EditorEvent{WorkspaceID: workspaceID, Notice: msg})
	}
	return msg, len(wrote) > 0
}

// renameTheme writes the build's name into theme.json as a hand edit does
// (a checkpoint first, an atomic write, a step to undo), unless the agent
// is writing the theme now or theme.json is not a valid theme.
func (ed *Editor) renameTheme(ws workspace.Meta) error {
	return rewrite(func() error {
		if ed.turns.busy(ws.ID) {
			return errors.New("the agent is writing the theme")
		}
		before, t, err := handTheme(ws)
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
		return ed.withRecord(ws.ID, func(l *handedit.Log) error {
			if err := ed.handWrite(ws, label, before, after); err != nil {
				return err
			}
			l.Record(handedit.Step{Label: label, Paths: []string{"name"}, Before: before, After: after}, t)
			return nil
		})
	})
}
