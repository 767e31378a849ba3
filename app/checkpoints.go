package app

import (
	"errors"
	"strings"
	"unicode/utf8"

	"cdxtheme/app/compare"
	"cdxtheme/core/checkpoint"
	"cdxtheme/core/theme"
)

// CheckpointsEvent is the payload of the "checkpoints" event: a
// workspace's checkpoint list changed (a turn started, a restore ran).
type CheckpointsEvent struct {
	WorkspaceID string `json:"workspaceId"`
}

// snapshot takes the checkpoint "before this turn". It runs on the
// turn-start path (startTurn), so every prompt — New build, a follow-up,
// a retry after sign-in — gets one.
func (a *env) snapshot(workspaceID, dir, turnID, prompt string) error {
	_, err := checkpoint.Take(dir, checkpoint.Info{Kind: checkpoint.KindTurn, TurnID: turnID, Label: promptLabel(prompt)})
	if err != nil {
		return err
	}
	a.emit.Emit("checkpoints", CheckpointsEvent{WorkspaceID: workspaceID})
	return nil
}

// promptLabel is the prompt's first line, shortened, as a checkpoint's name.
func promptLabel(prompt string) string {
	line := strings.TrimSpace(strings.SplitN(strings.TrimSpace(prompt), "\n", 2)[0])
	if utf8.RuneCountInString(line) > 120 {
		line = string([]rune(line)[:119]) + "…"
	}
	return line
}

// Checkpoints lists a workspace's checkpoints, oldest first.
func (bu *Builds) Checkpoints(workspaceID string) ([]checkpoint.Summary, error) {
	ws, err := bu.openWorkspace(workspaceID)
	if err != nil {
		return nil, err
	}
	return checkpoint.List(ws.Dir)
}

// RestoreCheckpoint puts the workspace back as it was at a checkpoint and
// returns the checkpoint taken just before, which undoes the restore.
func (bu *Builds) RestoreCheckpoint(workspaceID, checkpointID string) (checkpoint.Summary, error) {
	ws, err := bu.openWorkspace(workspaceID)
	if err != nil {
		return checkpoint.Summary{}, err
	}
	if bu.turns.busy(workspaceID) { // a restore now would race the agent's writes
		return checkpoint.Summary{}, errors.New("a turn is running in this workspace; stop it or wait for it to finish before restoring")
	}
	undo, err := checkpoint.Restore(ws.Dir, checkpointID)
	if undo.ID != "" {
		bu.emit.Emit("checkpoints", CheckpointsEvent{WorkspaceID: workspaceID})
	}
	if err != nil {
		return undo.Summary(), err
	}
	return undo.Summary(), nil
}

// ThemeVersion is one version of a workspace's theme: at a checkpoint, or
// as it is now (CheckpointID ""). compare.Version has its fields.
type ThemeVersion compare.Version

// Comparison is a turn's before and after, with the roles it changed.
type Comparison struct {
	Before  ThemeVersion `json:"before"`
	After   ThemeVersion `json:"after"`
	Changed []string     `json:"changed"`
}

// CompareCheckpoint compares the theme at a checkpoint ("before this
// turn") with the next checkpoint ("after it": the state the next turn or
// restore started from), or with the workspace as it is now when none
// came later.
func (bu *Builds) CompareCheckpoint(workspaceID, checkpointID string) (Comparison, error) {
	ws, err := bu.openWorkspace(workspaceID)
	if err != nil {
		return Comparison{}, err
	}
	before, after, err := compare.Turn(ws, checkpointID)
	if err != nil {
		return Comparison{}, err
	}
	cmp := Comparison{Before: ThemeVersion(before), After: ThemeVersion(after)}
	cmp.Changed = theme.Changed(cmp.Before.Theme, cmp.After.Theme)
	if cmp.Before.Theme == nil && cmp.After.Theme == nil {
		cmp.Changed = []string{}
	}
	return cmp, nil
}
