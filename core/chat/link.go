package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"cdxtheme/core/acp"
	"cdxtheme/core/agent"
	"cdxtheme/core/permission"
	"cdxtheme/core/toolcall"

	"github.com/rs/zerolog"
)

// link is one running agent process and the ACP connection to it. Between
// turns it may be kept warm by the Engine; during a turn it is owned by
// that turn, which attaches its turnState so the handlers know where
// events go.
type link struct {
	proc Running
	conn *acp.Conn
	cmd  agent.Command
	cwd  string
	init acp.InitializeResponse
	log  zerolog.Logger

	// Session state, touched by the owning turn and (options) by the
	// dispatcher on config_option_update.
	mu        sync.Mutex
	sessionID string
	options   []acp.ConfigOption
	modes     *acp.SessionModeState
	models    *acp.SessionModelState // unstable models state, shown as a model option
	commands  []acp.Command          // last available_commands_update (nil: none came)
	turn      *turnState

	used  bool   // a prompt went out on it
	fresh bool   // its session came from a pre-warm's session/new and has had no turn
	mcp   string // mcpKey of the MCP servers its session was opened with

	// Ownership (under Engine.mu): see linkStatus.
	status linkStatus
	idle   *time.Timer // stops an unused pre-warmed link

	// A pre-warmed link: what it was asked to open, and its preparation.
	prewarmed  bool
	want       string        // the session it opens ("" = a new one)
	wantMCP    string        // and the mcpKey of its MCP servers
	prepared   chan struct{} // closed when the preparation ended (nil: never prepared)
	prepErr    error         // why it failed; valid once prepared is closed
	cancelPrep context.CancelFunc
}

func (l *link) agentDesc() string {
	if l.cmd.Reason == "" {
		return l.cmd.String()
	}
	return l.cmd.String() + " (" + l.cmd.Reason + ")"
}

// alive reports whether the process runs and its output is still open.
func (l *link) alive() bool {
	select {
	case <-l.proc.Done():
		return false
	case <-l.conn.Done():
		return false
	default:
		return true
	}
}

// stderrTail is the agent's last stderr lines (none before it started).
func (l *link) stderrTail() []string {
	if l.proc == nil {
		return nil
	}
	return l.proc.StderrTail()
}

// stop closes the connection and ends the process group; it returns once
// the group is gone. Safe to call again.
func (l *link) stop() {
	l.conn.Close()
	if err := l.proc.Stop(); err != nil {
		l.log.Warn().Err(err).Int("pid", l.proc.Pid()).Msg("chat: stopping the agent")
	}
}

func (l *link) attach(ts *turnState) {
	l.mu.Lock()
	l.turn = ts
	l.mu.Unlock()
}

func (l *link) current() *turnState {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.turn
}

// configOptions are the session's options as the agent reports them, with
// its models state as the model option when it reports its models only
// that way.
func (l *link) configOptions() []acp.ConfigOption {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.optionsLocked()
}

func (l *link) optionsLocked() []acp.ConfigOption {
	if l.models == nil || len(l.models.AvailableModels) == 0 {
		return l.options
	}
	if _, ok := acp.FindConfigOption(l.options, acp.CategoryModel, acp.ModelsOptionID); ok {
		return l.options
	}
	return append([]acp.ConfigOption{l.models.Option()}, l.options...)
}

// setCurrentModel records a session/set_model the agent took.
func (l *link) setCurrentModel(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.models != nil {
		m := *l.models
		m.CurrentModelID = id
		l.models = &m
	}
}

// setOptions records the options as the agent reported them (a
// set_config_option answer or config_option_update). The mode option and
// the modes list describe one thing: keep the latter in step.
func (l *link) setOptions(opts []acp.ConfigOption) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.options = opts
	if o, ok := acp.FindConfigOption(opts, acp.CategoryMode, ""); ok && o.Type == "select" && l.modes != nil && o.Value != "" {
		m := *l.modes
		m.CurrentModeID = o.Value
		l.modes = &m
	}
}

