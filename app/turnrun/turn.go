// Package turnrun runs the agent's turns for the Turns service: the chat
// engine of the current agent setup, each turn's plan and its run to the
// end, the turns kept for a retry after sign-in, the pre-warm of the agent
// a view opened and the lending of the warm agent to the CLI. What it
// needs of the other services comes in as Runner's function fields: it
// knows no window and no service.
package turnrun

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"cdxtheme/app/editing"
	"cdxtheme/app/pendingbuild"
	"cdxtheme/app/running"
	"cdxtheme/app/stream"
	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/codexhome"
	"cdxtheme/core/permission"
	"cdxtheme/core/prompt"
	"cdxtheme/core/settings"
	"cdxtheme/core/theme"
	"cdxtheme/core/workspace"

	"github.com/rs/zerolog"
)

// Params is everything needed to (re)start a turn: kept for turns that
// ended needing sign-in, so the sign-in can run them again.
type Params struct {
	WorkspaceID, SessionID, Cwd string
	// ID is the turn's id, chosen by the page so it follows the turn's
	// events from the first ("" for callers that are no page: one is made).
	ID      string
	Prompt  string
	AgentID string
	// Options are the settings to apply: a new build's bar values, else
	// the chat's remembered choices (filled in by an Observer's Plan).
	Options     map[string]any
	Attachments []prompt.Attachment
	Open        bool // Engine.Open: no prompt
}

// Plan is a turn decided and not yet run: its id, what it was asked
// (Params), the agent and engine that run it and how its permission
// requests are answered.
type Plan struct {
	Params
	ID      string
	agent   settings.Agent
	eng     *chat.Engine
	turn    chat.Turn
	running *running.Turn
	// warnings go out before the turn's first event (e.g. no checkpoint).
	warnings []chat.Event
	// companion is the variant theme.json has before the turn.
	companion *theme.Theme
}

// An Observer keeps something of every turn (the chat memory, the
// artifacts, the session map). It is told each turn as it starts and then
// the turn's events in order, on the turn's goroutine, as Zed's AcpThread
// is subscribed to: the turn does not call the services that keep its
// traces, and they never call back into Turns (layers_test.go).
type Observer struct {
	// Plan adds what it keeps to a turn before it runs (the chat's
	// settings, the folder it moved to); it may change the Params only.
	Plan func(*Plan)
	// Follow is told the turn about to run and returns what follows its
	// events (nil: nothing to follow).
	Follow func(*Plan) func(chat.Event)
	// Warmed is told what a pre-warmed fresh session of an agent reported.
	Warmed func(agentID string, setup *acp.SessionSetup)
}

// Runner owns the engine and the running turns. Its exported fields are
// set once, before the first turn.
type Runner struct {
	Log     *zerolog.Logger
	Version string // sent as clientInfo
	// Settings, Home, Agents and AgentFor are the settings now, the Codex
	// home they name, the agents list and a turn's agent.
	Settings func() settings.Settings
	Home     func() codexhome.Home
	Agents   func() settings.AgentList
	AgentFor func(settings.AgentList, Params) settings.Agent
	// AgentEnv is the API key's variables; KeyID changes with the key, so
	// the engine (and the warm agent that got the old key) is replaced.
	AgentEnv func() []string
	KeyID    func() string
	// Edits is the hand-edit engine: its note goes with the prompt, and
	// its locks and the companion are checked after the turn.
	Edits *editing.Edits
	// Snapshot takes the checkpoint "before this turn" in a workspace.
	Snapshot func(workspaceID, dir, turnID, prompt string) error
	// Emit hands the page a batch of a turn's events; Lent tells it a turn
	// lent to the CLI changed a session.
	Emit      func(turnID string, seq int, evs []chat.Event)
	Lent      func()
	Observers []Observer
	// Build is the folder made for the open New build view.
	Build pendingbuild.Folder
	// Dial, set by tests only, runs the agent in-process
	// (chat.Options.Dial), by the chosen agent's id.
	Dial func(agentID, cwd string) (chat.Running, error)

	mu      sync.Mutex
	engine  *chat.Engine
	engKey  string
	retired []*chat.Engine // replaced engines: their warm agents die at Stop
	wg      sync.WaitGroup
	// set is the running turns and those kept for a retry after sign-in.
	set      running.Set[Params]
	rollouts map[string]bool   // session ids known to have a Codex rollout
	always   permission.Always // the user's "always" answers, per session and tool kind

	lendMu      sync.Mutex
	stopLending context.CancelFunc
}

