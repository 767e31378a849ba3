// Package compare reads a build's theme as it was at one point, for the
// side-by-side comparisons of a turn's Compare and of Versions: at a
// checkpoint ("before this turn"), at a saved version, or as it is now.
package compare

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"cdxtheme/core/checkpoint"
	"cdxtheme/core/theme"
	"cdxtheme/core/themewatch"
	"cdxtheme/core/versions"
	"cdxtheme/core/workspace"
)

// Version is one version of a workspace's theme: at a checkpoint, or as
// it is now (CheckpointID ""). app.ThemeVersion has its fields.
type Version struct {
	CheckpointID string    `json:"checkpointId"`
	Label        string    `json:"label"`
	Created      time.Time `json:"created" ts_type:"string"`
	themewatch.State
}

// AtCheckpoint is the theme at checkpoint c of the workspace in dir; its
// State is empty when there was no theme yet (the first turn of a new
// build).
func AtCheckpoint(dir string, c checkpoint.Summary) (Version, error) {
	v := Version{CheckpointID: c.ID, Label: c.Label, Created: c.Created}
	b, err := checkpoint.ReadFile(dir, c.ID, theme.FileName)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return v, err
	default:
		v.State = themewatch.StateOf(b)
	}
	return v, nil
}

// Now is the workspace's theme as it is now, named label.
func Now(ws workspace.Meta, label string) Version {
	return Version{Label: label, State: themewatch.Load(ws.Dir), Created: time.Now().UTC()}
}

// Turn is a turn's before (the checkpoint checkpointID) and after: the next
// checkpoint (the state the next turn or restore started from), or the
// workspace as it is now when none came later.
func Turn(ws workspace.Meta, checkpointID string) (before, after Version, err error) {
	list, err := checkpoint.List(ws.Dir)
	if err != nil {
		return before, after, err
	}
	idx := -1
	for i, c := range list {
		if c.ID == checkpointID {
			idx = i
		}
	}
	if idx < 0 {
		return before, after, fmt.Errorf("checkpoint %s: no such checkpoint in this workspace", checkpointID)
	}
	if before, err = AtCheckpoint(ws.Dir, list[idx]); err != nil {
		return before, after, err
	}
	if idx+1 < len(list) {
		after, err = AtCheckpoint(ws.Dir, list[idx+1])
		return before, after, err
	}
	return before, Now(ws, ""), nil
}

// At is the theme a comparison names: a saved version (versionID), the
// theme before a turn (checkpointID), else the workspace's as it is now.
func At(ws workspace.Meta, versionID, checkpointID string) (Version, error) {
	switch {
	case versionID != "":
		list, err := versions.List(ws.Dir)
		if err != nil {
			return Version{}, err
		}
		for _, v := range list {
			if v.ID == versionID {
				st, err := versions.Theme(ws.Dir, v.ID)
				return Version{Label: v.Name, Created: v.Created, State: st}, err
			}
		}
		return Version{}, fmt.Errorf("version %s: no such version in this build", versionID)
	case checkpointID != "":
		list, err := checkpoint.List(ws.Dir)
		if err != nil {
			return Version{}, err
		}
		for _, c := range list {
			if c.ID == checkpointID {
				return AtCheckpoint(ws.Dir, c)
			}
		}
		return Version{}, fmt.Errorf("checkpoint %s: no such checkpoint in this build", checkpointID)
	default:
		return Now(ws, ws.Title), nil
	}
}
