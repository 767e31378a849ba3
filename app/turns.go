package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"cdxtheme/app/running"
	"cdxtheme/app/stream"
	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/mcp"
	"cdxtheme/core/permission"
	"cdxtheme/core/prompt"
	"cdxtheme/core/settings"
	"cdxtheme/core/theme"
	"cdxtheme/core/workspace"
)

// TurnBatch is the payload of the "turn" event: everything a turn produced
// since the previous emit.
type TurnBatch struct {
	TurnID string `json:"turnId"`
	// Seq numbers a turn's batches from 1: the dev bridge delivers events
	// on goroutines of their own, so the UI puts them back in order.
	Seq    int          `json:"seq"`
	Events []chat.Event `json:"events"`
}

// NewBuildRequest starts a theme from nothing with the agent chosen for
// new builds (SetBuildAgent).
type NewBuildRequest struct {
	TurnID string `json:"turnId"` // chosen by the page, as SendRequest's
	Prompt string `json:"prompt"`
	// Options are the session bar's values (config option id or category →
	// text or true/false), applied after session/new and remembered for
	// this chat.
	Options map[string]any `json:"options,omitempty" ts_type:"{[key: string]: string | boolean}"`
}

// TurnStarted tells the UI where a new build lives.
type TurnStarted struct {
	TurnID      string `json:"turnId"`
	WorkspaceID string `json:"workspaceId"`
	Cwd         string `json:"cwd"`
	// Title is the new build's name (NewBuild), which its chat shows.
	Title string `json:"title,omitempty"`
}

// SendRequest is a follow-up (or first) message in an open chat. Its
// settings are the chat's own (SetSessionOption).
type SendRequest struct {
	// TurnID is the id the page chose for the turn: it follows the turn's
	// events from the first, before Send returns.
	TurnID      string `json:"turnId"`
	WorkspaceID string `json:"workspaceId"`
	SessionID   string `json:"sessionId"`
	Cwd         string `json:"cwd"`
	Prompt      string `json:"prompt"`
	// Attachments are pasted or dropped images and files (data in base64
	// on the wire) or files inside the workspace (path).
	Attachments []prompt.Attachment `json:"attachments,omitempty"`
}

// OpenRequest opens a saved chat on its agent before the first message.
type OpenRequest struct {
	TurnID      string `json:"turnId"` // chosen by the page, as SendRequest's
	WorkspaceID string `json:"workspaceId"`
	SessionID   string `json:"sessionId"`
	Cwd         string `json:"cwd"`
}

// turnParams is everything needed to (re)start a turn: kept for turns
// that ended needing sign-in, so SignIn can run them again.
type turnParams struct {
	workspaceID, sessionID, cwd string
	// id is the turn's id, chosen by the page so it follows the turn's
	// events from the first ("" for callers that are no page: one is made).
	id      string
	prompt  string
	agentID string
	// options are the settings to apply: a new build's bar values, else
	// the chat's remembered choices (filled in by planTurn).
	options     map[string]any
	attachments []prompt.Attachment
	open        bool // Engine.Open: no prompt
}

// turns owns the engine and the running turns.
type turns struct {
	mu      sync.Mutex
	engine  *chat.Engine
	engKey  string
	retired []*chat.Engine // replaced engines: their warm agents die at shutdown
	wg      sync.WaitGroup
	// set is the running turns and those kept for a retry after sign-in.
	set running.Set[turnParams]

	rollouts map[string]bool   // session ids known to have a Codex rollout
	always   permission.Always // the user's "always" permission answers, per session and tool kind

	// dial, set by tests only, runs the agent in-process (chat.Options.Dial),
	// by the chosen agent's id.
	dial func(agentID, cwd string) (chat.Running, error)
}

