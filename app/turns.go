package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"cdxtheme/app/turnrun"
	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/prompt"
	"cdxtheme/core/settings"
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

// newRunner makes the turns' runner, its hooks the events the page gets
// and the questions only other services answer. observers keep what they
// need of every turn: the session map, the chat memory, the artifacts.
func (tu *Turns) newRunner(observers []turnrun.Observer) *turnrun.Runner {
	r := &turnrun.Runner{
		Log: &tu.log, Version: Version, Observers: observers, Edits: tu.editor.edits,
		Settings: tu.settings.current, Home: tu.settings.home,
		Agents: tu.agents.agentList, AgentFor: tu.agents.agentFor,
		AgentEnv: tu.settings.agentEnv, KeyID: tu.settings.apiKeyEnvKey,
		Snapshot: tu.snapshot,
		Emit: func(id string, seq int, evs []chat.Event) {
			tu.emit.Emit("turn", TurnBatch{TurnID: id, Seq: seq, Events: evs})
		},
		Lent: func() { tu.emit.Emit("sessions", map[string]int{"fromCommandLine": 1}) },
	}
	r.Build.Log = &tu.log
	return r
}

// startTurn plans a turn and runs it in the background (turnrun).
func (tu *Turns) startTurn(p turnrun.Params) (string, error) { return tu.run.Start(p) }

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
	return tu.startTurn(turnrun.Params{
		ID: req.TurnID, WorkspaceID: req.WorkspaceID, SessionID: req.SessionID, Cwd: cwd,
		Prompt: req.Prompt, Attachments: req.Attachments,
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
	return tu.startTurn(turnrun.Params{ID: req.TurnID, WorkspaceID: req.WorkspaceID, SessionID: req.SessionID, Cwd: cwd, Open: true})
}

// Cancel stops a running turn: session/cancel first, the process group
// later if the agent does not stop. Streamed text stays.
func (tu *Turns) Cancel(turnID string) error { return tu.run.Cancel(turnID) }

// AnswerPermission answers the agent's permission request; an empty
// optionID cancels it.
func (tu *Turns) AnswerPermission(turnID, requestID, optionID string) error {
	return tu.run.Answer(turnID, requestID, optionID)
}

// NewBuild creates a workspace for a new theme and starts the first turn
// in it.
func (tu *Turns) NewBuild(req NewBuildRequest) (TurnStarted, error) {
	if strings.TrimSpace(req.Prompt) == "" {
		return TurnStarted{}, errors.New("describe the theme you want first")
	}
	model, _ := req.Options[acp.CategoryModel].(string)
	// The folder the open view pre-warmed the agent in, else a new one.
	ws, ok := tu.run.Build.Take(buildTitle(req.Prompt), model)
	if !ok {
		var err error
		if ws, err = workspace.Create(workspace.Root(), buildTitle(req.Prompt), model); err != nil {
			return TurnStarted{}, fmt.Errorf("create workspace: %w", err)
		}
	}
	tu.themes.watch(ws)
	id, err := tu.startTurn(turnrun.Params{ID: req.TurnID, WorkspaceID: ws.ID, Cwd: ws.Dir, Prompt: req.Prompt, Options: req.Options})
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

// What the other services ask of the turns (turnrun.Runner).

func (tu *Turns) engineFor(s settings.Settings, ag settings.Agent) *chat.Engine {
	return tu.run.EngineFor(s, ag)
}
func (tu *Turns) liveEngine() *chat.Engine     { return tu.run.Live() }
func (tu *Turns) busy(workspaceID string) bool { return tu.run.Busy(workspaceID) }
func (tu *Turns) track(f func())               { tu.run.Track(f) }
func (tu *Turns) signIn(ctx context.Context, in turnrun.SignIn) (string, error) {
	return tu.run.SignIn(ctx, in)
}
func (tu *Turns) lendWarm(ctx context.Context) { tu.run.Lend(ctx) }
func (tu *Turns) stop()                        { tu.run.Stop() }
