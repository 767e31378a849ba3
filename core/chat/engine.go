package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"cdxtheme/core/acp"
	"cdxtheme/core/agent"
	"cdxtheme/core/permission"
	"cdxtheme/core/prompt"

	"github.com/rs/zerolog"
)

// DefaultTimeout bounds a whole turn when Options.Timeout is 0. A model
// server that is down makes the adapter retry for minutes; this ends it.
const DefaultTimeout = 3 * time.Minute

// cancelGrace is how long a cancelled prompt may take to return after
// session/cancel before the agent's process group is killed.
const cancelGrace = 5 * time.Second

// timeoutGrace is the cancel grace of a prompt that runs out of time: it
// lies inside the turn's budget (session/cancel goes out that long before
// the end), so a turn ends when its timeout says, not seconds later. Only a
// running prompt has something to cancel: starting the agent and opening
// the session get the whole budget.
func timeoutGrace(budget time.Duration) time.Duration { return min(cancelGrace, budget/4) }

// errTimeLimit is what prompt returns when the agent ended its prompt after
// the session/cancel a near deadline sent, before the deadline itself: a
// timeout all the same (callers test for context.DeadlineExceeded).
var errTimeLimit = fmt.Errorf("stopped at the turn's time limit: %w", context.DeadlineExceeded)

// flushWait bounds waiting for the dispatcher to emit what arrived before
// a prompt's response.
const flushWait = 30 * time.Second

// Options configure an Engine.
type Options struct {
	Resolve agent.ResolveOptions
	Version string        // clientInfo.version
	Warm    bool          // keep the open chat's connection between turns
	Timeout time.Duration // whole turn; 0 = DefaultTimeout
	Env     []string      // extra env for the agent, e.g. OPENAI_API_KEY / CODEX_API_KEY
	Log     zerolog.Logger
	// PrewarmIdle is how long a pre-warmed agent nobody used is kept; 0 =
	// PrewarmIdle.
	PrewarmIdle time.Duration
	// Dial, when set, connects to an agent already running instead of
	// resolving, installing and starting one (Resolve is not used): the
	// engine's logic tests hand it an in-process ACP peer that speaks
	// JSON-RPC over a pipe (internal/testrig/acpstub), so each test shows what the
	// agent does. nil in the product.
	Dial func(cwd string) (Running, error)
}

// Turn is one user message to send.
type Turn struct {
	SessionID string             // "" = session/new
	Cwd       string             // absolute; the agent's cwd and the session cwd
	Model     string             // "" = leave as is
	Effort    string             // reasoning effort, "" = leave
	Prompt    []acp.ContentBlock // built with prompt.Text etc.
	Decider   permission.Decider // nil = deny every permission request
	// Always answers what the user already answered "always" for, in
	// this session and for this kind of tool, without asking (nil: ask
	// every time).
	Always *permission.Always

	// Attachments follow the prompt blocks, shaped after initialize by
	// what the agent takes (see attachmentBlocks).
	Attachments []prompt.Attachment

	// Mode is the session mode ("" = leave): set through the config option
	// of category "mode" when the agent has one, else session/set_mode.
	Mode string
	// Options are further config option values by option id (or category):
	// a string for a select, a bool for a boolean. Like Model and Effort
	// they are re-applied after every new/load/resume, since agents forget
	// them with the process.
	Options map[string]any
	// Defaults are remembered values (e.g. the agent's defaults): applied
	// like Options where the agent offers the setting, silently skipped
	// where it does not. Options win over Defaults.
	Defaults map[string]any
	// MCPServers are passed to session/new|load|resume as the ACP McpServer
	// objects; http and sse ones only when the agent advertises them.
	MCPServers []json.RawMessage
	// OnOpen, for Prewarm only, is told the session's setup once the
	// pre-warmed session has opened: the agent's options can show before
	// the first message.
	OnOpen func(*acp.SessionSetup)
	// History asks for the conversation so far when an existing session is
	// opened on a new connection: session/load (preferred over resume) and
	// its replay passed on as Event.Replay. Without it the replay is dropped
	// (the caller has the history elsewhere, e.g. Codex's rollout).
	History bool
}

// Result is how a turn ended. The turn's text went out in its events
// only: whoever shows or prints it keeps it (once), so a flooding agent
// costs the engine no memory.
type Result struct {
	SessionID  string
	StopReason string
}

