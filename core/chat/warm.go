package chat

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"cdxtheme/core/acp"
)

// PrewarmIdle is how long a pre-warmed agent nobody used is kept. A user
// who opened New build or a chat usually types within a minute; one who
// walked away should not keep a Codex process (~150 MB) running for the
// rest of the day. A turn after this pays the cold start, nothing else.
const PrewarmIdle = 3 * time.Minute

// linkStatus says who holds a link and what it may be used for. Every
// change happens under Engine.mu.
type linkStatus int

const (
	// linkPreparing: Prewarm is starting it (spawn, initialize, open the
	// session). A turn for the same chat may claim it and wait.
	linkPreparing linkStatus = iota
	// linkReady: idle in the warm slot; the next turn (or request) for its
	// folder and session takes it.
	linkReady
	// linkBusy: owned by one turn or request; nobody else touches it.
	linkBusy
	// linkClosing: being stopped; never handed out again.
	linkClosing
)

func (s linkStatus) String() string {
	return [...]string{"preparing", "ready", "busy", "closing"}[s]
}

// Prewarm starts an agent for the chat t describes in the background:
// spawn, initialize and session/new in t.Cwd (t.SessionID empty) or
// session/resume|load of t.SessionID, with t.MCPServers; t.OnOpen hears of
// the opened session. Nothing else of t is used: settings are applied by the turn, so its events are those of a
// cold turn. The next Run for that folder and session takes the agent
// (waiting for it if it is still starting); a pre-warm that fails is only
// logged, and that turn starts its own agent and reports what goes wrong.
// Unused, the agent is stopped after Options.PrewarmIdle, by Release, or
// when another chat's turn needs the warm slot. It returns false when
// nothing was started: the engine keeps no warm links, or the chat is
// already warm (or warming, or in a turn).
func (e *Engine) Prewarm(t Turn) bool {
	if !e.opts.Warm || !filepath.IsAbs(t.Cwd) {
		return false
	}
	mcp := mcpKey(t.MCPServers)
	e.mu.Lock()
	for b := range e.busy {
		if b.serves(t.Cwd, t.SessionID, mcp) {
			e.mu.Unlock()
			return false // a turn runs on it; it stays warm afterwards
		}
	}
	old := e.warm
	if old != nil && old.serves(t.Cwd, t.SessionID, mcp) && (old.status == linkPreparing || old.alive()) {
		e.mu.Unlock()
		return false
	}
	pctx, cancel := context.WithTimeout(context.Background(), e.opts.Timeout)
	l := &link{cwd: t.Cwd, log: e.opts.Log, status: linkPreparing, prewarmed: true,
		want: t.SessionID, wantMCP: mcp, prepared: make(chan struct{}), cancelPrep: cancel}
	e.warm = l
	if old != nil {
		e.dropLocked(old)
	}
	e.wg.Add(1)
	e.mu.Unlock()
	go e.prepare(pctx, l, t)
	return true
}

// prepare is Prewarm's background half.
func (e *Engine) prepare(pctx context.Context, l *link, t Turn) {
	defer e.wg.Done()
	defer l.cancelPrep()
	err := e.start(pctx, pctx, l)
	if err == nil {
		// A turnState nobody listens to: what the agent says while the
		// session opens (commands, options) is recorded by the link; the
		// turn hands it on.
		ts := &turnState{ctx: pctx, emitFn: func(Event) {}, log: e.opts.Log}
		l.attach(ts)
		err = e.openSession(pctx, l, t, ts)
		e.flush(l)
		l.attach(nil)
		switch {
		case err == nil:
			l.mu.Lock()
			l.fresh = t.SessionID == ""
			l.mu.Unlock()
			if t.OnOpen != nil {
				t.OnOpen(l.setupNow())
			}
		case acp.ErrorCode(err) == acp.CodeAuthRequired && l.alive():
			// Initialized but signed out: the turn asks again, reports
			// "authentication required", and Authenticate reuses it.
			err = nil
		default:
			l.stop()
		}
	}
	e.mu.Lock()
	l.prepErr = err
	if err != nil {
		l.status = linkClosing
		if e.warm == l {
			e.warm = nil
		}
	} else if l.status == linkPreparing {
		l.status = linkReady
		if e.warm == l {
			l.idle = time.AfterFunc(e.opts.PrewarmIdle, func() { e.expire(l) })
		}
	}
	close(l.prepared)
	e.mu.Unlock()
	if err != nil {
		e.opts.Log.Info().Err(err).Str("cwd", l.cwd).Msg("chat: pre-warm failed; the next turn starts its own agent")
	}
}

