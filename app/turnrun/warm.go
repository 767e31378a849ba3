package turnrun

import (
	"context"
	"errors"
	"os"

	"cdxtheme/app/serve"
	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/workspace"
)

// Prewarm starts the agent of the chat a view just opened (p names a saved
// chat, or nothing for a new build) in the background: for a new build in
// Build's folder, made now; for a saved chat with the session resumed. A
// folder that is gone is no error: the first message says so.
func (r *Runner) Prewarm(p Params) error {
	s := r.Settings()
	if !s.Warm() {
		return nil
	}
	switch {
	case p.SessionID == "" && p.WorkspaceID == "" && p.Cwd == "":
		ws, err := r.Build.Get()
		if err != nil {
			return err
		}
		p.WorkspaceID, p.Cwd = ws.ID, ws.Dir
	case p.SessionID == "":
		return errors.New("pre-warm: a saved chat needs its session id")
	case p.WorkspaceID != "":
		ws, err := open(p.WorkspaceID)
		if err != nil {
			return err
		}
		p.Cwd = ws.Dir
	}
	if fi, err := os.Stat(p.Cwd); err != nil || !fi.IsDir() {
		return nil
	}
	list := r.Agents()
	ag := r.AgentFor(list, p)
	eng := r.EngineFor(s, ag)
	t := chat.Turn{SessionID: p.SessionID, Cwd: p.Cwd, MCPServers: r.MCPServers(list, p.Cwd)}
	if p.SessionID == "" {
		// New build: the agent's own options reach the bar now, not after
		// the first message.
		t.OnOpen = func(setup *acp.SessionSetup) {
			for _, o := range r.Observers {
				if o.Warmed != nil {
					o.Warmed(ag.ID, setup)
				}
			}
		}
	}
	eng.Prewarm(t)
	return nil
}

// Release gives up what Prewarm started for p's view, which closed: an
// agent no message used is stopped (in the background), and a new build's
// folder that never got a message is removed.
func (r *Runner) Release(p Params) {
	var dropped *workspace.Meta
	cwd, sid := p.Cwd, p.SessionID
	if p.SessionID == "" && p.WorkspaceID == "" && p.Cwd == "" {
		if dropped = r.Build.Drop(); dropped == nil {
			return
		}
		cwd = dropped.Dir
	} else if p.WorkspaceID != "" {
		ws, err := open(p.WorkspaceID)
		if err != nil {
			return
		}
		cwd = ws.Dir
	}
	r.mu.Lock()
	eng := r.engine
	r.mu.Unlock()
	r.wg.Add(1) // Stop waits: an agent must not outlive the app
	go func() {
		defer r.wg.Done()
		if eng != nil {
			eng.Release(cwd, sid)
		}
		if dropped != nil {
			r.removeUnused(dropped.ID)
		}
	}()
}

// Rewarm pre-warms the open New build view's folder again after its agent
// was changed: the one started before is the wrong agent now.
func (r *Runner) Rewarm() {
	if r.Build.Made() {
		if err := r.Prewarm(Params{}); err != nil {
			r.Log.Info().Err(err).Msg("pre-warm the new agent")
		}
	}
}

// dropBuild removes the New build folder nobody sent from (at quit, after
// the engines are closed).
func (r *Runner) dropBuild() {
	if b := r.Build.Drop(); b != nil {
		r.removeUnused(b.ID)
	}
}

func (r *Runner) removeUnused(id string) {
	if err := workspace.Remove(workspace.Root(), id); err != nil {
		r.Log.Warn().Err(err).Str("workspace", id).Msg("remove unused workspace")
	}
}

// Lend lets `cdxtheme chat --session` run a follow-up on the chat's warm
// agent while the app holds it (app/serve: a socket only the user can
// reach). It stops with ctx or Stop, which cancels lent turns like the
// app's own.
func (r *Runner) Lend(ctx context.Context) {
	path, err := serve.Path("app")
	if err != nil {
		if !errors.Is(err, serve.ErrUnsupported) {
			r.Log.Warn().Err(err).Msg("no warm agents for the command line")
		}
		return
	}
	ln, err := serve.Listen(path)
	if err != nil {
		r.Log.Warn().Err(err).Msg("no warm agents for the command line")
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	r.lendMu.Lock()
	r.stopLending = cancel
	r.lendMu.Unlock()
	srv := &serve.Server{Handle: r.lendTurn, Log: *r.Log}
	r.wg.Add(1) // Stop waits for the lent turns to end
	go func() {
		defer r.wg.Done()
		if err := srv.Serve(ctx, ln); err != nil {
			r.Log.Warn().Err(err).Msg("warm agents for the command line: stopped")
		}
	}()
}

// lendTurn runs a CLI turn on the warm agent when it holds the session in
// the same folder and is the agent the CLI would start (same command,
// Codex home, account and model server, same turn bound); otherwise it
// declines and the CLI goes elsewhere. The chat's MCP servers stay with
// the session, and Home is told the session changed.
func (r *Runner) lendTurn(ctx context.Context, t chat.Turn, want serve.Agent, emit func(chat.Event)) (chat.Result, error) {
	r.mu.Lock()
	eng := r.engine
	r.mu.Unlock()
	if eng == nil {
		return chat.Result{}, &serve.Declined{Reason: "the app holds no warm agent"}
	}
	if d := serve.Lendable(eng.Options(), want); d != nil {
		return chat.Result{}, d
	}
	t.MCPServers = r.MCPServers(r.Agents(), t.Cwd)
	if !eng.Warm(t) {
		return chat.Result{}, &serve.Declined{Reason: "the app holds no warm agent for this session"}
	}
	res, err := eng.Run(ctx, t, emit)
	r.Lent()
	return res, err
}

// stopLend closes the socket and cancels lent turns.
func (r *Runner) stopLend() {
	r.lendMu.Lock()
	stop := r.stopLending
	r.lendMu.Unlock()
	if stop != nil {
		stop()
	}
}