// Engine runs turns. It keeps at most one warm connection (the open
// chat's, or one pre-warmed for a chat about to be used); Close tears it
// down. Who holds a link is its status (see linkStatus).
type Engine struct {
	opts Options

	mu   sync.Mutex
	warm *link              // the warm slot: linkPreparing or linkReady
	busy map[*link]struct{} // links owned by a turn or request (linkBusy)
	wg   sync.WaitGroup     // pre-warms and background teardowns
	// winding are agents let go after a completed turn, finishing on their
	// own (windDown): Close waits for them, Leave leaves them to their shim.
	winding sync.WaitGroup

	spawned      func(pid int)             // tests: every agent process started
	initializing func(ctx context.Context) // tests: the context initialize is called with
}

// NewEngine returns an Engine.
func NewEngine(opts Options) *Engine {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.PrewarmIdle <= 0 {
		opts.PrewarmIdle = PrewarmIdle
	}
	return &Engine{opts: opts}
}

// Close stops the warm connection (or a pre-warm under way), if any, and
// waits for every process group it stopped to be gone. The engine stays
// usable: a later turn starts a new agent.
func (e *Engine) Close() error {
	e.Leave()
	e.winding.Wait()
	return nil
}

// Leave is Close for a program about to exit: it does not wait for agents
// let go after a completed turn, whose shims end them within a bound
// (agent.Process.Release).
func (e *Engine) Leave() {
	e.mu.Lock()
	l := e.warm
	e.warm = nil
	if l != nil {
		l.status = linkClosing
	}
	e.mu.Unlock()
	if l != nil {
		e.discard(l)
	}
	e.wg.Wait()
}

// Run sends one prompt and streams what happens to emit, ending with a
// `done` event (stopReason "cancelled" when ctx was cancelled) or an
// `error` event. ctx cancellation is the user's cancel: open permission
// requests are answered cancelled, session/cancel is sent, and the agent is
// killed if the prompt has not returned 5 s later. A timeout sends
// session/cancel early enough that the kill falls on the deadline. Errors
// are *Error.
func (e *Engine) Run(ctx context.Context, t Turn, emit func(Event)) (Result, error) {
	return e.begin(ctx, t, emit, false)
}

// Open makes an existing session (t.SessionID) or, without one, nothing
// but a connection ready for the next turn: it connects, opens the session,
// applies t's settings and ends with an `ready` event instead of prompting.
// The chat shows the agent's live settings (and, with t.History, the
// replayed history) before the user's first message. Errors are as Run's.
func (e *Engine) Open(ctx context.Context, t Turn, emit func(Event)) (Result, error) {
	return e.begin(ctx, t, emit, true)
}

// begin runs a turn (openOnly: only opens its session), from the first-run
// install to the last event.
func (e *Engine) begin(ctx context.Context, t Turn, emit func(Event), openOnly bool) (Result, error) {
	if emit == nil {
		emit = func(Event) {}
	}
	// A first-run install is its own step: the turn's clock starts after it.
	// Opening a chat to look at it installs nothing: the first message does.
	var ierr error
	switch {
	case e.opts.Dial != nil: // nothing to install or resolve
	case openOnly:
		if _, err := agent.Resolve(e.opts.Resolve); errors.Is(err, agent.ErrNotInstalled) {
			e.opts.Log.Info().Msg("chat: the agent is not installed yet; the chat opens without it")
			emit(Event{SessionID: t.SessionID, Payload: Done{StopReason: acp.StopEndTurn}})
			return Result{SessionID: t.SessionID, StopReason: acp.StopEndTurn}, nil
		}
	default:
		ierr = e.ensureInstalled(ctx, emit)
	}
	tctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	// The prompt is asked to stop (and its permission requests answered
	// cancelled) timeoutGrace before the end, so it is gone by then.
	deadline, _ := tctx.Deadline()
	sctx, scancel := context.WithDeadline(tctx, deadline.Add(-timeoutGrace(e.opts.Timeout)))
	defer scancel()
	ts := &turnState{ctx: sctx, decider: t.Decider, always: t.Always, emitFn: emit, sessionID: t.SessionID, log: e.opts.Log, openOnly: openOnly}

	var res Result
	err := ierr
	if err == nil {
		res, err = e.run(ctx, tctx, t, ts)
	}
	if res.SessionID == "" {
		res.SessionID = ts.session()
	}
	if err != nil {
		var ce *Error
		if !errors.As(err, &ce) {
			ce = &Error{Code: CodeProtocol, Message: err.Error(), Err: err}
		}
		ce = modelServerError(ce, ts.lastStatus())
		switch ce.Code {
		case CodeCancelled:
			res.StopReason = acp.StopCancelled
			ts.emit(Event{SessionID: res.SessionID, Payload: Done{StopReason: acp.StopCancelled}})
		case CodeTimeout:
			res.StopReason = acp.StopCancelled // the prompt was cancelled like a user cancel
			ts.emit(ce.event(res.SessionID))
		default:
			ts.emit(ce.event(res.SessionID))
		}
		return res, ce
	}
	switch {
	case openOnly:
		ts.emit(Event{SessionID: res.SessionID, Payload: Ready{}})
	case !ts.doneSent:
		ts.emit(Event{SessionID: res.SessionID, Payload: Done{StopReason: res.StopReason}})
	}
	return res, nil
}

