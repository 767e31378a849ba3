package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"

	"cdxtheme/core/settings"
)

// AuthState is what Settings shows about sign-in.
type AuthState struct {
	// APIKeyStored says an API key is kept, Store where (keyring or file).
	APIKeyStored bool   `json:"apiKeyStored"`
	Store        string `json:"store"`
}

// agentOverride is the agent command that beats resolution: the
// CDXTHEME_AGENT environment variable, else the settings' command.
func agentOverride(s settings.Settings) string {
	if v := os.Getenv("CDXTHEME_AGENT"); v != "" {
		return v
	}
	return s.AgentCommand
}

// apiKey loads the stored key once; SaveAPIKey and SignOut keep it current.
func (a *App) apiKey() (string, string) {
	a.keyOnce.Do(func() {
		k, store, err := settings.LoadAPIKey()
		if err != nil {
			a.log.Warn().Err(err).Msg("load api key")
		}
		a.key, a.keyStore = k, store
	})
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.key, a.keyStore
}

func (a *App) agentEnv() []string {
	k, _ := a.apiKey()
	return settings.APIKeyEnv(k)
}

// apiKeyEnvKey changes when the key does, so the engine (and the warm
// agent that got the old key) is replaced.
func (a *App) apiKeyEnvKey() string {
	k, _ := a.apiKey()
	if k == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(k))
	return hex.EncodeToString(sum[:8])
}

// GetAuthState reports whether an API key is stored and where.
func (a *App) GetAuthState() AuthState {
	k, store := a.apiKey()
	return AuthState{APIKeyStored: k != "", Store: store}
}

// SaveAPIKey stores the key (keyring, else a 0600 file) for later agents.
func (a *App) SaveAPIKey(key string) (AuthState, error) {
	a.apiKey() // make sure the lazy load does not overwrite what we set
	store, err := settings.SaveAPIKey(key)
	if err != nil {
		return a.GetAuthState(), err
	}
	a.mu.Lock()
	a.key, a.keyStore = key, store
	a.mu.Unlock()
	return a.GetAuthState(), nil
}

// SignOut forgets the API key and drops the running agent that had it.
func (a *App) SignOut() error {
	a.apiKey()
	if err := settings.DeleteAPIKey(); err != nil {
		return err
	}
	a.mu.Lock()
	a.key, a.keyStore = "", settings.StoreNone
	a.mu.Unlock()
	return nil
}

// Authenticate runs the agent's authenticate method (e.g. ChatGPT sign-in,
// which opens the browser) in the chat's folder.
func (a *App) Authenticate(methodID, cwd string) error {
	if methodID == "" {
		return errors.New("no sign-in method chosen")
	}
	ctx := a.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	eng := a.engineFor(a.GetSettings())
	return eng.Authenticate(ctx, cwd, methodID)
}
