package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"cdxtheme/core/apply"
	"cdxtheme/core/packaging"
	"cdxtheme/core/publish"
	"cdxtheme/core/theme"
	"cdxtheme/core/workspace"
)

// ThemeEvent is the payload of the "theme" event: the workspace's preview
// state after the agent (or anyone) wrote theme.json.
type ThemeEvent struct {
	WorkspaceID string `json:"workspaceId"`
	theme.State
}

// maxWatchers bounds the theme.json watchers (one inotify instance each,
// a per-user resource other programs need too): the builds used last keep
// theirs; opening another build again starts its watcher anew.
const maxWatchers = 16

// watchers keeps one theme.json watcher per recently used workspace.
type watchers struct {
	mu     sync.Mutex
	cancel map[string]context.CancelFunc
	order  []string // least recently used first
	// running counts the watch goroutines: a theme event in flight may
	// still rename its build (followTheme), which must be over before the
	// app (or a test) lets go of the data folder.
	running sync.WaitGroup
}

// stopWatchers stops every watcher and waits for them to end.
func (a *Themes) stopWatchers() {
	a.watchers.mu.Lock()
	for id, c := range a.watchers.cancel {
		c()
		delete(a.watchers.cancel, id)
	}
	a.watchers.order = nil
	a.watchers.mu.Unlock()
	a.watchers.running.Wait()
}

// watch starts watching a workspace's theme.json (once), so the preview
// follows the agent's writes while the turn is still streaming; past
// maxWatchers the least recently used watcher stops.
func (a *Themes) watch(ws workspace.Meta) {
	a.watchers.mu.Lock()
	defer a.watchers.mu.Unlock()
	if a.watchers.cancel == nil {
		a.watchers.cancel = map[string]context.CancelFunc{}
	}
	if i := slices.Index(a.watchers.order, ws.ID); i >= 0 {
		a.watchers.order = append(slices.Delete(a.watchers.order, i, i+1), ws.ID)
		return
	}
	for len(a.watchers.order) >= maxWatchers {
		old := a.watchers.order[0]
		a.watchers.order = a.watchers.order[1:]
		a.watchers.cancel[old]()
		delete(a.watchers.cancel, old)
	}
	ctx, cancel := context.WithCancel(context.Background())
	a.watchers.cancel[ws.ID] = cancel
	a.watchers.order = append(a.watchers.order, ws.ID)
	a.watchers.running.Add(1)
	go func() {
		defer a.watchers.running.Done()
		err := theme.Watch(ctx, ws.Dir, func(st theme.State) {
			// A locked colour someone rewrote goes back before anything
			// shows it; the restore emits the theme it wrote, and the
			// watcher then sees that file, every lock held.
			if st.Error == "" && st.Theme != nil && a.editor.lockedChanged(ws.ID) {
				return
			}
			a.emit.Emit("theme", ThemeEvent{WorkspaceID: ws.ID, State: st})
			// The agent may have named the theme: a build that follows
			// its theme's name takes it now, in every view.
			if m, err := workspace.Open(workspace.Root(), ws.ID); err == nil {
				a.builds.followTheme(m, st)
			}
		})
		if err != nil && !errors.Is(err, context.Canceled) {
			a.log.Warn().Err(err).Str("workspace", ws.ID).Msg("watch theme")
			// Forget it, so the next open of the build tries again.
			a.watchers.mu.Lock()
			if i := slices.Index(a.watchers.order, ws.ID); i >= 0 && ctx.Err() == nil {
				a.watchers.order = slices.Delete(a.watchers.order, i, i+1)
				delete(a.watchers.cancel, ws.ID)
			}
			a.watchers.mu.Unlock()
		}
	}()
}

// unwatch stops following a workspace's theme.json.
func (a *Themes) unwatch(id string) {
	a.watchers.mu.Lock()
	defer a.watchers.mu.Unlock()
	if c, ok := a.watchers.cancel[id]; ok {
		c()
		delete(a.watchers.cancel, id)
	}
}

// watching lists the workspaces with a live watcher, least recently used
// first.
func (a *Themes) watching() []string {
	a.watchers.mu.Lock()
	defer a.watchers.mu.Unlock()
	return slices.Clone(a.watchers.order)
}

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
func (a *Themes) Theme(workspaceID string) (theme.State, error) {
	ws, err := a.openWorkspace(workspaceID)
	if err != nil {
		return theme.State{}, err
	}
	a.watch(ws)
	return theme.Load(ws.Dir), nil
}

func (a *env) validTheme(workspaceID string) (*theme.Theme, workspace.Meta, error) {
	ws, err := a.openWorkspace(workspaceID)
	if err != nil {
		return nil, ws, err
	}
	st := theme.Load(ws.Dir)
	if st.Error != "" {
		return nil, ws, errors.New(st.Error)
	}
	if st.Theme == nil {
		return nil, ws, errors.New("the workspace has no theme.json yet")
	}
	return st.Theme, ws, nil
}

// lockedTheme is validTheme with every lock held first: a write the
// watcher has not read yet (it waits theme.Debounce) must not reach an
// export or an install with a locked colour changed.
func (a *Themes) lockedTheme(workspaceID string) (*theme.Theme, workspace.Meta, error) {
	a.editor.lockedChanged(workspaceID)
	return a.validTheme(workspaceID)
}

// ApplyTargets lists where a theme can be installed on this system.
func (a *Themes) ApplyTargets() []theme.Target { return theme.TargetsFor(goruntime.GOOS) }

// ExportTheme writes the theme in one format (or "all") under the
// workspace's export/ folder and returns the folder written.
func (a *Themes) ExportTheme(workspaceID, format string) (string, error) {
	t, ws, err := a.lockedTheme(workspaceID)
	if err != nil {
		return "", err
	}
	out := filepath.Join(ws.Dir, "export")
	formats := []string{format}
	if format == "all" {
		formats = theme.FormatIDs()
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
		if _, err := theme.Export(t, f, ws.Dir, "export/"+f); err != nil {
			return "", err
		}
	}
	return out, nil
}

// PlanApply shows what installing into target would write and replace; the
// UI asks the user to confirm before ApplyTheme.
func (a *Themes) PlanApply(workspaceID, target string) (apply.InstallPlan, error) {
	t, _, err := a.lockedTheme(workspaceID)
	if err != nil {
		return apply.InstallPlan{}, err
	}
	paths, err := theme.DefaultPaths()
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
// shows the new plan to confirm.
func (a *Themes) ApplyTheme(workspaceID, target, token string) (apply.Installed, error) {
	plan, err := a.PlanApply(workspaceID, target)
	if err != nil {
		return apply.Installed{}, err
	}
	if plan.Token != token {
		return apply.Installed{}, fmt.Errorf("install into %s: %w: the theme or a file it writes changed since you confirmed; look at the new plan and confirm again", target, apply.ErrPlanChanged)
	}
	return apply.Apply(plan)
}

// UndoApply undoes the last apply into target: the files it replaced get
// their earlier bytes and mode back, the files it created are removed.
func (a *Themes) UndoApply(target string) (apply.Undone, error) {
	paths, err := theme.DefaultPaths()
	if err != nil {
		return apply.Undone{}, err
	}
	return apply.UndoApply(paths, target)
}

// UndoableApplies lists the targets with an apply to undo.
func (a *Themes) UndoableApplies() ([]string, error) {
	paths, err := theme.DefaultPaths()
	if err != nil {
		return nil, err
	}
	return apply.CanUndo(paths), nil
}