func (e *Engine) run(ctx, tctx context.Context, t Turn, ts *turnState) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, &Error{Code: CodeCancelled, Message: "cancelled before the turn started", Err: err}
	}
	if ts.openOnly && t.SessionID == "" {
		return Result{}, &Error{Code: CodeInput, Message: "there is no session to open yet"}
	}
	if !filepath.IsAbs(t.Cwd) {
		return Result{}, &Error{Code: CodeInput, Message: fmt.Sprintf("the working directory %q is not an absolute path", t.Cwd)}
	}
	if fi, err := os.Stat(t.Cwd); err != nil || !fi.IsDir() {
		return Result{}, &Error{Code: CodeInput, Message: fmt.Sprintf("the working directory %s is not a directory", t.Cwd), Err: err}
	}
	if l := e.takeWarm(t); l != nil {
		ready, err := e.await(ctx, tctx, l)
		if err != nil {
			return Result{}, err
		}
		if ready { // else the pre-warm failed: the normal path runs and reports
			res, err := e.turnOn(ctx, tctx, l, t, ts, true)
			var ce *Error
			if err == nil || !errors.As(err, &ce) || ce.Code != CodeAgentExit || ts.output.Load() {
				return res, err
			}
			// The warm agent died before answering anything: start over on a
			// fresh connection (resume/load), as if it had never been warm.
			e.opts.Log.Info().Err(err).Msg("chat: warm connection lost; reconnecting")
		}
	}
	l, err := e.connect(ctx, tctx, t.Cwd)
	if err != nil {
		return Result{}, err
	}
	return e.turnOn(ctx, tctx, l, t, ts, false)
}

// connect resolves, starts and initializes an agent in cwd; the caller
// owns the link (linkBusy).
func (e *Engine) connect(ctx, tctx context.Context, cwd string) (*link, error) {
	l := &link{cwd: cwd, log: e.opts.Log}
	if err := e.start(ctx, tctx, l); err != nil {
		return nil, err
	}
	e.mu.Lock()
	e.ownLocked(l)
	e.mu.Unlock()
	return l, nil
}

// start resolves, starts and initializes an agent for l. On failure the
// agent is stopped.
func (e *Engine) start(ctx, tctx context.Context, l *link) error {
	proc, cmd, err := e.spawn(l.cwd)
	if err != nil {
		return err
	}
	l.proc, l.cmd = proc, cmd
	desc := l.agentDesc()
	if e.spawned != nil {
		e.spawned(proc.Pid())
	}
	l.conn = acp.NewConn(proc.Stdout(), proc.Stdin(), acp.Options{Log: e.opts.Log})
	l.register()
	l.conn.Start()

	req := acp.InitializeRequest{
		ProtocolVersion: acp.ProtocolVersion,
		// We implement neither fs/* nor terminal/*: say so, or the agent
		// would route file access and commands through us.
		ClientCapabilities: acp.ClientCapabilities{},
		ClientInfo:         &acp.Implementation{Name: "cdxtheme", Version: e.opts.Version},
	}
	var raw json.RawMessage
	if e.initializing != nil {
		e.initializing(tctx)
	}
	if err := l.conn.Call(tctx, acp.MethodInitialize, req, &raw); err != nil {
		l.stop()
		return e.describe(ctx, tctx, l, "before answering initialize", err)
	}
	if err := json.Unmarshal(raw, &l.init); err != nil {
		l.stop()
		return &Error{Code: CodeProtocol, Agent: desc, Message: fmt.Sprintf("unreadable initialize result: %v", err), Err: err}
	}
	if l.init.ProtocolVersion != acp.ProtocolVersion {
		l.stop()
		return &Error{Code: CodeProtocol, Agent: desc,
			Message: fmt.Sprintf("the agent speaks ACP version %d; this app speaks version %d", l.init.ProtocolVersion, acp.ProtocolVersion)}
	}
	return nil
}

