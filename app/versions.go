package app

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"cdxtheme/core/checkpoint"
	"cdxtheme/core/theme"
	"cdxtheme/core/themewatch"
	"cdxtheme/core/versions"
)

// SaveVersion saves the build's theme as it is now under a name, in the
// workspace's versions/ folder (core/versions).
func (th *Themes) SaveVersion(workspaceID, name string) (versions.Version, error) {
	ws, err := th.openWorkspace(workspaceID)
	if err != nil {
		return versions.Version{}, err
	}
	return versions.Save(ws.Dir, name, time.Now())
}

// Versions lists a build's saved versions, newest first.
func (th *Themes) Versions(workspaceID string) ([]versions.Version, error) {
	ws, err := th.openWorkspace(workspaceID)
	if err != nil {
		return nil, err
	}
	return versions.List(ws.Dir)
}

// ThemeRef names one side of a comparison: a build's theme as it is now,
// one of its saved versions (VersionID) or the theme before one of its
// turns (CheckpointID).
type ThemeRef struct {
	WorkspaceID  string `json:"workspaceId"`
	VersionID    string `json:"versionId"`
	CheckpointID string `json:"checkpointId"`
}

// CompareThemes compares any two themes: two versions, two turns, or two
// builds (each side a ThemeRef), as the turn's Compare does.
func (th *Themes) CompareThemes(before, after ThemeRef) (Comparison, error) {
	var cmp Comparison
	var err error
	if cmp.Before, err = th.themeAt(before); err != nil {
		return cmp, err
	}
	if cmp.After, err = th.themeAt(after); err != nil {
		return cmp, err
	}
	cmp.Changed = theme.Changed(cmp.Before.Theme, cmp.After.Theme)
	if cmp.Changed == nil {
		cmp.Changed = []string{}
	}
	return cmp, nil
}

func (th *Themes) themeAt(ref ThemeRef) (ThemeVersion, error) {
	ws, err := th.openWorkspace(ref.WorkspaceID)
	if err != nil {
		return ThemeVersion{}, err
	}
	switch {
	case ref.VersionID != "":
		list, err := versions.List(ws.Dir)
		if err != nil {
			return ThemeVersion{}, err
		}
		for _, v := range list {
			if v.ID == ref.VersionID {
				st, err := versions.Theme(ws.Dir, v.ID)
				return ThemeVersion{Label: v.Name, Created: v.Created, State: st}, err
			}
		}
		return ThemeVersion{}, fmt.Errorf("version %s: no such version in this build", ref.VersionID)
	case ref.CheckpointID != "":
		list, err := checkpoint.List(ws.Dir)
		if err != nil {
			return ThemeVersion{}, err
		}
		for _, c := range list {
			if c.ID != ref.CheckpointID {
				continue
			}
			v := ThemeVersion{CheckpointID: c.ID, Label: c.Label, Created: c.Created}
			b, err := checkpoint.ReadFile(ws.Dir, c.ID, theme.FileName)
			switch {
			case errors.Is(err, fs.ErrNotExist):
			case err != nil:
				return v, err
			default:
				v.State = themewatch.StateOf(b)
			}
			return v, nil
		}
		return ThemeVersion{}, fmt.Errorf("checkpoint %s: no such checkpoint in this build", ref.CheckpointID)
	default:
		return ThemeVersion{Label: ws.Title, State: themewatch.Load(ws.Dir), Created: time.Now().UTC()}, nil
	}
}
