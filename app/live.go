package app

import (
	"fmt"
	"slices"
	"sync"

	"cdxtheme/app/liveswitch"
	"cdxtheme/core/apply"
	"cdxtheme/core/install"
	"cdxtheme/core/live"
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
// on per build (app/liveswitch).
type liveState struct {
	once     sync.Once
	runner   *live.Runner
	switches liveswitch.Switches
}

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

// liveOn is the build's programs turned on (a copy).
func (th *Themes) liveOn(build string) []string { return th.live.switches.On(build) }

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
	if err := th.live.switches.Set(workspaceID, target, on); err != nil {
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
	if err := th.live.switches.Off(target); err != nil {
		th.log.Warn().Err(err).Msg("remember live updates")
	}
}

// closeLive stops the runner, waiting for the runs going (bounded).
func (th *Themes) closeLive() {
	th.live.once.Do(func() {}) // none started: none will be
	if th.live.runner != nil {
		th.live.runner.Close()
	}
}