// spawn resolves and starts the agent in cwd, or dials it (Options.Dial).
func (e *Engine) spawn(cwd string) (Running, agent.Command, error) {
	if e.opts.Dial != nil {
		cmd := agent.Command{Path: "in-process peer", Reason: "Options.Dial"}
		proc, err := e.opts.Dial(cwd)
		if err != nil {
			return nil, cmd, &Error{Code: CodeAgentMissing, Message: err.Error(), Err: err}
		}
		return proc, cmd, nil
	}
	cmd, err := agent.Resolve(e.opts.Resolve)
	if err != nil {
		return nil, cmd, &Error{Code: CodeAgentMissing, Message: err.Error(), Err: err}
	}
	cmd.Env = append(append([]string(nil), cmd.Env...), e.opts.Env...)
	// The process outlives this turn when kept warm: not tied to ctx.
	proc, err := agent.Start(context.Background(), cmd, cwd, e.opts.Log)
	if err != nil {
		code := CodeAgentExit
		if errors.Is(err, agent.ErrNotFound) {
			code = CodeAgentMissing
		}
		desc := cmd.String()
		if cmd.Reason != "" {
			desc += " (" + cmd.Reason + ")"
		}
		return nil, cmd, &Error{Code: code, Message: err.Error(), Agent: desc, Err: err}
	}
	return proc, cmd, nil
}

// describe turns err, from a link already stopped, into an *Error:
// cancellation and timeout first (they cause the other errors), then a
// dead agent (with its stderr, complete once stopped), then what the agent
// answered.
func (e *Engine) describe(ctx, tctx context.Context, l *link, when string, err error) *Error {
	desc := l.agentDesc()
	switch {
	case ctx.Err() != nil:
		return &Error{Code: CodeCancelled, Message: "cancelled", Agent: desc, Err: ctx.Err()}
	case tctx.Err() != nil:
		// A hung agent often said why on stderr (e.g. "Reconnecting…").
		return &Error{Code: CodeTimeout, Message: fmt.Sprintf("the turn took longer than %s and was stopped", e.opts.Timeout), Stderr: l.stderrTail(), Agent: desc, Err: tctx.Err()}
	case errors.Is(err, errTimeLimit):
		return &Error{Code: CodeTimeout, Stderr: l.stderrTail(), Agent: desc, Err: err,
			Message: fmt.Sprintf("the turn was stopped at its time limit of %s (the agent is asked to stop %s before it, and did)", e.opts.Timeout, timeoutGrace(e.opts.Timeout))}
	case errors.Is(err, acp.ErrClosed):
		status := "closed its output"
		if xe := l.proc.ExitErr(); xe != nil {
			status = "exited (" + xe.Error() + ")"
		} else {
			select {
			case <-l.proc.Done():
				status = "exited"
			default:
			}
		}
		return &Error{Code: CodeAgentExit, Message: fmt.Sprintf("the agent %s %s", status, when), Stderr: l.proc.StderrTail(), Agent: desc, Err: err}
	}
	if ce, ok := errors.AsType[*Error](err); ok {
		return ce
	}
	if acp.ErrorCode(err) != 0 {
		return &Error{Code: CodeRPC, Message: err.Error(), Agent: desc, Stderr: l.proc.StderrTail(), Err: err}
	}
	return &Error{Code: CodeProtocol, Message: err.Error(), Agent: desc, Err: err}
}

// turnOn runs the turn on l, which the caller owns: open the session
// unless l already has it, apply the settings, prompt; then settle decides
// once whether l stays warm or is stopped.
func (e *Engine) turnOn(ctx, tctx context.Context, l *link, t Turn, ts *turnState, reused bool) (Result, error) {
	l.attach(ts)
	res, v := e.drive(tctx, l, t, ts, reused)
	return res, e.settle(ctx, tctx, l, ts, res.SessionID, res.StopReason, v)
}