// Start plans a turn and runs it in the background; its events follow
// under the id the page chose (p.ID; empty: one is made).
func (r *Runner) Start(p Params) (string, error) {
	plan, err := r.plan(p)
	if err != nil {
		return "", err
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		r.run(plan)
	}()
	return plan.ID, nil
}

// plan checks a turn's request and decides how it runs: the agent of the
// workspace (else the one for new builds), the chat's remembered
// settings, the MCP servers, the checkpoint before it. On success the turn
// is registered as running: run must follow.
func (r *Runner) plan(p Params) (*Plan, error) {
	if !p.Open && strings.TrimSpace(p.Prompt) == "" {
		return nil, errors.New("the prompt is empty")
	}
	if err := running.CheckID(p.ID); err != nil {
		return nil, err
	}
	if err := prompt.CheckAttachments(p.Attachments); err != nil {
		return nil, err
	}
	s := r.Settings()
	list := r.Agents()
	ag := r.AgentFor(list, p)
	p.AgentID = ag.ID
	plan := &Plan{Params: p, agent: ag}
	for _, o := range r.Observers {
		if o.Plan != nil {
			o.Plan(plan)
		}
	}
	p = plan.Params
	if !filepath.IsAbs(p.Cwd) {
		return nil, fmt.Errorf("working folder %q is not an absolute path", p.Cwd)
	}
	plan.eng = r.EngineFor(s, ag)
	plan.running = running.New(p.WorkspaceID)
	var decider permission.Decider = plan.running.Decider
	if pol := s.Policy(); pol != settings.PolicyAsk {
		decider = permission.Policy(pol)
	}
	plan.turn = chat.Turn{
		SessionID:   p.SessionID,
		Cwd:         p.Cwd,
		Options:     p.Options,
		Attachments: p.Attachments,
		MCPServers:  r.MCPServers(list, p.Cwd),
		Decider:     decider,
		Always:      &r.always,
		History:     p.SessionID != "" && !r.hasRollout(p.SessionID),
	}
	id, err := r.set.Start(p.ID, plan.running)
	if err != nil {
		plan.running.Cancel()
		return nil, err
	}
	plan.ID = id
	if p.WorkspaceID != "" && !p.Open {
		if ws, err := open(p.WorkspaceID); err == nil {
			plan.companion = editing.CompanionOf(ws)
		}
	}
	if p.WorkspaceID != "" {
		// The checkpoint "before this turn", taken before the prompt can
		// reach the agent; without one the turn still runs, and says so.
		if err := r.Snapshot(p.WorkspaceID, p.Cwd, plan.ID, p.Prompt); err != nil {
			r.Log.Warn().Err(err).Str("workspace", p.WorkspaceID).Msg("checkpoint")
			plan.warnings = append(plan.warnings, chat.Event{TurnID: plan.ID, Payload: chat.Warning{Text: "No checkpoint was saved before this turn, so it cannot be restored: " + err.Error()}})
		}
	}
	return plan, nil
}

