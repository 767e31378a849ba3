package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"unicode/utf8"

	"cdxtheme/core/apply"
	"cdxtheme/core/install"
	"cdxtheme/core/packaging"
	"cdxtheme/core/publish"
	"cdxtheme/core/targets"
	"cdxtheme/core/theme"
	"cdxtheme/core/themewatch"
	"cdxtheme/core/workspace"
)

// ThemeEvent is the payload of the "theme" event: the workspace's preview
// state after the agent (or anyone) wrote theme.json.
type ThemeEvent struct {
	WorkspaceID string `json:"workspaceId"`
	themewatch.State
}

// stopWatchers stops every watcher and waits for them to end.
func (th *Themes) stopWatchers() { th.watchers.StopAll() }

// watch starts watching a workspace's theme.json (once), so the preview
// follows the agent's writes while the turn is still streaming; past
// watchset.Max the least recently used watcher stops.
func (th *Themes) watch(ws workspace.Meta) {
	th.watchers.Start(ws.ID, func(ctx context.Context) error {
		// Its reads take the editor's lock, which every write of
		// theme.json by the app holds (hand edits, lock restores): on
		// Windows a rename cannot replace a file the watcher has open.
		return themewatch.WatchLocked(ctx, ws.Dir, th.editor.edits.Mutex(), func(st themewatch.State) {
			// A locked colour someone rewrote goes back before anything
			// shows it; the restore emits the theme it wrote, and the
			// watcher then sees that file, every lock held.
			if st.Error == "" && st.Theme != nil && th.editor.lockedChanged(ws.ID) {
				return
			}
			// The programs the build was applied to and the designer
			// turned live follow (core/live; never blocks): first, so
			// their rewrite does not wait for the event's encoding.
			th.followLive(ws.ID, st)
			th.emit.Emit("theme", ThemeEvent{WorkspaceID: ws.ID, State: st})
			// The agent may have named the theme: a build that follows
			// its theme's name takes it now, in every view.
			if m, err := workspace.Open(workspace.Root(), ws.ID); err == nil {
				th.builds.followTheme(m, st)
			}
		})
	}, func(err error) {
		// Forgotten, so the next open of the build tries again.
		th.log.Warn().Err(err).Str("workspace", ws.ID).Msg("watch theme")
	})
}

// unwatch stops following a workspace's theme.json.
func (th *Themes) unwatch(id string) { th.watchers.Stop(id) }

// watching lists the workspaces with a live watcher, least recently used
// first.
func (th *Themes) watching() []string { return th.watchers.IDs() }

func (a *env) openWorkspace(id string) (workspace.Meta, error) {
	ws, err := workspace.Open(workspace.Root(), id)
	if err != nil {
		return ws, fmt.Errorf("open workspace %s: %w", id, err)
	}
	return ws, nil
}

func (a *env) recordSession(workspaceID, sessionID string) {
	if _, err := workspace.AddSession(workspace.Root(), workspaceID, sessionID); err != nil {
		a.log.Warn().Err(err).Str("workspace", workspaceID).Msg("record session")
	}
}

// buildTitle is the first line of the prompt, shortened.
func buildTitle(prompt string) string {
	line := strings.TrimSpace(strings.SplitN(strings.TrimSpace(prompt), "\n", 2)[0])
	if utf8.RuneCountInString(line) > 80 {
		r := []rune(line)
		line = strings.TrimSpace(string(r[:79])) + "…"
	}
	return line
}

// Theme returns a workspace's current preview state and starts following
// its changes.
func (th *Themes) Theme(workspaceID string) (themewatch.State, error) {
	ws, err := th.openWorkspace(workspaceID)
	if err != nil {
		return themewatch.State{}, err
	}
	th.watch(ws)
	return themewatch.Load(ws.Dir), nil
}

func (a *env) validTheme(workspaceID string) (*theme.Theme, workspace.Meta, error) {
	ws, err := a.openWorkspace(workspaceID)
	if err != nil {
		return nil, ws, err
	}
	st := themewatch.Load(ws.Dir)
	if st.Error != "" {
		return nil, ws, errors.New(st.Error)
	}
	if st.Theme == nil {
		return nil, ws, errors.New("the workspace has no theme.json yet")
	}
	return st.Theme, ws, nil
}

