// Package permission is who answers an agent's request to run a tool
// call: the request as the UI and the CLI see it, a Decider (the page,
// the terminal, or a fixed policy choosing an option by its kind), and
// the "always" answers remembered per session and kind of tool. The
// broker that waits for the answer on the wire is core/chat's.
package permission

import (
	"context"
	"sync"

	"cdxtheme/core/acp"
)

// PermissionOption is one answer the agent offers: {optionId, name, kind}.
type PermissionOption = acp.PermissionOption

// Permission is a request of the agent to run a tool call.
type Permission struct {
	RequestID string             `json:"requestId"` // the raw JSON id as a string, e.g. `0` or `"uuid"`
	ToolCall  *acp.ToolCall      `json:"toolCall,omitempty"`
	Command   string             `json:"command,omitempty"` // the command line the tool call runs
	Options   []PermissionOption `json:"options"`
}

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

// Always remembers the "always" answers (allow_always, reject_always) the
// user gave, per session and tool kind, so a later request of that kind
// in that session is answered the same way without asking again (the
// engine then emits permission_answered with Answer.Remembered). Safe
// for concurrent use; the zero value is ready. A nil *Always remembers
// nothing.
type Always struct {
	mu    sync.Mutex
	kinds map[string]map[string]string // session → tool kind → option kind
}

// Remembered is the remembered choice for p, if any: the id of the offered
// option of the remembered kind.
func (a *Always) Remembered(sessionID, toolKind string, options []PermissionOption) (id, kind string) {
	if a == nil {
		return "", ""
	}
	a.mu.Lock()
	kind = a.kinds[sessionID][toolKind]
	a.mu.Unlock()
	if kind == "" {
		return "", ""
	}
	if id = ChooseByKind(options, kind); id == "" {
		return "", ""
	}
	return id, kind
}

// Note remembers the option kind chosen for toolKind when it is an
// "always" one.
func (a *Always) Note(sessionID, toolKind, optionKind string) {
	if a == nil || sessionID == "" || (optionKind != acp.KindAllowAlways && optionKind != acp.KindRejectAlways) {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.kinds == nil {
		a.kinds = map[string]map[string]string{}
	}
	if a.kinds[sessionID] == nil {
		a.kinds[sessionID] = map[string]string{}
	}
	a.kinds[sessionID][toolKind] = optionKind
}
