package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

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

func signInPath() string { return filepath.Join(paths.ConfigDir(), "signin") }

func signedInMethod() string {
	b, err := os.ReadFile(signInPath())
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// GetAuthState reports whether an API key is stored and where.
func (a *Agents) GetAuthState() AuthState {
	k, store := a.settings.apiKey()
	return AuthState{APIKeyStored: k != "", Store: store, Method: signedInMethod()}
}

// SaveAPIKey stores the key (keyring, else a 0600 file) for later agents.
func (a *Agents) SaveAPIKey(key string) (AuthState, error) {
	a.settings.apiKey() // make sure the lazy load does not overwrite what we set
	store, err := settings.SaveAPIKey(key)
	if err != nil {
		return a.GetAuthState(), err
	}
	a.settings.setKey(strings.TrimSpace(key), store) // as stored: no stray spaces in the agent's env
	return a.GetAuthState(), nil
}

// SignOut forgets the API key and the sign-in: the agent's own logout
// runs first when it offers one (with the key still in its environment),
// and the running agent that had the key is replaced.
func (a *Agents) SignOut() error {
	a.settings.apiKey()
	if dir, err := a.neutralDir(); err == nil {
		ctx, cancel := context.WithTimeout(a.bg(), logoutTimeout)
		supported, err := a.turns.engineFor(a.settings.current(), a.agentFor(a.agentList(), turnParams{})).Logout(ctx, dir)
		cancel()
		if err != nil {
			a.log.Warn().Err(err).Msg("agent logout failed; forgetting our own credentials anyway")
		} else {
			a.log.Info().Bool("agent_logout", supported).Msg("signed out")
		}
	}
	if err := settings.DeleteAPIKey(); err != nil {
		return err
	}
	if err := os.Remove(signInPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("forget sign-in: %w", err)
	}
	a.settings.setKey("", settings.StoreNone)
	return nil
}

// neutralDir is where an agent runs for account-wide calls (logout): the
// app's data dir, never a user's folder.
func (a *Agents) neutralDir() (string, error) {
	dir := paths.DataDir()
	return dir, os.MkdirAll(dir, 0o700)
}

func (a *Agents) rememberSignIn(methodID string) {
	if err := paths.WriteFileAtomic(signInPath(), []byte(methodID+"\n"), 0o600); err != nil {
		a.log.Warn().Err(err).Msg("remember sign-in")
	}
}

// SignIn signs in with the method the user chose when a turn met
// "authentication required": an API key is stored first (keyring, else a
// 0600 file) and handed to a fresh agent; then the agent's authenticate
// runs (ChatGPT opens the browser). On success the interrupted turn runs
// again and its new id is returned.
func (a *Agents) SignIn(req SignInRequest) (SignInResult, error) {
	if req.MethodID == "" {
		return SignInResult{Auth: a.GetAuthState()}, errors.New("no sign-in method chosen")
	}
	p, retry := a.turns.takeRetry(req.TurnID)
	if req.TurnID != "" && !retry {
		a.log.Info().Str("turn", req.TurnID).Msg("sign-in: the turn is not waiting for sign-in; nothing to retry")
	}
	put := func() {
		if retry {
			a.turns.keepForRetry(req.TurnID, p) // a failed sign-in may be tried again
		}
	}
	if strings.TrimSpace(req.APIKey) != "" {
		if _, err := a.SaveAPIKey(req.APIKey); err != nil {
			put()
			return SignInResult{Auth: a.GetAuthState()}, err
		}
	}
	cwd := req.Cwd
	if retry {
		cwd = p.cwd
	}
	if cwd == "" {
		var err error
		if cwd, err = a.neutralDir(); err != nil {
			put()
			return SignInResult{Auth: a.GetAuthState()}, err
		}
	}
	ag := a.agentFor(a.agentList(), p)
	if err := a.turns.engineFor(a.settings.current(), ag).Authenticate(a.bg(), cwd, req.MethodID); err != nil {
		put()
		return SignInResult{Auth: a.GetAuthState()}, fmt.Errorf("sign in with %s: %w", req.MethodID, err)
	}
	a.rememberSignIn(req.MethodID)
	res := SignInResult{Auth: a.GetAuthState()}
	if retry {
		p.id = req.RetryTurnID
		id, err := a.turns.startTurn(p)
		if err != nil {
			return res, fmt.Errorf("signed in, but the message could not be sent again: %w", err)
		}
		res.TurnID = id
	}
	return res, nil
}