// drive is the turn itself; it never stops or gives back l.
func (e *Engine) drive(tctx context.Context, l *link, t Turn, ts *turnState, reused bool) (Result, verdict) {
	caps := l.init.AgentCapabilities
	blocks := t.Prompt
	var err error
	if !ts.openOnly {
		var extra []acp.ContentBlock
		extra, err = prompt.AttachmentBlocks(t.Attachments, caps.PromptCapabilities, t.Cwd)
		if err == nil {
			blocks = append(append([]acp.ContentBlock(nil), t.Prompt...), extra...)
			err = prompt.Check(blocks, caps.PromptCapabilities, t.Cwd)
		}
	}
	if err != nil {
		ts.emit(l.agentEvent(t.SessionID))
		// Nothing was sent: the link did no harm.
		return Result{}, verdict{err: &Error{Code: CodeInput, Message: err.Error(), Err: err}, keep: reused || e.opts.Warm}
	}
	l.mu.Lock()
	have, fresh := l.sessionID, l.fresh
	l.mu.Unlock()
	if have == "" || (have != t.SessionID && !(t.SessionID == "" && fresh)) {
		if err := e.openSession(tctx, l, t, ts); err != nil {
			return Result{}, verdict{err: err, when: "while opening the session"}
		}
	} else {
		// The session is open on l: a warm follow-up, or the first turn on
		// a pre-warmed session (then as if it had just been opened). The
		// settings as the agent reports them now: the session's opening
		// values are stale once anything was set.
		ts.setSession(have)
		ts.emit(Event{SessionID: have, Payload: SessionSetup{Setup: l.setupNow()}})
		// The agent announced its commands when the session opened, between
		// turns nobody listened: hand them to this turn again.
		if c, ok := l.announcedCommands(); ok {
			ts.emit(Event{SessionID: have, Payload: CommandsUpdate{Commands: c}})
		}
	}
	l.mu.Lock()
	l.fresh = false
	sid := l.sessionID
	l.mu.Unlock()
	// What the agent can take (prompt capabilities, auth methods): the UI
	// checks attachments against it before the next send.
	ts.emit(l.agentEvent(sid))
	changed, err := e.configure(tctx, l, ts, t)
	if err != nil {
		return Result{SessionID: sid}, verdict{err: err, when: "while applying the session settings"}
	}
	if changed {
		// After the agent's own config_option_update events, so the last
		// word the UI gets is the whole state.
		e.flush(l)
		ts.emit(Event{SessionID: sid, Payload: SessionSetup{Setup: l.setupNow()}})
	}
	if ts.openOnly {
		// Opened to be looked at, this is a pre-warm of the chat: unused
		// until a prompt goes out, it stops after the idle time or when the
		// view closes (Release), like one Prewarm started.
		e.flush(l)
		if !l.wasUsed() {
			e.mu.Lock()
			l.prewarmed, l.want, l.wantMCP = true, sid, mcpKey(t.MCPServers)
			e.mu.Unlock()
		}
		return Result{SessionID: sid}, verdict{keep: e.opts.Warm}
	}
	l.mu.Lock()
	l.used = true
	l.mu.Unlock()
	// Whatever the agent sent since session/load, even after answering it,
	// is the history it replays: the turn's output starts with its prompt.
	e.flush(l)
	ts.replayAs.Store(int32(replayNone))
	resp, err := e.prompt(tctx, ts.ctx, l, sid, blocks)
	if err != nil {
		return Result{SessionID: sid}, verdict{err: err, when: "during the turn"}
	}
	if resp.StopReason == acp.StopEndTurn {
		// What the agent said last may be that its model server failed.
		e.flush(l)
		if h := ts.takeHeld(); h != nil {
			return Result{SessionID: sid, StopReason: resp.StopReason}, verdict{err: modelFailure(h.text, ts.lastStatus(), l.agentDesc()), keep: e.opts.Warm}
		}
		// Or its last word was a notice of trouble with the model server,
		// and no answer followed it.
		if st := ts.lastStatus(); st != nil {
			return Result{SessionID: sid, StopReason: resp.StopReason}, verdict{err: modelFailure(st.String(), st, l.agentDesc()), keep: e.opts.Warm}
		}
	}
	return Result{SessionID: sid, StopReason: resp.StopReason}, verdict{keep: e.opts.Warm}
}