// setupNow is the session setup as the agent reports it now: the options
// and modes of the last session/new|load|resume result as replaced by what
// the agent said since (set_config_option answers, config_option_update,
// current_mode_update). A warm follow-up hands this to the UI, never the
// stale result of when the session opened.
func (l *link) setupNow() *acp.SessionSetup {
	l.mu.Lock()
	defer l.mu.Unlock()
	return &acp.SessionSetup{ConfigOptions: l.optionsLocked(), Modes: l.modes}
}

// announcedCommands are the slash commands the agent last announced.
func (l *link) announcedCommands() ([]acp.Command, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.commands, l.commands != nil
}

// agentEvent says what the agent takes in a prompt (from initialize).
func (l *link) agentEvent(sessionID string) Event {
	pc := l.init.AgentCapabilities.PromptCapabilities
	pc.Meta = nil
	return Event{SessionID: sessionID, Payload: AgentCapabilities{Capabilities: &pc}}
}

// modeState returns the session's modes (nil when the agent has none).
func (l *link) modeState() *acp.SessionModeState {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.modes
}

// setCurrentMode records a mode change (set_mode or current_mode_update),
// in the modes and in the mode config option when the agent has one.
func (l *link) setCurrentMode(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.modes != nil {
		m := *l.modes
		m.CurrentModeID = id
		l.modes = &m
	}
	for i, o := range l.options {
		if o.Category == acp.CategoryMode && o.Type == "select" && o.Value != id {
			opts := append([]acp.ConfigOption(nil), l.options...)
			opts[i] = withValue(o, id)
			l.options = opts
			break
		}
	}
}

// withValue is o with another current value, its raw form rewritten so it
// marshals as the agent would have sent it.
func withValue(o acp.ConfigOption, value string) acp.ConfigOption {
	o.Value = value
	var m map[string]json.RawMessage
	if len(o.Raw) > 0 && json.Unmarshal(o.Raw, &m) == nil {
		m["currentValue"], _ = json.Marshal(value)
		if b, err := json.Marshal(m); err == nil {
			o.Raw = b
			return o
		}
	}
	o.Raw = nil
	return o
}

func (l *link) session() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sessionID
}

// register installs the handlers for what the agent sends on its own.
// They all run on the connection's single dispatcher, in arrival order.
func (l *link) register() {
	l.conn.HandleUpdates(l.onUpdate)
	l.conn.HandleRequest(acp.MethodRequestPermission, l.onPermission)
	l.conn.OnBadLine(l.onBadLine)
}

// updateEvent is the event of a session/update, from its decoded variant
// (the connection decoded it once, as the line was read); an update it
// could not decode (err), or of a kind this client does not know, goes on
// raw.
func updateEvent(n *acp.SessionNotification, err error) Event {
	return Event{SessionID: n.SessionID, Payload: updatePayload(&n.Update, err)}
}

// updatePayload is the payload of an update (built once: boxing it in
// the interface is the one allocation a streamed chunk adds here).
func updatePayload(u *acp.SessionUpdate, err error) Payload {
	if err != nil {
		return UnknownUpdate{Update: u.Raw}
	}
	text, content := chunkOf(u.Content)
	switch u.Kind {
	case acp.UpdateAgentMessageChunk:
		return TextChunk{Text: text, Content: content}
	case acp.UpdateAgentThoughtChunk:
		return ThoughtChunk{Text: text, Content: content}
	case acp.UpdateUserMessageChunk:
		return UserText{Text: text, Content: content}
	case acp.UpdateToolCall, acp.UpdateToolCallUpdate:
		if u.ToolCall == nil {
			break // decoded without its tool call: pass it on raw
		}
		tc, term, cmd := u.ToolCall, toolcall.TerminalOf(u.ToolCall), toolcall.CommandOf(u.ToolCall.RawInput)
		if u.Kind == acp.UpdateToolCall {
			return ToolCallStarted{ToolCall: tc, Terminal: term, Command: cmd}
		}
		return ToolCallUpdated{ToolCall: tc, Terminal: term, Command: cmd}
	case acp.UpdatePlan:
		return PlanUpdate{Plan: u.Plan}
	case acp.UpdateUsage:
		return UsageUpdate{Usage: u.Usage}
	case acp.UpdateConfigOption:
		return ConfigOptionsUpdate{ConfigOptions: u.ConfigOptions}
	case acp.UpdateAvailableCommands:
		return CommandsUpdate{Commands: u.Commands}
	case acp.UpdateCurrentMode:
		return ModeChanged{Mode: u.ModeID}
	case acp.UpdateSessionInfo:
		return SessionInfo{Info: u.Info}
	}
	return UnknownUpdate{Update: u.Raw}
}