// engineFor returns the chat engine for the current settings and agent,
// rebuilding it (and dropping its warm connection) when the agent setup
// changed.
// mcpServers are the MCP servers every session of a chat in cwd gets:
// the user's own (Settings) and, for a build unless Settings turns them
// off, the app's theme tools (`cdxtheme mcp`, core/mcp) run from this
// very binary. The pre-warm and the lent turn ask here too, so a warm
// agent serves the turn (its servers must match).
func (tu *Turns) mcpServers(list settings.AgentList, cwd string) []json.RawMessage {
	servers := list.ACPServers()
	if !tu.settings.current().Tools() {
		return servers
	}
	return mcp.With(servers, mcp.ForBuild(mcp.Executable(), cwd))
}

func (tu *Turns) engineFor(s settings.Settings, ag settings.Agent) *chat.Engine {
	resolve := agentResolve(s, ag)
	var env []string
	if ag.GetsAPIKey() {
		env = tu.settings.agentEnv()
	}
	env = append(env, ag.EnvList()...)
	key := strings.Join(append([]string{resolve.Override, strings.Join(resolve.Argv, "\x01"), strings.Join(resolve.Unset, "\x01"),
		s.ACPVersion(), fmt.Sprint(s.Warm(), s.Timeout()), tu.settings.apiKeyEnvKey()}, ag.EnvList()...), "\x00")
	tu.turns.mu.Lock()
	defer tu.turns.mu.Unlock()
	if tu.turns.engine != nil && tu.turns.engKey == key {
		return tu.turns.engine
	}
	if tu.turns.engine != nil {
		old := tu.turns.engine
		tu.turns.retired = append(tu.turns.retired, old)
		go old.Close()
	}
	var dial func(cwd string) (chat.Running, error)
	if d := tu.turns.dial; d != nil {
		dial = func(cwd string) (chat.Running, error) { return d(ag.ID, cwd) }
	}
	tu.turns.engine = chat.NewEngine(chat.Options{
		Resolve: resolve,
		Version: Version,
		Warm:    s.Warm(),
		Timeout: s.Timeout(),
		Env:     env,
		Log:     tu.log,
		Dial:    dial,
	})
	tu.turns.engKey = key
	return tu.turns.engine
}

// A turnObserver keeps something of every turn: the chat memory (each
// chat's settings), the artifacts a build's turns named, the map of which
// agent holds which session. It registers with Turns (New) and is told
// each turn as it starts and then the turn's typed events in order, on the
// turn's goroutine, as Zed's AcpThread is subscribed to: the turn does not
// call the services that keep its traces, and they never call back into
// Turns (layers_test.go holds both).
type turnObserver interface {
	// observeTurn is told the turn about to run and returns what follows
	// its events (nil: nothing to follow).
	observeTurn(t *turnPlan) func(chat.Event)
}

// A turnPlanner is an observer that adds what it keeps to a turn before
// it runs (the chat memory: the settings chosen in that chat, the folder
// it moved to). It may change the plan's params only.
type turnPlanner interface {
	planTurn(t *turnPlan)
}

// A warmObserver is told what a pre-warmed fresh session of an agent
// reported (the chat memory keeps it for New build's bar).
type warmObserver interface {
	sessionWarmed(agentID string, setup *acp.SessionSetup)
}

// turnPlan is a turn decided and not yet run: its id, what it was asked
// (turnParams), the agent and engine that run it and how its permission
// requests are answered. planTurn makes it, runTurn runs it.
type turnPlan struct {
	turnParams
	id      string
	agent   settings.Agent
	eng     *chat.Engine
	turn    chat.Turn
	running *running.Turn
	// warnings go out before the turn's first event (e.g. no checkpoint).
	warnings []chat.Event
	// companion is the variant theme.json has before the turn.
	companion *theme.Theme
}

// startTurn plans a turn and runs it in the background; its events follow
// on the "turn" event under the id the page chose (p.id; empty: one is
// made, for callers that are no page).
func (tu *Turns) startTurn(p turnParams) (string, error) {
	plan, err := tu.planTurn(p)
	if err != nil {
		return "", err
	}
	tu.turns.wg.Add(1)
	go func() {
		defer tu.turns.wg.Done()
		tu.runTurn(plan)
	}()
	return plan.id, nil
}

