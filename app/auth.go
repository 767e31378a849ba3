package app

import (
	"context"
	"errors"
	"os"
	"strings"
	"time"

	"cdxtheme/app/turnrun"
	"cdxtheme/core/paths"
	"cdxtheme/core/settings"
)

// AuthState is what Settings shows about sign-in.
type AuthState struct {
	// APIKeyStored says an API key is kept, Store where (keyring or file).
	APIKeyStored bool   `json:"apiKeyStored"`
	Store        string `json:"store"`
	// Method is the agent sign-in method that last succeeded ("" = none
	// since the last sign-out).
	Method string `json:"method"`
}

// SignInRequest answers an "authentication required" turn: the method
// chosen among the agent's authMethods, the key for an API-key method,
// and the turn to run again once signed in.
type SignInRequest struct {
	TurnID string `json:"turnId"`
	// RetryTurnID is the id the page chose for the retried turn (as
	// SendRequest's TurnID), so it follows that turn from its first event.
	RetryTurnID string `json:"retryTurnId"`
	MethodID    string `json:"methodId"`
	APIKey      string `json:"apiKey"`
	Cwd         string `json:"cwd"`
}

// SignInResult is the retried turn (if any) and the new sign-in state.
type SignInResult struct {
	TurnID string    `json:"turnId"`
	Auth   AuthState `json:"auth"`
}

// logoutTimeout bounds the agent's logout on sign-out: signing out must
// not hang on an agent that will not start.
const logoutTimeout = 30 * time.Second

// GetAuthState reports whether an API key is stored and where.
func (ags *Agents) GetAuthState() AuthState {
	k, store := ags.settings.apiKey()
	return AuthState{APIKeyStored: k != "", Store: store, Method: settings.SignedInMethod()}
}

// SaveAPIKey stores the key (keyring, else a 0600 file) for later agents.
func (ags *Agents) SaveAPIKey(key string) (AuthState, error) {
	ags.settings.apiKey() // make sure the lazy load does not overwrite what we set
	store, err := settings.SaveAPIKey(key)
	if err != nil {
		return ags.GetAuthState(), err
	}
	ags.settings.setKey(strings.TrimSpace(key), store) // as stored: no stray spaces in the agent's env
	return ags.GetAuthState(), nil
}

// SignOut forgets the API key and the sign-in: the agent's own logout
// runs first when it offers one (with the key still in its environment),
// and the running agent that had the key is replaced.
func (ags *Agents) SignOut() error {
	ags.settings.apiKey()
	if dir, err := ags.neutralDir(); err == nil {
		ctx, cancel := context.WithTimeout(ags.bg(), logoutTimeout)
		supported, err := ags.turns.engineFor(ags.settings.current(), ags.agentFor(ags.agentList(), turnrun.Params{})).Logout(ctx, dir)
		cancel()
		if err != nil {
			ags.log.Warn().Err(err).Msg("agent logout failed; forgetting our own credentials anyway")
		} else {
			ags.log.Info().Bool("agent_logout", supported).Msg("signed out")
		}
	}
	if err := settings.DeleteAPIKey(); err != nil {
		return err
	}
	if err := settings.ForgetSignIn(); err != nil {
		return err
	}
	ags.settings.setKey("", settings.StoreNone)
	return nil
}

// neutralDir is where an agent runs for account-wide calls (logout): the
// app's data dir, never a user's folder.
func (ags *Agents) neutralDir() (string, error) {
	dir := paths.DataDir()
	return dir, os.MkdirAll(dir, 0o700)
}

// SignIn signs in with the method the user chose when a turn met
// "authentication required" (turnrun.Runner.SignIn): an API key is stored
// first (keyring, else a 0600 file); on success the interrupted turn runs
// again and its new id is returned.
func (ags *Agents) SignIn(req SignInRequest) (SignInResult, error) {
	if req.MethodID == "" {
		return SignInResult{Auth: ags.GetAuthState()}, errors.New("no sign-in method chosen")
	}
	in := turnrun.SignIn{TurnID: req.TurnID, RetryTurnID: req.RetryTurnID, MethodID: req.MethodID, Cwd: req.Cwd, Neutral: ags.neutralDir}
	if strings.TrimSpace(req.APIKey) != "" {
		in.SaveKey = func() error { _, err := ags.SaveAPIKey(req.APIKey); return err }
	}
	id, err := ags.turns.signIn(ags.bg(), in)
	return SignInResult{TurnID: id, Auth: ags.GetAuthState()}, err
}