// chunkOf splits a message chunk into its text, or the block itself when
// it is no text.
func chunkOf(c *acp.ContentBlock) (string, *acp.ContentBlock) {
	if c != nil && c.Type == acp.BlockText {
		return c.Text, nil
	}
	return "", c
}

// onUpdate records what an update says about the session (options,
// commands, mode) and passes its event to the turn.
func (l *link) onUpdate(_ context.Context, n acp.SessionNotification, err error) {
	ts := l.current()
	if err == nil {
		switch n.Update.Kind {
		case acp.UpdateConfigOption:
			l.setOptions(n.Update.ConfigOptions)
		case acp.UpdateAvailableCommands:
			l.mu.Lock()
			l.commands = n.Update.Commands
			l.mu.Unlock()
		case acp.UpdateCurrentMode:
			if n.Update.ModeID != "" {
				l.setCurrentMode(n.Update.ModeID)
			}
		}
	}
	if ts == nil {
		return // between turns
	}
	ev := updateEvent(&n, err)
	if history(ev.Payload) {
		// Messages and tool calls while session/load (or resume) replays are the
		// history (settings and commands are the session's state now).
		switch replayMode(ts.replayAs.Load()) {
		case replayDropped:
			ts.replayed.Add(1)
			return
		case replayShown:
			ts.replayed.Add(1)
			ev.Replay = true
			ts.emit(ev) // history, not output of this turn
			return
		}
	}
	if c, ok := ev.Payload.(TextChunk); ok {
		if w, ok := agentWarning(&n.Update, c.Text); ok {
			// The agent's warning, worded as text (codex-acp: "Warning: …"),
			// is a notice beside the answer, not the answer.
			ev.Payload = Warning{Text: w}
			ts.emit(ev)
			return
		}
	}
	ts.output.Store(true)
	if c, ok := ev.Payload.(TextChunk); ok && ts.hold(&n.Update, ev, c.Text) {
		return
	}
	ts.emit(ev)
	switch p := ev.Payload.(type) {
	case SessionInfo:
		if st, ok := agentStatus(p.Info); ok {
			ts.setStatus(st)
			ts.emit(Event{SessionID: n.SessionID, Payload: StatusNotice{Status: st}})
		}
	case TextChunk, ThoughtChunk, ToolCallStarted, ToolCallUpdated, PlanUpdate:
		ts.setStatus(nil) // the agent got through again
	}
}

// history reports whether an event of this kind is part of a conversation
// a replay repeats (rather than the session's state).
func history(p Payload) bool {
	switch p.(type) {
	case TextChunk, ThoughtChunk, UserText, ToolCallStarted, ToolCallUpdated, PlanUpdate:
		return true
	}
	return false
}