// planTurn checks a turn's request and decides how it runs: the agent of
// the workspace (else the one for new builds), the chat's remembered
// settings, the MCP servers, the checkpoint before it. On success the turn
// is registered as running: runTurn must follow.
func (tu *Turns) planTurn(p turnParams) (*turnPlan, error) {
	if !p.open && strings.TrimSpace(p.prompt) == "" {
		return nil, errors.New("the prompt is empty")
	}
	if err := running.CheckID(p.id); err != nil {
		return nil, err
	}
	if err := prompt.CheckAttachments(p.attachments); err != nil {
		return nil, err
	}
	s := tu.settings.current()
	list := tu.agents.agentList()
	ag := tu.agents.agentFor(list, p)
	p.agentID = ag.ID
	plan := &turnPlan{turnParams: p, agent: ag}
	for _, o := range tu.observers {
		if pl, ok := o.(turnPlanner); ok {
			pl.planTurn(plan)
		}
	}
	p = plan.turnParams
	if !filepath.IsAbs(p.cwd) {
		return nil, fmt.Errorf("working folder %q is not an absolute path", p.cwd)
	}
	plan.eng = tu.engineFor(s, ag)
	plan.running = running.New(p.workspaceID)
	var decider permission.Decider = plan.running.Decider
	if pol := s.Policy(); pol != settings.PolicyAsk {
		decider = permission.Policy(pol)
	}
	plan.turn = chat.Turn{
		SessionID:   p.sessionID,
		Cwd:         p.cwd,
		Options:     p.options,
		Attachments: p.attachments,
		MCPServers:  tu.mcpServers(list, p.cwd),
		Decider:     decider,
		Always:      &tu.turns.always,
		History:     p.sessionID != "" && !tu.hasRollout(p.sessionID),
	}
	id, err := tu.turns.set.Start(p.id, plan.running)
	if err != nil {
		plan.running.Cancel()
		return nil, err
	}
	plan.id = id
	if p.workspaceID != "" && !p.open {
		plan.companion = tu.editor.companionOf(p.workspaceID)
	}
	if p.workspaceID != "" {
		// The checkpoint "before this turn", taken before the prompt can
		// reach the agent; without one the turn still runs, and says so.
		if err := tu.snapshot(p.workspaceID, p.cwd, plan.id, p.prompt); err != nil {
			tu.log.Warn().Err(err).Str("workspace", p.workspaceID).Msg("checkpoint")
			plan.warnings = append(plan.warnings, chat.Event{TurnID: plan.id, Payload: chat.Warning{Text: "No checkpoint was saved before this turn, so it cannot be restored: " + err.Error()}})
		}
	}
	return plan, nil
}

