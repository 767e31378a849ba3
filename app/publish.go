package app

import (
	"fmt"
	"path/filepath"
	"sync"

	"cdxtheme/core/packaging"
	"cdxtheme/core/publish"
)

// Published is what a publish wrote: the export folder holding vsix/ and
// zed-extension/, the version their packages
// carry, and the version the next publish will write.
type Published struct {
	Dir     string       `json:"dir"`
	Version string       `json:"version"`
	Next    publish.Meta `json:"next"`
}

// publishMu makes a publish's read-bump-write of the version one step, so
// two publishes never write the same version.
var publishMu sync.Mutex

// PublishMeta is the build's publish metadata (core/publish): the
// defaults until the designer saved their own.
func (th *Themes) PublishMeta(workspaceID string) (publish.Meta, error) {
	ws, err := th.openWorkspace(workspaceID)
	if err != nil {
		return publish.Meta{}, err
	}
	return publish.Load(ws.Dir)
}

// SetPublishMeta checks and saves the build's publish metadata; the error
// names every field that is wrong.
func (th *Themes) SetPublishMeta(workspaceID string, m publish.Meta) (publish.Meta, error) {
	ws, err := th.openWorkspace(workspaceID)
	if err != nil {
		return publish.Meta{}, err
	}
	publishMu.Lock()
	defer publishMu.Unlock()
	return publish.Save(ws.Dir, m)
}

// Publish saves m as the build's metadata, writes both packages
// (packaging.PackageFormats: the .vsix and the Zed extension) with it into
// export/<format>, so one release carries one version everywhere, then
// bumps the saved version's patch number for the next publish. Nothing is
// bumped when a package could not be written.
func (th *Themes) Publish(workspaceID string, m publish.Meta) (Published, error) {
	t, ws, err := th.lockedTheme(workspaceID)
	if err != nil {
		return Published{}, err
	}
	publishMu.Lock()
	defer publishMu.Unlock()
	m, err = publish.Save(ws.Dir, m)
	if err != nil {
		return Published{}, err
	}
	for _, f := range packaging.PackageFormats {
		if _, err := packaging.ExportPackage(t, f, m, ws.Dir, "export/"+f); err != nil {
			return Published{}, err
		}
	}
	next := m
	if next.Version, err = publish.Bump(m.Version); err != nil {
		return Published{}, err
	}
	if next, err = publish.Save(ws.Dir, next); err != nil {
		return Published{}, fmt.Errorf("published %s, but the next version was not saved: %w", m.Version, err)
	}
	return Published{Dir: filepath.Join(ws.Dir, "export"), Version: m.Version, Next: next}, nil
}
