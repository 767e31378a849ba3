package app

import (
	"errors"
	"fmt"

	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/settings"
)

// OptionChange is one session setting the user changed in the chat.
type OptionChange struct {
	WorkspaceID string `json:"workspaceId"`
	SessionID   string `json:"sessionId"`
	// ConfigID is the config option's id; "mode" also covers agents that
	// only offer modes (session/set_mode).
	ConfigID string `json:"configId"`
	Value    any    `json:"value"` // string (select) or bool (boolean)
}

// OptionResult says whether the agent took the change now (Applied, with
// the options as it reports them) or gets it with the next message.
type OptionResult struct {
	Applied       bool               `json:"applied"`
	ConfigOptions []acp.ConfigOption `json:"configOptions"`
}

// SetSessionOption changes a session setting: it is remembered for the
// session (re-applied after every new/load/resume) and as the agent's
// default, and set on the live agent when one holds the session.
func (a *App) SetSessionOption(req OptionChange) (OptionResult, error) {
	if req.ConfigID == "" {
		return OptionResult{}, errors.New("no setting named")
	}
	switch req.Value.(type) {
	case string, bool:
	default:
		return OptionResult{}, fmt.Errorf("setting %s: %v is neither text nor true/false", req.ConfigID, req.Value)
	}
	a.turns.mu.Lock()
	eng := a.turns.engine
	a.turns.mu.Unlock()
	res := OptionResult{}
	if req.SessionID != "" && eng != nil {
		opts, err := eng.SetOption(a.bg(), req.SessionID, req.ConfigID, req.Value)
		switch {
		case errors.Is(err, chat.ErrNotLive):
			// No live agent holds the session: the next message applies it.
		case err != nil:
			return OptionResult{ConfigOptions: opts}, err // refused: not remembered either
		default:
			res = OptionResult{Applied: true, ConfigOptions: opts}
		}
	}
	a.rememberOption(req)
	return res, nil
}

// rememberOption keeps a value for the session and as its agent's default.
func (a *App) rememberOption(req OptionChange) {
	list := a.agentList()
	ag := a.agentFor(list, turnParams{workspaceID: req.WorkspaceID, sessionID: req.SessionID})
	if req.SessionID != "" {
		a.turns.mu.Lock()
		if a.turns.sessOpts == nil {
			a.turns.sessOpts = map[string]map[string]any{}
		}
		if a.turns.sessOpts[req.SessionID] == nil {
			a.turns.sessOpts[req.SessionID] = map[string]any{}
		}
		a.turns.sessOpts[req.SessionID][req.ConfigID] = req.Value
		a.turns.mu.Unlock()
	}
	if list.SetDefaults(ag.ID, map[string]any{req.ConfigID: req.Value}) {
		if err := settings.SaveAgents(list); err != nil {
			a.log.Warn().Err(err).Str("agent", ag.ID).Msg("remember the agent's default")
		}
	}
}
