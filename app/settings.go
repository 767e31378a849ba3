package app

import (
	"crypto/sha256"
	"encoding/hex"

	"cdxtheme/core/codexhome"
	"cdxtheme/core/damaged"
	"cdxtheme/core/settings"
)

// GetSettings returns the current settings.
func (a *Settings) GetSettings() settings.Settings { return a.current() }

// current is the settings now, for every service.
func (a *Settings) current() settings.Settings {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.settings
}

// home is the Codex home the settings name, for every service.
func (a *Settings) home() codexhome.Home { return codexhome.Locate(a.current().CodexHome) }

// SaveSettings validates, stores and applies new settings.
func (a *Settings) SaveSettings(s settings.Settings) error {
	if err := settings.Save(s); err != nil {
		return err
	}
	a.mu.Lock()
	a.settings = s
	a.mu.Unlock()
	return nil
}

// DamagedFiles are the files of the user's that could not be read in this
// run and were set aside (NAME.corrupt-<time>), oldest first; later ones
// come as "damaged" events.
func (a *Settings) DamagedFiles() []damaged.Notice {
	n := damaged.Notices()
	if n == nil {
		n = []damaged.Notice{}
	}
	return n
}

// apiKey loads the stored key once; SaveAPIKey and SignOut keep it current.
func (a *Settings) apiKey() (string, string) {
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

// setKey is the key as now stored (SaveAPIKey, SignOut), after apiKey's
// lazy load ran, so that load cannot overwrite it.
func (a *Settings) setKey(key, store string) {
	a.mu.Lock()
	a.key, a.keyStore = key, store
	a.mu.Unlock()
}

func (a *Settings) agentEnv() []string {
	k, _ := a.apiKey()
	return settings.APIKeyEnv(k)
}

// apiKeyEnvKey changes when the key does, so the engine (and the warm
// agent that got the old key) is replaced.
func (a *Settings) apiKeyEnvKey() string {
	k, _ := a.apiKey()
	if k == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(k))
	return hex.EncodeToString(sum[:8])
}
