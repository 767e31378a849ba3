package app

import (
	"time"

	"cdxtheme/app/compare"
	"cdxtheme/core/theme"
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
	v, err := compare.At(ws, ref.VersionID, ref.CheckpointID)
	return ThemeVersion(v), err
}
