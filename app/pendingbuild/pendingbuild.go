// Package pendingbuild holds the folder made for the open New build view
// before its first message: the agent's session opens in it ahead of time.
// It is no build yet (Home lists builds only once a message reached the
// agent) and goes again when the view closes unused or the app quits.
package pendingbuild

import (
	"fmt"
	"sync"

	"cdxtheme/core/workspace"

	"github.com/rs/zerolog"
)

// Folder is the open New build view's folder, when one was made.
type Folder struct {
	// Log is where a folder that cannot be handed over is told (a
	// pointer: the app's logger may be replaced after the folder is made).
	Log   *zerolog.Logger
	mu    sync.Mutex
	build *workspace.Meta
}

// Get returns the folder, made on first use.
func (f *Folder) Get() (workspace.Meta, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if b := f.build; b != nil {
		if ws, err := workspace.Open(workspace.Root(), b.ID); err == nil {
			return ws, nil
		}
	}
	ws, err := workspace.Create(workspace.Root(), "", "")
	if err != nil {
		return ws, fmt.Errorf("create workspace: %w", err)
	}
	f.build = &ws
	return ws, nil
}

// Made reports whether the open view has a folder.
func (f *Folder) Made() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.build != nil
}

// Take hands the folder to the build whose first message is being sent,
// titled after it; ok is false when there is none (or it is unusable).
func (f *Folder) Take(title, model string) (ws workspace.Meta, ok bool) {
	b := f.Drop()
	if b == nil {
		return ws, false
	}
	root := workspace.Root()
	if _, err := workspace.SetTitle(root, b.ID, title); err != nil {
		f.Log.Warn().Err(err).Str("workspace", b.ID).Msg("pre-warmed build folder unusable; making another")
		return ws, false
	}
	ws, err := workspace.SetModel(root, b.ID, model)
	if err != nil {
		f.Log.Warn().Err(err).Str("workspace", b.ID).Msg("pre-warmed build folder unusable; making another")
		return ws, false
	}
	return ws, true
}

// Drop gives the folder up and returns it (nil when there was none): the
// caller removes it once nothing runs in it.
func (f *Folder) Drop() *workspace.Meta {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := f.build
	f.build = nil
	return b
}