// runTurn runs a planned turn to its end: the observers follow its events,
// the page gets them in batches, and the editor's checks close it.
func (tu *Turns) runTurn(plan *turnPlan) {
	p, id := plan.turnParams, plan.id
	defer plan.running.Cancel()
	b := stream.NewTurn(id, func(seq int, evs []chat.Event) {
		tu.emit.Emit("turn", TurnBatch{TurnID: id, Seq: seq, Events: evs})
	})
	for _, w := range plan.warnings {
		b.Say(w)
	}
	var follow []func(chat.Event)
	for _, o := range tu.observers {
		if f := o.observeTurn(plan); f != nil {
			follow = append(follow, f)
		}
	}
	run := plan.eng.Run
	if p.open {
		run = plan.eng.Open
	}
	t := plan.turn
	t.Prompt = prompt.Text(p.prompt)
	// The designer's hand edits and locks since the agent's last turn go
	// with the prompt, after the user's words (so a transcript still opens
	// with what the user typed).
	var told map[string]string
	if p.workspaceID != "" && !p.open {
		var note string
		if note, told = tu.editor.handNote(p.workspaceID); note != "" {
			t.Prompt = append(t.Prompt, prompt.Text(note)...)
		}
	}
	_, err := run(plan.running.Ctx, t, func(ev chat.Event) {
		ev.TurnID = id
		if e, ok := ev.Payload.(chat.ErrorEvent); ok && e.Code == chat.CodeModelServer {
			e.Server = tu.modelServer(plan.agent)
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
		tu.log.Info().Err(err).Str("turn", id).Msg("turn ended with an error")
		if ce, ok := errors.AsType[*chat.Error](err); ok && ce.Code == chat.CodeAuth {
			p.id = "" // the retry runs under the id its page chooses
			tu.keepForRetry(id, p)
		}
	} else if p.workspaceID != "" {
		tu.editor.handTold(p.workspaceID, told)
	}
	if p.workspaceID != "" && !p.open {
		// An agent rewriting theme.json whole tends to drop the variant it
		// was not asked about; it is kept, and the page offers to drop it.
		if msg := tu.editor.keepCompanion(p.workspaceID, plan.companion); msg != "" {
			b.Say(chat.Event{TurnID: id, Payload: chat.Warning{Text: msg, Action: chat.WarnDropCompanion}})
		}
		// Whatever the turn's end, a locked colour the agent moved goes back.
		if msg := tu.editor.enforceLocks(p.workspaceID); msg != "" {
			b.Say(chat.Event{TurnID: id, Payload: chat.Warning{Text: msg}})
		}
	}
	// Not running any more before the page hears "done": its next action
	// (a hand edit, a restore) must not find the turn still busy.
	tu.turns.set.End(id)
	b.Close()
}

// keepForRetry remembers a turn that stopped for sign-in (bounded).
func (tu *Turns) keepForRetry(id string, p turnParams) { tu.turns.set.KeepForRetry(id, p) }

// takeRetry hands over a turn kept for retry, once.
func (tu *Turns) takeRetry(id string) (turnParams, bool) { return tu.turns.set.TakeRetry(id) }

// Send starts a turn in an open chat and returns its id; events follow on
// the "turn" event.
func (tu *Turns) Send(req SendRequest) (string, error) {
	cwd := req.Cwd
	if req.WorkspaceID != "" {
		ws, err := tu.openWorkspace(req.WorkspaceID)
		if err != nil {
			return "", err
		}
		cwd = ws.Dir
	}
	return tu.startTurn(turnParams{
		id: req.TurnID, workspaceID: req.WorkspaceID, sessionID: req.SessionID, cwd: cwd,
		prompt: req.Prompt, attachments: req.Attachments,
	})
}

// OpenChat opens a saved chat on its agent without sending anything, so
// the session bar shows the agent's live settings (the chat's own values
// applied again) and, for agents without a Codex rollout, the history the
// agent replays; the events end with "ready". Returns the turn id.
func (tu *Turns) OpenChat(req OpenRequest) (string, error) {
	if req.SessionID == "" {
		return "", errors.New("there is no saved session to open")
	}
	cwd := req.Cwd
	if req.WorkspaceID != "" {
		ws, err := tu.openWorkspace(req.WorkspaceID)
		if err != nil {
			return "", err
		}
		cwd = ws.Dir
	}
	// The folder the session began in may be gone: the chat memory plans
	// the one chosen for it later (Choose folder).
	return tu.startTurn(turnParams{id: req.TurnID, workspaceID: req.WorkspaceID, sessionID: req.SessionID, cwd: cwd, open: true})
}

// hasRollout reports whether Codex keeps a rollout of the session, where
// the chat's history is read from; without one the agent's replay is the
// history. Only found ones are remembered: a session started in this run
// gets its rollout later.
func (tu *Turns) hasRollout(sessionID string) bool {
	tu.turns.mu.Lock()
	known := tu.turns.rollouts[sessionID]
	tu.turns.mu.Unlock()
	if known {
		return true
	}
	if _, err := tu.settings.home().FindRollout(sessionID); err != nil {
		return false
	}
	tu.turns.mu.Lock()
	if tu.turns.rollouts == nil {
		tu.turns.rollouts = map[string]bool{}
	}
	tu.turns.rollouts[sessionID] = true
	tu.turns.mu.Unlock()
	return true
}

// Cancel stops a running turn: session/cancel first, the process group
// later if the agent does not stop. Streamed text stays.
func (tu *Turns) Cancel(turnID string) error {
	t := tu.turns.set.Get(turnID)
	if t == nil {
		return fmt.Errorf("turn %s is not running", turnID)
	}
	t.Cancel()
	return nil
}

// AnswerPermission answers the agent's permission request; an empty
// optionID cancels it.
func (tu *Turns) AnswerPermission(turnID, requestID, optionID string) error {
	t := tu.turns.set.Get(turnID)
	if t == nil {
		return fmt.Errorf("turn %s is not running", turnID)
	}
	return t.Decider.Answer(requestID, optionID)
}

// stop cancels the running and lent turns, waits for them and for the
// background work Turns tracks, closes every engine and removes the unused
// New build folder (App.closeAll, at quit).
func (tu *Turns) stop() {
	tu.stopLending()
	tu.turns.set.CancelAll()
	tu.turns.mu.Lock()
	engines := append([]*chat.Engine{tu.turns.engine}, tu.turns.retired...)
	tu.turns.mu.Unlock()
	tu.turns.wg.Wait()
	for _, eng := range engines {
		if eng != nil {
			eng.Close()
		}
	}
	tu.dropBuild()
}

// modelServer names the model server of a Codex agent from config.toml
// ("" for other agents or when unknown).
func (tu *Turns) modelServer(ag settings.Agent) string {
	if ag.Kind != settings.KindCodex && ag.Kind != settings.KindCodexRS && ag.Kind != "" {
		return ""
	}
	cfg, err := tu.settings.home().Config()
	if err != nil {
		return ""
	}
	return cfg.ModelServer()
}

// NewBuild creates a workspace for a new theme and starts the first turn
// in it.
func (tu *Turns) NewBuild(req NewBuildRequest) (TurnStarted, error) {
	if strings.TrimSpace(req.Prompt) == "" {
		return TurnStarted{}, errors.New("describe the theme you want first")
	}
	model, _ := req.Options[acp.CategoryModel].(string)
	// The folder the open view pre-warmed the agent in, else a new one.
	ws, ok := tu.warmups.build.Take(buildTitle(req.Prompt), model)
	if !ok {
		var err error
		if ws, err = workspace.Create(workspace.Root(), buildTitle(req.Prompt), model); err != nil {
			return TurnStarted{}, fmt.Errorf("create workspace: %w", err)
		}
	}
	tu.themes.watch(ws)
	id, err := tu.startTurn(turnParams{id: req.TurnID, workspaceID: ws.ID, cwd: ws.Dir, prompt: req.Prompt, options: req.Options})
	if err != nil {
		// The first message never left: this is no build to keep.
		tu.themes.unwatch(ws.ID)
		if rerr := workspace.Remove(workspace.Root(), ws.ID); rerr != nil {
			tu.log.Warn().Err(rerr).Str("workspace", ws.ID).Msg("remove unused workspace")
		}
		return TurnStarted{}, err
	}
	return TurnStarted{TurnID: id, WorkspaceID: ws.ID, Cwd: ws.Dir, Title: ws.Title}, nil
}

// track runs f in the background as part of the turns: stop waits for it
// like for a turn, so nothing it starts outlives the app.
func (tu *Turns) track(f func()) {
	tu.turns.wg.Add(1)
	go func() {
		defer tu.turns.wg.Done()
		f()
	}()
}

// liveEngine is the engine as it is now (nil before the first turn), for
// a service acting on the warm agent without replacing it.
func (tu *Turns) liveEngine() *chat.Engine {
	tu.turns.mu.Lock()
	defer tu.turns.mu.Unlock()
	return tu.turns.engine
}

// busy reports whether a turn runs in the workspace now.
func (tu *Turns) busy(workspaceID string) bool { return tu.turns.set.Busy(workspaceID) }