func (l *link) onPermission(_ context.Context, id json.RawMessage, params json.RawMessage) (any, error) {
	var r acp.RequestPermissionRequest
	if err := json.Unmarshal(params, &r); err != nil {
		return nil, &acp.RPCError{Code: acp.CodeInvalidParams, Message: "unreadable permission request: " + err.Error()}
	}
	ts := l.current()
	if ts == nil {
		return acp.Cancelled(), nil // no turn is running: nobody to ask
	}
	p := permissionOf(string(id), r)
	ts.output.Store(true)
	kind := ts.toolKind(p.ToolCall)
	if opt, okind := ts.always.Remembered(r.SessionID, kind, p.Options); opt != "" {
		// Answered "always" before: the UI is told, not asked.
		ts.emit(Event{SessionID: r.SessionID, Payload: PermissionAnswered{Permission: p, Answer: &Answer{RequestID: p.RequestID, OptionID: opt, Kind: okind, Remembered: true}}})
		return acp.Selected(opt), nil
	}
	ts.emit(Event{SessionID: r.SessionID, Payload: PermissionAsked{Permission: p}})
	resp := ts.decide(r.SessionID, *p, l.conn.Done())
	ans := &Answer{RequestID: p.RequestID}
	if resp.Outcome.Outcome == "selected" {
		ans.OptionID = resp.Outcome.OptionID
		for _, o := range p.Options {
			if o.OptionID == ans.OptionID {
				ans.Kind = o.Kind
			}
		}
		ts.always.Note(r.SessionID, kind, ans.Kind)
	}
	ts.emit(Event{SessionID: r.SessionID, Payload: PermissionAnswered{Answer: ans}})
	return resp, nil
}

// permissionOf is the request as the decider and the UI get it, its tool
// call decoded.
func permissionOf(id string, r acp.RequestPermissionRequest) *permission.Permission {
	p := &permission.Permission{RequestID: id, Options: r.Options}
	if tc, err := acp.DecodeToolCall(r.ToolCall); err == nil {
		p.ToolCall, p.Command = &tc, toolcall.CommandOf(tc.RawInput)
	}
	return p
}

func (l *link) onBadLine(line []byte, err error) {
	ts := l.current()
	if ts == nil || ts.badWarned {
		return
	}
	ts.badWarned = true // dispatcher-only field
	preview := string(line)
	if len(preview) > 120 {
		preview = preview[:120] + "…"
	}
	ts.emit(Event{SessionID: ts.session(), Payload: Warning{Text: fmt.Sprintf("the agent wrote output that is not ACP (skipped, the turn goes on): %q", preview)}})
}

// replayMode is what a turn does with the history session/load (or a
// resume that replays anyway) sends:
// one value, where a turn had two flags that were never both set.
type replayMode int32

const (
	replayNone    replayMode = iota // no replay under way: updates are this turn's output
	replayDropped                   // session/load replays, and nobody asked for the history
	replayShown                     // session/load replays for Turn.History: passed on marked Replay
)

// turnState is what one Run shares with the connection handlers.
type turnState struct {
	ctx     context.Context // done when the turn is cancelled or its prompt must stop (near the deadline)
	decider permission.Decider
	always  *permission.Always
	kinds   map[string]string // tool call id → kind, from this turn's tool calls (emitMu)
	log     zerolog.Logger

	emitMu    sync.Mutex
	emitFn    func(Event)
	sessionID string

	replayAs  atomic.Int32 // what becomes of session/load's replay (a replayMode)
	replayed  atomic.Int64 // history updates session/load's replay brought so far
	output    atomic.Bool  // something of this turn's answer was emitted
	status    *Status      // the agent's last status notice, nil once output followed it (emitMu)
	retried   bool         // the agent said in this turn that it retries its model server (emitMu)
	held      *heldText    // text that may be the agent's word that the turn failed (emitMu): see hold
	badWarned bool         // dispatcher only
	openOnly  bool         // Engine.Open: no prompt, end with ready
	doneSent  bool         // the turn's goroutine only: done went out before teardown
}

// emit hands ev to the caller's emit. Calls are serialised and in order:
// they come from the Run goroutine and the connection's dispatcher.
func (ts *turnState) emit(ev Event) {
	ts.emitMu.Lock()
	defer ts.emitMu.Unlock()
	if ts.held != nil && !beside(ev.Payload) {
		// More of the answer follows: the held text was part of it.
		h := ts.held.ev
		ts.held = nil
		ts.emitFn(h)
	}
	if tc := toolCallOf(ev.Payload); tc != nil && tc.Kind != nil && *tc.Kind != "" && !ev.Replay {
		if ts.kinds == nil {
			ts.kinds = map[string]string{}
		}
		ts.kinds[tc.ToolCallID] = *tc.Kind
	}
	ts.emitFn(ev)
}

