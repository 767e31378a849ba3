package app

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"
	"unicode/utf8"

	"cdxtheme/core/acp"
	"cdxtheme/core/inside"
	"cdxtheme/core/theme"
	"cdxtheme/core/workspace"
)

// ThemeEvent is the payload of the "theme" event: the workspace's preview
// state after the agent (or anyone) wrote theme.json.
type ThemeEvent struct {
	WorkspaceID string `json:"workspaceId"`
	theme.State
}

// watchers keeps one theme.json watcher per open workspace.
type watchers struct {
	mu     sync.Mutex
	cancel map[string]context.CancelFunc
}

func (a *App) stopWatchers() {
	a.watchers.mu.Lock()
	defer a.watchers.mu.Unlock()
	for id, c := range a.watchers.cancel {
		c()
		delete(a.watchers.cancel, id)
	}
}

// watch starts watching a workspace's theme.json (once), so the preview
// follows the agent's writes while the turn is still streaming.
func (a *App) watch(ws workspace.Meta) {
	a.watchers.mu.Lock()
	defer a.watchers.mu.Unlock()
	if a.watchers.cancel == nil {
		a.watchers.cancel = map[string]context.CancelFunc{}
	}
	if _, ok := a.watchers.cancel[ws.ID]; ok {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	a.watchers.cancel[ws.ID] = cancel
	go func() {
		err := theme.Watch(ctx, ws.Dir, func(st theme.State) {
			a.emit.Emit("theme", ThemeEvent{WorkspaceID: ws.ID, State: st})
		})
		if err != nil && !errors.Is(err, context.Canceled) {
			a.log.Warn().Err(err).Str("workspace", ws.ID).Msg("watch theme")
		}
	}()
}

func (a *App) openWorkspace(id string) (workspace.Meta, error) {
	ws, err := workspace.Open(workspace.Root(), id)
	if err != nil {
		return ws, fmt.Errorf("open workspace %s: %w", id, err)
	}
	return ws, nil
}

func (a *App) recordSession(workspaceID, sessionID string) {
	if _, err := workspace.AddSession(workspace.Root(), workspaceID, sessionID); err != nil {
		a.log.Warn().Err(err).Str("workspace", workspaceID).Msg("record session")
	}
}

// NewBuild creates a workspace for a new theme and starts the first turn
// in it.
func (a *App) NewBuild(req NewBuildRequest) (TurnStarted, error) {
	if strings.TrimSpace(req.Prompt) == "" {
		return TurnStarted{}, errors.New("describe the theme you want first")
	}
	model, _ := req.Options[acp.CategoryModel].(string)
	// The folder the open view pre-warmed the agent in, else a new one.
	ws, ok := a.takeBuild(buildTitle(req.Prompt), model)
	if !ok {
		var err error
		if ws, err = workspace.Create(workspace.Root(), buildTitle(req.Prompt), model); err != nil {
			return TurnStarted{}, fmt.Errorf("create workspace: %w", err)
		}
	}
	a.watch(ws)
	id, err := a.startTurn(turnParams{workspaceID: ws.ID, cwd: ws.Dir, prompt: req.Prompt, options: req.Options})
	if err != nil {
		// The first message never left: this is no build to keep.
		a.unwatch(ws.ID)
		if rerr := workspace.Remove(workspace.Root(), ws.ID); rerr != nil {
			a.log.Warn().Err(rerr).Str("workspace", ws.ID).Msg("remove unused workspace")
		}
		return TurnStarted{}, err
	}
	return TurnStarted{TurnID: id, WorkspaceID: ws.ID, Cwd: ws.Dir}, nil
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

// Workspaces lists theme workspaces, newest first; broken ones are logged.
func (a *App) Workspaces() []workspace.Meta {
	list, problems := workspace.List(workspace.Root())
	for _, p := range problems {
		a.log.Warn().Err(p).Msg("workspace skipped")
	}
	if list == nil {
		list = []workspace.Meta{}
	}
	return list
}

// Theme returns a workspace's current preview state and starts following
// its changes.
func (a *App) Theme(workspaceID string) (theme.State, error) {
	ws, err := a.openWorkspace(workspaceID)
	if err != nil {
		return theme.State{}, err
	}
	a.watch(ws)
	return theme.Load(ws.Dir), nil
}

// FixPrompt builds the "Fix with agent" follow-up from the current failures.
func (a *App) FixPrompt(workspaceID string) (string, error) {
	st, err := a.Theme(workspaceID)
	if err != nil {
		return "", err
	}
	if st.Theme == nil {
		return "", errors.New("the workspace has no valid theme.json yet")
	}
	return theme.FixPrompt(st.Checks), nil
}

func (a *App) validTheme(workspaceID string) (*theme.Theme, workspace.Meta, error) {
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

// ThemeFormats lists the export formats for the menu.
func (a *App) ThemeFormats() []theme.Format { return theme.Formats }

// ApplyTargets lists where a theme can be installed on this system.
func (a *App) ApplyTargets() []theme.Target { return theme.TargetsFor(goruntime.GOOS) }

// ExportTheme writes the theme in one format (or "all") under the
// workspace's export/ folder and returns the folder written.
func (a *App) ExportTheme(workspaceID, format string) (string, error) {
	t, ws, err := a.validTheme(workspaceID)
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
		// planted links in export/.
		if _, err := theme.Export(t, f, ws.Dir, "export/"+f); err != nil {
			return "", err
		}
	}
	return out, nil
}

// PlanApply shows what installing into target would write and replace; the
// UI asks the user to confirm before ApplyTheme.
func (a *App) PlanApply(workspaceID, target string) (theme.InstallPlan, error) {
	t, _, err := a.validTheme(workspaceID)
	if err != nil {
		return theme.InstallPlan{}, err
	}
	paths, err := theme.DefaultPaths()
	if err != nil {
		return theme.InstallPlan{}, err
	}
	return theme.Plan(t, target, paths)
}

// ApplyTheme installs the theme into target after the user confirmed the
// plan, backing up every file it replaces.
func (a *App) ApplyTheme(workspaceID, target string) (theme.Installed, error) {
	plan, err := a.PlanApply(workspaceID, target)
	if err != nil {
		return theme.Installed{}, err
	}
	return theme.Apply(plan)
}

// OpenWorkspaceFolder shows the workspace folder in the file manager.
func (a *App) OpenWorkspaceFolder(workspaceID string) error {
	ws, err := a.openWorkspace(workspaceID)
	if err != nil {
		return err
	}
	return a.openLocal(ws.Dir)
}

// OpenPath opens a file the agent named (an artifact, a resource_link) with
// the OS, only after checking it lies inside the workspace; a program,
// script or launcher is shown in its folder instead (see runnable).
func (a *App) OpenPath(workspaceID, path string) error {
	ws, err := a.openWorkspace(workspaceID)
	if err != nil {
		return err
	}
	p, _, err := inside.Resolve(ws.Dir, path)
	if err != nil {
		return err
	}
	why, err := runnable(p)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	if why != "" {
		a.log.Info().Str("path", p).Str("why", why).Msg("shown in its folder, not opened")
		return a.revealLocal(p)
	}
	return a.openLocal(p)
}

// openLocal hands a checked local path to the OS's opener.
func (a *App) openLocal(path string) error {
	if a.openFile != nil {
		return a.openFile(path)
	}
	var cmd *exec.Cmd
	switch goruntime.GOOS {
	case "darwin":
		cmd = exec.Command("open", path)
	case "windows":
		cmd = exec.Command("explorer", path)
	default:
		cmd = exec.Command("xdg-open", path)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	go cmd.Wait()
	return nil
}