// flush waits until every update that arrived so far has been emitted.
func (e *Engine) flush(l *link) {
	fctx, cancel := context.WithTimeout(context.Background(), flushWait)
	defer cancel()
	if err := l.conn.Flush(fctx); err != nil {
		e.opts.Log.Warn().Err(err).Msg("chat: updates still queued after the turn")
	}
}

// openSession makes the session current on l: new, or resume (no history
// replay) when the agent can, else load with its replay suppressed.
func (e *Engine) openSession(tctx context.Context, l *link, t Turn, ts *turnState) error {
	caps := l.init.AgentCapabilities
	var (
		raw json.RawMessage
		id  = t.SessionID
		err error
		mcp = mcpServers(caps.MCPCapabilities, t.MCPServers, ts)
	)
	switch {
	case t.SessionID == "":
		err = l.conn.Call(tctx, acp.MethodSessionNew, acp.NewSessionRequest{Cwd: t.Cwd, MCPServers: mcp}, &raw)
		if err == nil {
			var r acp.NewSessionResponse
			if derr := json.Unmarshal(raw, &r); derr != nil || r.SessionID == "" {
				return fmt.Errorf("session/new: no session id in %s", truncate(raw, 200))
			}
			id = r.SessionID
		}
	case t.History && caps.LoadSession:
		err = e.load(tctx, l, t, ts, mcp, &raw)
	case caps.SessionCapabilities.Resume != nil:
		err = e.replaying(tctx, l, t, ts, acp.MethodSessionResume, acp.ResumeSessionRequest{SessionID: id, Cwd: t.Cwd, MCPServers: mcp}, &raw)
		if err != nil && acp.ErrorCode(err) != 0 && acp.ErrorCode(err) != acp.CodeAuthRequired && caps.LoadSession {
			ts.log.Info().Err(err).Msg("chat: session/resume refused; trying session/load")
			err = e.load(tctx, l, t, ts, mcp, &raw)
		}
	case caps.LoadSession:
		err = e.load(tctx, l, t, ts, mcp, &raw)
	default:
		return &Error{Code: CodeProtocol, Agent: l.agentDesc(),
			Message: fmt.Sprintf("the agent can neither resume nor load sessions, so session %s cannot be continued", id)}
	}
	if err != nil {
		return err
	}
	var setup acp.SessionSetup
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &setup); err != nil {
			return fmt.Errorf("session setup: %w", err)
		}
	}
	l.mu.Lock()
	l.sessionID, l.options, l.modes, l.models = id, setup.ConfigOptions, setup.Modes, setup.Models
	l.mcp, l.fresh = mcpKey(t.MCPServers), false
	l.mu.Unlock()
	ts.setSession(id)
	ts.emit(Event{SessionID: id, Payload: SessionSetup{Setup: l.setupNow()}})
	return nil
}

// load runs session/load. The agent replays the history as updates, most
// before answering, some agents (gemini-cli) partly after: none of it is
// new output. With t.History it is emitted marked Replay, else dropped,
// until the turn's own prompt goes out (drive). The prompt waits for a
// replay that began to pause (settleReplay): gemini-cli 0.61.0 streams it
// from a task it does not await, so its tail reaches us after the response.
func (e *Engine) load(tctx context.Context, l *link, t Turn, ts *turnState, mcp []json.RawMessage, raw *json.RawMessage) error {
	return e.replaying(tctx, l, t, ts, acp.MethodSessionLoad, acp.LoadSessionRequest{SessionID: t.SessionID, Cwd: t.Cwd, MCPServers: mcp}, raw)
}

// replaying calls the method that opens a saved session with whatever the
// agent sends meanwhile taken as history, as load's replay is. Resume is
// not meant to replay, yet agents do (ACP's draft replayFrom, proxies that
// build load on resume): their user_message_chunk is a saved message,
// never one the user just typed, and their text no answer to this turn.
func (e *Engine) replaying(tctx context.Context, l *link, t Turn, ts *turnState, method string, params any, raw *json.RawMessage) error {
	mode := replayDropped
	if t.History {
		mode = replayShown
	}
	ts.replayAs.Store(int32(mode))
	if err := l.conn.Call(tctx, method, params, raw); err != nil {
		return err
	}
	if err := l.conn.Flush(tctx); err != nil {
		return err
	}
	return settleReplay(tctx, l, ts)
}

