package chat

import (
	"context"

	"cdxtheme/core/acp"
)

// Decider answers permission requests. It returns the chosen option id,
// or "" to answer "cancelled". It must return when ctx is done (the turn
// was cancelled); the engine answers "cancelled" then anyway.
type Decider interface {
	Decide(ctx context.Context, sessionID string, p Permission) (optionID string, err error)
}

// DeciderFunc adapts a function to Decider.
type DeciderFunc func(ctx context.Context, sessionID string, p Permission) (string, error)

// Decide calls f.
func (f DeciderFunc) Decide(ctx context.Context, sessionID string, p Permission) (string, error) {
	return f(ctx, sessionID, p)
}

// Policy returns a Decider that answers without asking: "allow" picks
// allow_once, else allow_always; anything else ("deny", and "ask", which
// needs a UI) picks reject_once, else reject_always. Options are chosen by
// kind, never by id: ids differ between adapters ("allow_once" vs
// "approved"). With no option of the wanted kinds the answer is cancelled.
func Policy(policy string) Decider {
	prefer := []string{acp.KindRejectOnce, acp.KindRejectAlways}
	if policy == "allow" {
		prefer = []string{acp.KindAllowOnce, acp.KindAllowAlways}
	}
	return DeciderFunc(func(ctx context.Context, _ string, p Permission) (string, error) {
		return ChooseByKind(p.Options, prefer...), nil
	})
}

// ChooseByKind returns the id of the first option whose kind is the
// earliest in kinds, or "".
func ChooseByKind(options []PermissionOption, kinds ...string) string {
	for _, k := range kinds {
		for _, o := range options {
			if o.Kind == k {
				return o.OptionID
			}
		}
	}
	return ""
}