// lockedTheme is validTheme with every lock held first: a write the
// watcher has not read yet (a burst waits themewatch.Debounce) must not reach an
// export or an install with a locked colour changed.
func (th *Themes) lockedTheme(workspaceID string) (*theme.Theme, workspace.Meta, error) {
	th.editor.lockedChanged(workspaceID)
	return th.validTheme(workspaceID)
}

// ApplyTargets lists where a theme can be installed on this system.
func (th *Themes) ApplyTargets() []install.Target { return install.TargetsFor(goruntime.GOOS) }

// ExportTheme writes the theme in one format (or "all") under the
// workspace's export/ folder and returns the folder written.
func (th *Themes) ExportTheme(workspaceID, format string) (string, error) {
	t, ws, err := th.lockedTheme(workspaceID)
	if err != nil {
		return "", err
	}
	out := filepath.Join(ws.Dir, "export")
	formats := []string{format}
	if format == "all" {
		formats = targets.FormatIDs()
	} else {
		out = filepath.Join(out, format)
	}
	for _, f := range formats {
		// Below the workspace nothing is followed: the agent may have
		// planted links in export/. Packages carry the build's publish
		// metadata (Publish is what bumps its version).
		if slices.Contains(packaging.PackageFormats, f) {
			m, err := publish.Load(ws.Dir)
			if err != nil {
				return "", err
			}
			if _, err := packaging.ExportPackage(t, f, m, ws.Dir, "export/"+f); err != nil {
				return "", err
			}
			continue
		}
		if _, err := targets.Export(t, f, ws.Dir, "export/"+f); err != nil {
			return "", err
		}
	}
	return out, nil
}

// PlanApply shows what installing into target would write and replace; the
// UI asks the user to confirm before ApplyTheme.
func (th *Themes) PlanApply(workspaceID, target string) (apply.InstallPlan, error) {
	t, _, err := th.lockedTheme(workspaceID)
	if err != nil {
		return apply.InstallPlan{}, err
	}
	paths, err := install.DefaultPaths()
	if err != nil {
		return apply.InstallPlan{}, err
	}
	return apply.Plan(t, target, paths)
}

// ApplyTheme installs the theme into target after the user confirmed the
// plan whose Token is token, backing up every file it replaces into the
// app's data folder. It plans again and installs only when that plan is
// the one confirmed: a rename of the theme or a file changed in between
// would otherwise write, or replace, files the user never saw listed. Then
// the error wraps apply.ErrPlanChanged, nothing is written, and the page
// shows the new plan to confirm. settings are the steps (indexes into the
// plan's Steps) whose setting the user let Apply change too.
func (th *Themes) ApplyTheme(workspaceID, target, token string, settings []int) (apply.Installed, error) {
	plan, err := th.PlanApply(workspaceID, target)
	if err != nil {
		return apply.Installed{}, err
	}
	if plan.Token != token {
		return apply.Installed{}, fmt.Errorf("install into %s: %w: the theme or a file it writes changed since you confirmed; look at the new plan and confirm again", target, apply.ErrPlanChanged)
	}
	// The record names the build: only its own applies follow it live.
	plan.Build = workspaceID
	plan.Change = settings
	return apply.Apply(plan)
}

// UndoApply undoes the last apply into target: the files it replaced get
// their earlier bytes and mode back, the files it created are removed.
func (th *Themes) UndoApply(target string) (apply.Undone, error) {
	paths, err := install.DefaultPaths()
	if err != nil {
		return apply.Undone{}, err
	}
	out, err := apply.UndoApply(paths, target)
	if err == nil {
		// Undone, the program no longer follows any build.
		th.stopLive(target)
	}
	return out, err
}

// UndoableApplies lists the targets with an apply to undo.
func (th *Themes) UndoableApplies() ([]string, error) {
	paths, err := install.DefaultPaths()
	if err != nil {
		return nil, err
	}
	return apply.CanUndo(paths), nil
}