// replayPause is how long a replay that began must bring nothing more
// before the prompt goes out, and replaySettleMax bounds the whole wait.
// An agent that replays before answering (the protocol's way) pays one
// pause per follow-up that loads; one that replays nothing pays none.
const (
	replayPause     = 150 * time.Millisecond
	replaySettleMax = 3 * time.Second
)

// settleReplay waits until the history replay session/load started has
// paused: what the agent sends for the new prompt comes only after the
// prompt went out, so everything before it is history.
func settleReplay(ctx context.Context, l *link, ts *turnState) error {
	n := ts.replayed.Load()
	if n == 0 {
		return nil
	}
	deadline := time.Now().Add(replaySettleMax)
	t := time.NewTimer(replayPause)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		if err := l.conn.Flush(ctx); err != nil {
			return err
		}
		m := ts.replayed.Load()
		if m == n || time.Now().After(deadline) {
			return nil
		}
		n = m
		t.Reset(replayPause)
	}
}

// prompt sends session/prompt. When sctx ends first (the turn is
// cancelled, or comes within timeoutGrace of its deadline) it sends
// session/cancel (open permission requests are answered cancelled by their
// handler, which watches sctx), waits cancelGrace (the rest of the budget
// when time runs out) for the prompt to return, then kills the agent's
// process group.
func (e *Engine) prompt(tctx, sctx context.Context, l *link, sid string, blocks []acp.ContentBlock) (acp.PromptResponse, error) {
	pctx, pcancel := context.WithCancel(context.Background())
	defer pcancel()
	type outcome struct {
		resp acp.PromptResponse
		err  error
	}
	ch := make(chan outcome, 1)
	go func() {
		var r acp.PromptResponse
		err := l.conn.Call(pctx, acp.MethodSessionPrompt, acp.PromptRequest{SessionID: sid, Prompt: blocks}, &r)
		ch <- outcome{r, err}
	}()
	select {
	case o := <-ch:
		return o.resp, o.err
	case <-sctx.Done():
	}
	if err := l.conn.Notify(acp.MethodSessionCancel, acp.CancelNotification{SessionID: sid}); err != nil {
		e.opts.Log.Debug().Err(err).Msg("chat: session/cancel not sent")
	}
	// Out of time: the agent has until the deadline. Cancelled by the
	// user: cancelGrace.
	graceC := tctx.Done()
	if err := tctx.Err(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		gctx, gcancel := context.WithTimeout(context.Background(), cancelGrace)
		defer gcancel()
		graceC = gctx.Done()
	}
	select {
	case o := <-ch:
		if o.err == nil {
			// Answered (normally "cancelled"): still a cancelled turn.
			if err := tctx.Err(); err != nil {
				return o.resp, err
			}
			return o.resp, errTimeLimit
		}
	case <-graceC:
		e.opts.Log.Info().Int("pid", l.proc.Pid()).Msg("chat: agent did not stop after session/cancel; killing it")
		l.proc.Kill()
		pcancel()
		<-ch
	}
	return acp.PromptResponse{StopReason: acp.StopCancelled}, tctx.Err()
}

// Authenticate runs the agent's auth method methodID in cwd. The
// connection stays warm afterwards so the retried turn uses the
// authenticated agent.
func (e *Engine) Authenticate(ctx context.Context, cwd, methodID string) error {
	tctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	l, _, err := e.borrow(ctx, tctx, cwd, true)
	if err != nil {
		return err
	}
	if err := l.conn.Call(tctx, acp.MethodAuthenticate, acp.AuthenticateRequest{MethodID: methodID}, nil); err != nil {
		e.stopOwned(l)
		ce := e.describe(ctx, tctx, l, "during authenticate", err)
		if ce.Code == CodeRPC {
			ce.Code = CodeAuth
		}
		return ce
	}
	e.putWarm(l)
	return nil
}

// borrow hands over the warm link for a request outside a turn
// (authenticate, logout, session/list) when it is alive and, with sameCwd,
// runs in cwd; otherwise it starts an agent in cwd. fresh says which; the
// caller owns the link and gives it back (putWarm) or stops it (stopOwned).
func (e *Engine) borrow(ctx, tctx context.Context, cwd string, sameCwd bool) (l *link, fresh bool, err error) {
	l, err = e.claim(ctx, tctx, cwd, sameCwd)
	if err != nil || l != nil {
		return l, false, err
	}
	l, err = e.connect(ctx, tctx, cwd)
	return l, true, err
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}