// toolCallOf is the tool call an event announces or updates, nil for
// other kinds.
func toolCallOf(p Payload) *acp.ToolCall {
	switch p := p.(type) {
	case ToolCallStarted:
		return p.ToolCall
	case ToolCallUpdated:
		return p.ToolCall
	}
	return nil
}

// toolKind is the kind of the tool call a permission request is about:
// its own, else that of the tool call announced earlier, else "other".
func (ts *turnState) toolKind(tc *acp.ToolCall) string {
	if tc == nil {
		return acp.ToolOther
	}
	if tc.Kind != nil && *tc.Kind != "" {
		return *tc.Kind
	}
	ts.emitMu.Lock()
	defer ts.emitMu.Unlock()
	if k := ts.kinds[tc.ToolCallID]; k != "" {
		return k
	}
	return acp.ToolOther
}

func (ts *turnState) warn(msg string) {
	ts.emit(Event{SessionID: ts.session(), Payload: Warning{Text: msg}})
}

func (ts *turnState) setSession(id string) {
	ts.emitMu.Lock()
	ts.sessionID = id
	ts.emitMu.Unlock()
}

func (ts *turnState) session() string {
	ts.emitMu.Lock()
	defer ts.emitMu.Unlock()
	return ts.sessionID
}

func (ts *turnState) setStatus(st *Status) {
	ts.emitMu.Lock()
	ts.status = st
	ts.retried = ts.retried || (st != nil && st.Retrying)
	ts.emitMu.Unlock()
}

// hold keeps back a text chunk that reads like the agent's word that its
// model server failed (failureNotice): codex-acp words that failure as
// plain text and ends the turn normally. Whatever of the answer follows
// releases it (emit); still held when the turn ends, it is the turn's
// error (takeHeld).
func (ts *turnState) hold(u *acp.SessionUpdate, ev Event, text string) bool {
	ts.emitMu.Lock()
	defer ts.emitMu.Unlock()
	if !failureNotice(u, text, ts.retried) {
		return false
	}
	if ts.held != nil {
		ts.emitFn(ts.held.ev)
	}
	ts.held = &heldText{ev: ev, text: text} // only a held chunk costs an allocation
	return true
}

// heldText is a text chunk hold kept back, and its text.
type heldText struct {
	ev   Event
	text string
}

// takeHeld returns the text hold kept back, if any, and forgets it.
func (ts *turnState) takeHeld() *heldText {
	ts.emitMu.Lock()
	defer ts.emitMu.Unlock()
	h := ts.held
	ts.held = nil
	return h
}

func (ts *turnState) lastStatus() *Status {
	ts.emitMu.Lock()
	defer ts.emitMu.Unlock()
	return ts.status
}

// decide asks the permission.Decider, but answers "cancelled" as soon as the turn is
// cancelled or the link dies, whatever the permission.Decider does.
func (ts *turnState) decide(sessionID string, p permission.Permission, linkDone <-chan struct{}) acp.RequestPermissionResponse {
	if ts.ctx.Err() != nil {
		return acp.Cancelled()
	}
	d := ts.decider
	if d == nil {
		d = permission.Policy("deny")
	}
	type answer struct {
		id  string
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		id, err := d.Decide(ts.ctx, sessionID, p)
		ch <- answer{id, err}
	}()
	select {
	case a := <-ch:
		if ts.ctx.Err() != nil {
			return acp.Cancelled()
		}
		if a.err != nil {
			id := permission.ChooseByKind(p.Options, acp.KindRejectOnce, acp.KindRejectAlways)
			ts.warn(fmt.Sprintf("permission request could not be answered (%v); rejected", a.err))
			if id == "" {
				return acp.Cancelled()
			}
			return acp.Selected(id)
		}
		if a.id == "" {
			return acp.Cancelled()
		}
		for _, o := range p.Options {
			if o.OptionID == a.id {
				return acp.Selected(a.id)
			}
		}
		ts.warn(fmt.Sprintf("permission answer %q is not one of the offered options; answered cancelled", a.id))
		return acp.Cancelled()
	case <-ts.ctx.Done():
		return acp.Cancelled()
	case <-linkDone:
		return acp.Cancelled()
	}
}
