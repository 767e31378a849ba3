package app

import (
	"context"
	"errors"

	"cdxtheme/app/serve"
	"cdxtheme/core/chat"
)

// lendWarm lets `cdxtheme chat --session` run a follow-up on the chat's
// warm agent while the app holds it (app/serve: a 0600 socket in the
// user's runtime folder, same uid only; on Windows a socket whose DACL
// grants the user alone). It stops with ctx or closeAll,
// which cancels lent turns like the app's own.
func (tu *Turns) lendWarm(ctx context.Context) {
	path, err := serve.Path("app")
	if err != nil {
		if !errors.Is(err, serve.ErrUnsupported) {
			tu.log.Warn().Err(err).Msg("no warm agents for the command line")
		}
		return
	}
	ln, err := serve.Listen(path)
	if err != nil {
		tu.log.Warn().Err(err).Msg("no warm agents for the command line")
		return
	}
	ctx, cancel := context.WithCancel(ctx)
	tu.warmups.mu.Lock()
	tu.warmups.stopLending = cancel
	tu.warmups.mu.Unlock()
	srv := &serve.Server{Handle: tu.lendTurn, Log: tu.log}
	tu.turns.wg.Add(1) // closeAll waits for the lent turns to end
	go func() {
		defer tu.turns.wg.Done()
		if err := srv.Serve(ctx, ln); err != nil {
			tu.log.Warn().Err(err).Msg("warm agents for the command line: stopped")
		}
	}()
}

// lendTurn runs a CLI turn on the warm agent when it holds the session in
// the same folder and is the agent the CLI would start (same command,
// Codex home, account and model server, same turn bound); otherwise it
// declines and the CLI goes elsewhere. The chat's MCP servers stay with
// the session, and Home is told the session changed.
func (tu *Turns) lendTurn(ctx context.Context, t chat.Turn, want serve.Agent, emit func(chat.Event)) (chat.Result, error) {
	tu.turns.mu.Lock()
	eng := tu.turns.engine
	tu.turns.mu.Unlock()
	if eng == nil {
		return chat.Result{}, &serve.Declined{Reason: "the app holds no warm agent"}
	}
	if d := serve.Lendable(eng.Options(), want); d != nil {
		return chat.Result{}, d
	}
	t.MCPServers = tu.mcpServers(tu.agents.agentList(), t.Cwd)
	if !eng.Warm(t) {
		return chat.Result{}, &serve.Declined{Reason: "the app holds no warm agent for this session"}
	}
	res, err := eng.Run(ctx, t, emit)
	tu.emit.Emit("sessions", map[string]int{"fromCommandLine": 1})
	return res, err
}

// stopLending closes the socket and cancels lent turns.
func (tu *Turns) stopLending() {
	tu.warmups.mu.Lock()
	stop := tu.warmups.stopLending
	tu.warmups.mu.Unlock()
	if stop != nil {
		stop()
	}
}
