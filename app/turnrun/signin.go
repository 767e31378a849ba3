package turnrun

import (
	"context"
	"fmt"

	"cdxtheme/core/settings"
)

// SignIn is the sign-in the user chose when a turn met "authentication
// required".
type SignIn struct {
	TurnID      string // the turn that stopped ("": none to retry)
	RetryTurnID string // the id the page chose for the retried turn
	MethodID    string
	Cwd         string // where the agent runs when no turn is retried
	// SaveKey stores the API key the user gave, before the agent starts
	// (nil: none given).
	SaveKey func() error
	// Neutral is where an agent runs for account-wide calls.
	Neutral func() (string, error)
}

// SignIn runs the agent's authenticate with the chosen method (ChatGPT
// opens the browser) on a fresh agent that has the stored key. On success
// the interrupted turn runs again and its new id is returned; on failure
// it stays kept, as a sign-in may be tried again.
func (r *Runner) SignIn(ctx context.Context, in SignIn) (string, error) {
	p, retry := r.set.TakeRetry(in.TurnID)
	if in.TurnID != "" && !retry {
		r.Log.Info().Str("turn", in.TurnID).Msg("sign-in: the turn is not waiting for sign-in; nothing to retry")
	}
	fail := func(err error) (string, error) {
		if retry {
			r.set.KeepForRetry(in.TurnID, p)
		}
		return "", err
	}
	if in.SaveKey != nil {
		if err := in.SaveKey(); err != nil {
			return fail(err)
		}
	}
	cwd := in.Cwd
	if retry {
		cwd = p.Cwd
	}
	if cwd == "" {
		var err error
		if cwd, err = in.Neutral(); err != nil {
			return fail(err)
		}
	}
	ag := r.AgentFor(r.Agents(), p)
	if err := r.EngineFor(r.Settings(), ag).Authenticate(ctx, cwd, in.MethodID); err != nil {
		return fail(fmt.Errorf("sign in with %s: %w", in.MethodID, err))
	}
	if err := settings.RememberSignIn(in.MethodID); err != nil {
		r.Log.Warn().Err(err).Msg("remember sign-in")
	}
	if !retry {
		return "", nil
	}
	p.ID = in.RetryTurnID
	id, err := r.Start(p)
	if err != nil {
		return "", fmt.Errorf("signed in, but the message could not be sent again: %w", err)
	}
	return id, nil
}
