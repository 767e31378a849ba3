package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"cdxtheme/core/agent"
	"cdxtheme/core/chat"
	"cdxtheme/core/settings"
)

// TurnEvents is the payload of the "turn" event: everything a turn produced
// since the previous emit.
type TurnEvents struct {
	TurnID string       `json:"turnId"`
	Events []chat.Event `json:"events"`
}

// NewBuildRequest starts a theme from nothing.
type NewBuildRequest struct {
	Prompt string `json:"prompt"`
	Model  string `json:"model"`
	Effort string `json:"effort"`
}

// TurnStarted tells the UI where a new build lives.
type TurnStarted struct {
	TurnID      string `json:"turnId"`
	WorkspaceID string `json:"workspaceId"`
	Cwd         string `json:"cwd"`
}

// SendRequest is a follow-up (or first) message in an open chat.
type SendRequest struct {
	WorkspaceID string `json:"workspaceId"`
	SessionID   string `json:"sessionId"`
	Cwd         string `json:"cwd"`
	Prompt      string `json:"prompt"`
	Model       string `json:"model"`
	Effort      string `json:"effort"`
}

type turn struct {
	id          string
	workspaceID string
	cancel      context.CancelFunc
	decider     *guiDecider
}

// turns owns the engine and the running turns.
type turns struct {
	mu      sync.Mutex
	engine  *chat.Engine
	engKey  string
	running map[string]*turn
	wg      sync.WaitGroup
}

func newTurnID() string {
	var b [8]byte
	rand.Read(b[:])
	return "t-" + hex.EncodeToString(b[:])
}

// engineFor returns the chat engine for the current settings, rebuilding it
// (and dropping its warm connection) when the agent setup changed.
func (a *App) engineFor(s settings.Settings) *chat.Engine {
	key := strings.Join([]string{s.AgentCommand, s.ACPVersion(), fmt.Sprint(s.Warm(), s.Timeout()), a.apiKeyEnvKey()}, "\x00")
	a.turns.mu.Lock()
	defer a.turns.mu.Unlock()
	if a.turns.engine != nil && a.turns.engKey == key {
		return a.turns.engine
	}
	if a.turns.engine != nil {
		old := a.turns.engine
		go old.Close()
	}
	a.turns.engine = chat.NewEngine(chat.Options{
		Resolve: agent.ResolveOptions{
			Override:       agentOverride(s),
			SidecarVersion: s.ACPVersion(),
		},
		Version: Version,
		Warm:    s.Warm(),
		Timeout: s.Timeout(),
		Env:     a.agentEnv(),
		Log:     a.log,
	})
	a.turns.engKey = key
	return a.turns.engine
}

// start runs one turn in the background and returns its id at once.
func (a *App) start(workspaceID, sessionID, cwd, prompt, model, effort string) (string, error) {
	if strings.TrimSpace(prompt) == "" {
		return "", errors.New("the prompt is empty")
	}
	if !filepath.IsAbs(cwd) {
		return "", fmt.Errorf("working folder %q is not an absolute path", cwd)
	}
	s := a.GetSettings()
	eng := a.engineFor(s)
	id := newTurnID()
	ctx, cancel := context.WithCancel(context.Background())
	t := &turn{id: id, workspaceID: workspaceID, cancel: cancel, decider: newGUIDecider()}
	var decider chat.Decider = t.decider
	if p := s.Policy(); p != settings.PolicyAsk {
		decider = chat.Policy(p)
	}
	a.turns.mu.Lock()
	if a.turns.running == nil {
		a.turns.running = map[string]*turn{}
	}
	a.turns.running[id] = t
	a.turns.mu.Unlock()

	b := newBatcher(FlushInterval, func(evs []chat.Event) {
		a.emit.Emit("turn", TurnEvents{TurnID: id, Events: evs})
	})
	a.turns.wg.Add(1)
	go func() {
		defer a.turns.wg.Done()
		defer cancel()
		recorded := false
		_, err := eng.Run(ctx, chat.Turn{
			SessionID: sessionID,
			Cwd:       cwd,
			Model:     model,
			Effort:    effort,
			Prompt:    chat.TextPrompt(prompt),
			Decider:   decider,
		}, func(ev chat.Event) {
			ev.TurnID = id
			if !recorded && ev.SessionID != "" && workspaceID != "" {
				recorded = true
				a.recordSession(workspaceID, ev.SessionID)
			}
			b.Add(ev)
		})
		if err != nil {
			a.log.Info().Err(err).Str("turn", id).Msg("turn ended with an error")
		}
		b.Close()
		a.turns.mu.Lock()
		delete(a.turns.running, id)
		a.turns.mu.Unlock()
	}()
	return id, nil
}

// Send starts a turn in an open chat and returns its id; events follow on
// the "turn" event.
func (a *App) Send(req SendRequest) (string, error) {
	cwd := req.Cwd
	if req.WorkspaceID != "" {
		ws, err := a.openWorkspace(req.WorkspaceID)
		if err != nil {
			return "", err
		}
		cwd = ws.Dir
	}
	return a.start(req.WorkspaceID, req.SessionID, cwd, req.Prompt, req.Model, req.Effort)
}

// Cancel stops a running turn: session/cancel first, the process group
// later if the agent does not stop. Streamed text stays.
func (a *App) Cancel(turnID string) error {
	a.turns.mu.Lock()
	t := a.turns.running[turnID]
	a.turns.mu.Unlock()
	if t == nil {
		return fmt.Errorf("turn %s is not running", turnID)
	}
	t.cancel()
	return nil
}

// AnswerPermission answers the agent's permission request; an empty
// optionID cancels it.
func (a *App) AnswerPermission(turnID, requestID, optionID string) error {
	a.turns.mu.Lock()
	t := a.turns.running[turnID]
	a.turns.mu.Unlock()
	if t == nil {
		return fmt.Errorf("turn %s is not running", turnID)
	}
	return t.decider.answer(requestID, optionID)
}

func (a *App) closeAll() {
	a.turns.mu.Lock()
	for _, t := range a.turns.running {
		t.cancel()
	}
	eng := a.turns.engine
	a.turns.mu.Unlock()
	a.turns.wg.Wait()
	if eng != nil {
		eng.Close()
	}
	a.stopWatchers()
}

// guiDecider hands permission requests to the UI (the engine has already
// emitted the "permission" event) and waits for AnswerPermission.
type guiDecider struct {
	mu      sync.Mutex
	waiting map[string]chan string
}

func newGUIDecider() *guiDecider { return &guiDecider{waiting: map[string]chan string{}} }

func (d *guiDecider) Decide(ctx context.Context, _ string, p chat.Permission) (string, error) {
	ch := make(chan string, 1)
	d.mu.Lock()
	d.waiting[p.RequestID] = ch
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		delete(d.waiting, p.RequestID)
		d.mu.Unlock()
	}()
	select {
	case opt := <-ch:
		return opt, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (d *guiDecider) answer(requestID, optionID string) error {
	d.mu.Lock()
	ch := d.waiting[requestID]
	d.mu.Unlock()
	if ch == nil {
		return fmt.Errorf("no open permission request %s", requestID)
	}
	select {
	case ch <- optionID:
	default:
	}
	return nil
}
