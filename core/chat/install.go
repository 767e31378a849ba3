package chat

import (
	"context"
	"errors"

	"cdxtheme/core/agent"
)

// ensureInstalled installs the sidecar's adapter when the agent resolves to
// it and it is not installed yet, emitting install events, before the turn
// (and its timeout) starts. Cancelling ctx cancels the install. Every other
// resolution outcome is left to connect, which reports it as before.
func (e *Engine) ensureInstalled(ctx context.Context, emit func(Event)) error {
	if ctx.Err() != nil {
		return nil // run reports a turn cancelled before it started
	}
	e.mu.Lock()
	warm := e.warm != nil
	e.mu.Unlock()
	if warm {
		return nil // a running agent was resolved and installed before
	}
	_, err := agent.Resolve(e.opts.Resolve)
	ni, ok := errors.AsType[*agent.NotInstalledError](err)
	if !ok {
		return nil
	}
	e.opts.Log.Info().Str("package", ni.Install.Spec()).Str("dir", ni.Install.Dir).Msg("chat: installing the agent before the turn")
	err = agent.EnsureInstalled(ctx, ni.Install, func(p agent.InstallProgress) {
		emit(Event{Payload: InstallProgress{Install: &p}})
	})
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return &Error{Code: CodeCancelled, Message: "cancelled while installing the agent", Err: err}
	}
	return &Error{Code: CodeInstall, Message: err.Error(), Err: err}
}