// expire stops a pre-warmed link that is still unused after its idle time.
func (e *Engine) expire(l *link) {
	e.mu.Lock()
	if e.warm != l || l.status != linkReady || l.wasUsed() {
		e.mu.Unlock()
		return
	}
	e.warm = nil
	l.status = linkClosing
	e.mu.Unlock()
	e.opts.Log.Debug().Str("cwd", l.cwd).Msg("chat: pre-warmed agent unused; stopped")
	l.stop()
}

// Release stops the agent pre-warmed for the chat in cwd on sessionID (""
// = a new build) when no turn has used it: the view that asked for it
// closed. It returns once its process group is gone. An agent a turn ran
// on stays: that is the open chat's warm link.
func (e *Engine) Release(cwd, sessionID string) {
	e.mu.Lock()
	l := e.warm
	if l == nil || !l.prewarmed || l.wasUsed() || l.cwd != cwd || l.want != sessionID || l.status == linkBusy {
		e.mu.Unlock()
		return
	}
	e.warm = nil
	l.status = linkClosing
	e.mu.Unlock()
	e.discard(l)
}

// Warm reports whether an idle agent is ready to carry t at once (its
// folder, session, or a pre-warmed new one, and MCP servers), not one still
// starting. Servers that lend warm agents to the CLI ask this first.
func (e *Engine) Warm(t Turn) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	l := e.warm
	return l != nil && l.status == linkReady && l.serves(t.Cwd, t.SessionID, mcpKey(t.MCPServers)) && l.alive()
}

// Holding reports whether the engine keeps a live agent (idle, starting or
// in a turn).
func (e *Engine) Holding() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.busy) > 0 {
		return true
	}
	l := e.warm
	return l != nil && (l.status == linkPreparing || l.alive())
}

// takeWarm hands over the warm link if it can carry t (see serves) and is
// alive or still starting; the caller then owns it (linkBusy) and must
// await it. Any other warm link is stopped: only the open chat stays warm.
func (e *Engine) takeWarm(t Turn) *link {
	e.mu.Lock()
	defer e.mu.Unlock()
	l := e.warm
	if l == nil {
		return nil
	}
	e.warm = nil
	if l.serves(t.Cwd, t.SessionID, mcpKey(t.MCPServers)) && (l.status == linkPreparing || l.alive()) {
		e.ownLocked(l)
		return l
	}
	e.dropLocked(l)
	return nil
}

// ownLocked makes l the caller's (linkBusy). e.mu is held.
func (e *Engine) ownLocked(l *link) {
	if l.idle != nil {
		l.idle.Stop()
	}
	l.status = linkBusy
	if e.busy == nil {
		e.busy = map[*link]struct{}{}
	}
	e.busy[l] = struct{}{}
}

// dropLocked stops l in the background (Close waits for it). e.mu is held.
func (e *Engine) dropLocked(l *link) {
	l.status = linkClosing
	delete(e.busy, l)
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		e.discard(l)
	}()
}

// discard stops l whatever its state: a preparation is cancelled and
// waited for first. It returns once the process group is gone.
func (e *Engine) discard(l *link) {
	if l.prepared != nil {
		l.cancelPrep()
		<-l.prepared
	}
	if l.proc != nil {
		l.stop()
	}
}

// await waits for a claimed link that may still be starting. ready is false
// when its preparation failed: the caller goes on as if there had been no
// warm link. An error means the turn was cancelled or timed out meanwhile.
func (e *Engine) await(ctx, tctx context.Context, l *link) (ready bool, err error) {
	if l.prepared == nil {
		return true, nil
	}
	select {
	case <-l.prepared:
	case <-tctx.Done():
		// The answer is due now; the agent is stopped in the background.
		e.mu.Lock()
		e.dropLocked(l)
		e.mu.Unlock()
		// Not describe: the preparation may still be writing l.
		if ctx.Err() != nil {
			return false, &Error{Code: CodeCancelled, Message: "cancelled while the agent was starting", Err: ctx.Err()}
		}
		return false, &Error{Code: CodeTimeout, Message: fmt.Sprintf("the turn took longer than %s (the agent was still starting) and was stopped", e.opts.Timeout), Err: tctx.Err()}
	}
	if l.prepErr != nil {
		e.giveUp(l) // stopped already by its preparation
		return false, nil
	}
	return true, nil
}

// giveUp stops a link the caller owns.
func (e *Engine) giveUp(l *link) {
	e.mu.Lock()
	l.status = linkClosing
	delete(e.busy, l)
	e.mu.Unlock()
	e.discard(l)
}

// putWarm gives a link its caller owns back as the warm link, stopping
// the one there, if another.
func (e *Engine) putWarm(l *link) {
	l.attach(nil)
	e.mu.Lock()
	delete(e.busy, l)
	old := e.warm
	l.status = linkReady
	e.warm = l
	if old != nil && old != l {
		e.dropLocked(old)
	}
	if l.prewarmed && !l.wasUsed() {
		// Lent to a request (a session list) and still unused: its idle
		// time starts again.
		l.idle = time.AfterFunc(e.opts.PrewarmIdle, func() { e.expire(l) })
	}
	e.mu.Unlock()
}

