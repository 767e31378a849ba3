package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sync"

	"cdxtheme/core/apply"
	"cdxtheme/core/fsread"
	"cdxtheme/core/install"
	"cdxtheme/core/live"
	"cdxtheme/core/paths"
	"cdxtheme/core/themewatch"
)

// LiveProgram is one program the build was applied to, as the Apply
// menu shows it: what live does there, whether the designer turned it
// on, and what the latest change did.
type LiveProgram struct {
	Target string `json:"target"`
	// Mode is how the program follows: told by the app, watching its
	// files itself, or only on the user's reload.
	Mode string       `json:"mode" ts_type:"'told' | 'watches' | 'manual'"`
	Note string       `json:"note"`
	On   bool         `json:"on"`
	Last *live.Report `json:"last,omitempty"`
}

// liveState is Themes' live updates: the runner, and the programs turned
// on per build (live.json in the app's data folder, never the workspace,
// which the agent can write).
type liveState struct {
	once   sync.Once
	runner *live.Runner
	mu     sync.Mutex
	loaded bool
	on     map[string][]string // build id → targets turned on
}

// maxLiveBuilds bounds live.json; the builds turned on longest ago go.
const maxLiveBuilds = 64

func livePath() string { return filepath.Join(paths.DataDir(), "live.json") }

// liveRunner starts the runner on first use.
func (th *Themes) liveRunner() *live.Runner {
	th.live.once.Do(func() {
		p, err := install.DefaultPaths()
		if err != nil {
			th.log.Warn().Err(err).Msg("live updates: no home folder")
		}
		th.live.runner = live.NewRunner(p, live.DefaultEnv())
		th.live.runner.OnReport = func(r live.Report) {
			ev := th.log.Debug()
			if r.Error != "" {
				ev = th.log.Warn().Str("error", r.Error)
			}
			ev.Str("workspace", r.Build).Str("target", r.Target).Int("written", len(r.Written)).
				Int("reached", r.Reached).Dur("took", r.Took).Msg("live update")
			// The Apply menu's row shows what the change did there.
			th.emit.Emit("live", r)
		}
	})
	return th.live.runner
}

// liveOn is the build's programs turned on (a copy), loading live.json
// the first time.
func (th *Themes) liveOn(build string) []string {
	th.live.mu.Lock()
	defer th.live.mu.Unlock()
	th.loadLive()
	return slices.Clone(th.live.on[build])
}

// loadLive reads live.json once; unreadable, live starts all off.
func (th *Themes) loadLive() {
	if th.live.loaded {
		return
	}
	th.live.loaded = true
	th.live.on = map[string][]string{}
	b, err := fsread.ReadFile(livePath(), 1<<20, fsread.NoFollow)
	if err == nil {
		err = json.Unmarshal(b, &th.live.on)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		th.log.Warn().Err(err).Msg("live.json unreadable; every program starts off")
		th.live.on = map[string][]string{}
	}
}

func (th *Themes) saveLive() error {
	for len(th.live.on) > maxLiveBuilds {
		for k := range th.live.on { // any: a bound, not an order
			delete(th.live.on, k)
			break
		}
	}
	b, err := json.Marshal(th.live.on)
	if err != nil {
		return err
	}
	return paths.WriteFileAtomic(livePath(), b, 0o600)
}

// followLive hands a settled theme to the build's programs turned on.
func (th *Themes) followLive(build string, st themewatch.State) {
	if st.Error != "" || st.Theme == nil {
		return
	}
	if on := th.liveOn(build); len(on) > 0 {
		th.liveRunner().Changed(build, st.Theme, on)
	}
}

// LivePrograms lists the programs this build's theme was applied to
// (the latest apply into each is the build's), each with what live does
// there and whether it is on.
func (th *Themes) LivePrograms(workspaceID string) ([]LiveProgram, error) {
	if _, err := th.openWorkspace(workspaceID); err != nil {
		return nil, err
	}
	p, err := install.DefaultPaths()
	if err != nil {
		return nil, err
	}
	on := th.liveOn(workspaceID)
	out := []LiveProgram{}
	for _, target := range apply.AppliedBy(p, workspaceID) {
		pr := live.ProgramFor(target)
		lp := LiveProgram{Target: target, Mode: pr.Mode, Note: pr.Note, On: slices.Contains(on, target)}
		if r, ok := th.liveRunner().Last(workspaceID, target); ok {
			lp.Last = &r
		}
		out = append(out, lp)
	}
	return out, nil
}

// SetLive turns live updates of one program on or off for a build. Only a
// program the build's theme was applied to (its latest apply) can be
// turned on; turned on, it catches up with the theme as it is now.
func (th *Themes) SetLive(workspaceID, target string, on bool) error {
	ws, err := th.openWorkspace(workspaceID)
	if err != nil {
		return err
	}
	if on {
		p, err := install.DefaultPaths()
		if err != nil {
			return err
		}
		if !slices.Contains(apply.AppliedBy(p, workspaceID), target) {
			return fmt.Errorf("live updates of %s: %w; apply the theme there first", target, apply.ErrNotApplied)
		}
	}
	th.live.mu.Lock()
	th.loadLive()
	list := slices.DeleteFunc(slices.Clone(th.live.on[workspaceID]), func(t string) bool { return t == target })
	if on {
		list = append(list, target)
	}
	if len(list) == 0 {
		delete(th.live.on, workspaceID)
	} else {
		th.live.on[workspaceID] = list
	}
	err = th.saveLive()
	th.live.mu.Unlock()
	if err != nil {
		return fmt.Errorf("remember live updates: %w", err)
	}
	if on {
		th.followLive(workspaceID, themewatch.Load(ws.Dir))
	}
	return nil
}

// stopLive turns target off for every build: Undo apply ends its live
// updates.
func (th *Themes) stopLive(target string) {
	th.live.mu.Lock()
	defer th.live.mu.Unlock()
	th.loadLive()
	changed := false
	for b, list := range th.live.on {
		if i := slices.Index(list, target); i >= 0 {
			changed = true
			if list = slices.Delete(slices.Clone(list), i, i+1); len(list) == 0 {
				delete(th.live.on, b)
			} else {
				th.live.on[b] = list
			}
		}
	}
	if changed {
		if err := th.saveLive(); err != nil {
			th.log.Warn().Err(err).Msg("remember live updates")
		}
	}
}

// closeLive stops the runner, waiting for the runs going (bounded).
func (th *Themes) closeLive() {
	th.live.once.Do(func() {}) // none started: none will be
	if th.live.runner != nil {
		th.live.runner.Close()
	}
}