// run runs a planned turn to its end: the observers follow its events,
// the page gets them in batches, and the hand-edit checks close it.
func (r *Runner) run(plan *Plan) {
	p, id := plan.Params, plan.ID
	defer plan.running.Cancel()
	b := stream.NewTurn(id, func(seq int, evs []chat.Event) { r.Emit(id, seq, evs) })
	for _, w := range plan.warnings {
		b.Say(w)
	}
	var follow []func(chat.Event)
	for _, o := range r.Observers {
		if o.Follow == nil {
			continue
		}
		if f := o.Follow(plan); f != nil {
			follow = append(follow, f)
		}
	}
	run := plan.eng.Run
	if p.Open {
		run = plan.eng.Open
	}
	t := plan.turn
	t.Prompt = prompt.Text(p.Prompt)
	// The designer's hand edits and locks since the agent's last turn go
	// with the prompt, after the user's words (so a transcript still opens
	// with what the user typed).
	var told map[string]string
	if p.WorkspaceID != "" && !p.Open {
		var note string
		if note, told = r.Edits.Note(p.WorkspaceID); note != "" {
			t.Prompt = append(t.Prompt, prompt.Text(note)...)
		}
	}
	_, err := run(plan.running.Ctx, t, func(ev chat.Event) {
		ev.TurnID = id
		if e, ok := ev.Payload.(chat.ErrorEvent); ok && e.Code == chat.CodeModelServer {
			e.Server = r.modelServer(plan.agent)
			ev.Payload = e
		}
		for _, f := range follow {
			f(ev)
		}
		// A "done" is held back until the locks are checked and the turn
		// is no longer running (below).
		b.Agent(ev)
	})
	if err != nil {
		r.Log.Info().Err(err).Str("turn", id).Msg("turn ended with an error")
		if ce, ok := errors.AsType[*chat.Error](err); ok && ce.Code == chat.CodeAuth {
			p.ID = "" // the retry runs under the id its page chooses
			r.set.KeepForRetry(id, p)
		}
	} else if p.WorkspaceID != "" {
		r.Edits.Told(p.WorkspaceID, told)
	}
	if p.WorkspaceID != "" && !p.Open {
		// An agent rewriting theme.json whole tends to drop the variant it
		// was not asked about; it is kept, and the page offers to drop it.
		if msg := r.keepCompanion(p.WorkspaceID, plan.companion); msg != "" {
			b.Say(chat.Event{TurnID: id, Payload: chat.Warning{Text: msg, Action: chat.WarnDropCompanion}})
		}
		// Whatever the turn's end, a locked colour the agent moved goes back.
		if msg := r.enforceLocks(p.WorkspaceID); msg != "" {
			b.Say(chat.Event{TurnID: id, Payload: chat.Warning{Text: msg}})
		}
	}
	// Not running any more before the page hears "done": its next action
	// (a hand edit, a restore) must not find the turn still busy.
	r.set.End(id)
	b.Close()
}

// keepCompanion puts back the variant the agent's rewrite left out
// (editing.Edits.KeepCompanion); the notice says so.
func (r *Runner) keepCompanion(workspaceID string, was *theme.Theme) string {
	if was == nil {
		return ""
	}
	ws, err := open(workspaceID)
	if err != nil {
		return ""
	}
	return r.Edits.KeepCompanion(ws, was)
}

// enforceLocks puts back the locked colours the agent changed; the turn's
// closing warning names them (editing.Edits.EnforceLocks).
func (r *Runner) enforceLocks(workspaceID string) string {
	ws, err := open(workspaceID)
	if err != nil {
		return ""
	}
	return r.Edits.EnforceLocks(ws)
}

// open is the workspace, with an error that names it.
func open(id string) (workspace.Meta, error) {
	ws, err := workspace.Open(workspace.Root(), id)
	if err != nil {
		return ws, fmt.Errorf("open workspace %s: %w", id, err)
	}
	return ws, nil
}

// Cancel stops a running turn: session/cancel first, the process group
// later if the agent does not stop.
func (r *Runner) Cancel(turnID string) error {
	t := r.set.Get(turnID)
	if t == nil {
		return fmt.Errorf("turn %s is not running", turnID)
	}
	t.Cancel()
	return nil
}

// Answer answers the agent's permission request; an empty optionID
// cancels it.
func (r *Runner) Answer(turnID, requestID, optionID string) error {
	t := r.set.Get(turnID)
	if t == nil {
		return fmt.Errorf("turn %s is not running", turnID)
	}
	return t.Decider.Answer(requestID, optionID)
}

// Busy reports whether a turn runs in the workspace now.
func (r *Runner) Busy(workspaceID string) bool { return r.set.Busy(workspaceID) }

// Track runs f in the background as part of the turns: Stop waits for it
// like for a turn, so nothing it starts outlives the app.
func (r *Runner) Track(f func()) {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		f()
	}()
}

// Wait waits for the turns and the background work started so far
// (tests, and Stop).
func (r *Runner) Wait() { r.wg.Wait() }

// Stop cancels the running and lent turns, waits for them and for the
// background work tracked, closes every engine and removes the unused New
// build folder (at quit).
func (r *Runner) Stop() {
	r.stopLend()
	r.set.CancelAll()
	r.mu.Lock()
	engines := append([]*chat.Engine{r.engine}, r.retired...)
	r.mu.Unlock()
	r.wg.Wait()
	for _, eng := range engines {
		if eng != nil {
			eng.Close()
		}
	}
	r.dropBuild()
}