// windDown lets a link its caller owns go after a completed turn (see
// agent.Process.Release) without waiting; Close waits for it, Leave does not.
func (e *Engine) windDown(l *link) {
	l.attach(nil)
	e.mu.Lock()
	l.status = linkClosing
	delete(e.busy, l)
	e.mu.Unlock()
	l.conn.Close()
	l.proc.Release()
	e.winding.Add(1)
	go func() {
		defer e.winding.Done()
		l.stop()
	}()
}

// stopOwned stops a link its caller owns and waits for its group.
func (e *Engine) stopOwned(l *link) {
	l.attach(nil)
	e.giveUp(l)
}

// claim takes the warm link for a request outside a turn (authenticate,
// logout, session/list): any live one (in cwd with sameCwd), waiting for
// one still starting. nil when there is none.
func (e *Engine) claim(ctx, tctx context.Context, cwd string, sameCwd bool) (*link, error) {
	e.mu.Lock()
	l := e.warm
	e.warm = nil
	if l == nil {
		e.mu.Unlock()
		return nil, nil
	}
	if (sameCwd && l.cwd != cwd) || (l.status != linkPreparing && !l.alive()) {
		e.dropLocked(l)
		e.mu.Unlock()
		return nil, nil
	}
	e.ownLocked(l)
	e.mu.Unlock()
	ready, err := e.await(ctx, tctx, l)
	if err != nil || !ready {
		return nil, err
	}
	return l, nil
}

// verdict is how a turn went, for settle: the error (nil, an *Error ready
// to return, or what a call to the agent returned, with when it happened)
// and whether the link may stay warm.
type verdict struct {
	err  error
	when string
	keep bool
}

// settle is the one decision at the end of a turn about its link: warm
// for the next turn, or stopped. It runs after everything the agent sent
// before the end has been emitted; a failure is described only after the
// link is stopped, so a dead agent's stderr tail is complete.
func (e *Engine) settle(ctx, tctx context.Context, l *link, ts *turnState, sid, stopReason string, v verdict) error {
	e.flush(l)
	if v.err != nil && acp.ErrorCode(v.err) == acp.CodeAuthRequired && ctx.Err() == nil && tctx.Err() == nil {
		ts.emit(Event{SessionID: ts.session(), Payload: AuthRequired{AuthMethods: l.init.Methods()}})
		// The link stays so Authenticate can reuse it.
		v = verdict{err: &Error{Code: CodeAuth, Message: "the agent needs authentication: " + v.err.Error(), Agent: l.agentDesc(), Err: v.err}, keep: e.opts.Warm}
	}
	l.attach(nil)
	if v.keep && l.alive() && ctx.Err() == nil && tctx.Err() == nil {
		e.putWarm(l)
		return v.err
	}
	if v.err == nil && !ts.doneSent {
		// The answer is complete: say so before the teardown, which takes
		// up to 2 s more with an agent that ignores its closed stdin.
		ts.emit(Event{SessionID: sid, Payload: Done{StopReason: stopReason}})
		ts.doneSent = true
	}
	if v.err == nil {
		// A finished turn: the agent may still save its session, on its
		// own time (the shim's), not the turn's.
		e.windDown(l)
		return nil
	}
	e.stopOwned(l)
	if ce, ok := errors.AsType[*Error](v.err); ok && (ce.Code == CodeInput || ce.Code == CodeAuth) {
		return ce
	}
	return e.describe(ctx, tctx, l, v.when, v.err)
}

// serves reports whether l can carry a turn in cwd on session sid ("" = a
// new session) with the MCP servers whose key is mcp: the same folder, and
// the session it holds (or was asked to open), a fresh pre-warmed new
// session for a new one, or none yet (e.g. after sign-in). A session opened
// with other MCP servers cannot take them any more.
func (l *link) serves(cwd, sid, mcp string) bool {
	if l.cwd != cwd {
		return false
	}
	if l.status == linkPreparing {
		return l.want == sid && l.wantMCP == mcp
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.sessionID == "":
		return true
	case l.mcp != mcp:
		return false
	case l.sessionID == sid:
		return true
	default:
		return sid == "" && l.fresh
	}
}

func (l *link) wasUsed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.used
}

// mcpKey identifies a list of MCP servers as given.
func mcpKey(servers []json.RawMessage) string {
	if len(servers) == 0 {
		return ""
	}
	h := sha256.New()
	for _, s := range servers {
		h.Write(s)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// Options returns what the engine was made with (a server lending its
// warm agent compares the agent with the one a client would run).
func (e *Engine) Options() Options { return e.opts }
