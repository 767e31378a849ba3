package app

import (
	"crypto/sha256"
	"encoding/hex"

	"cdxtheme/core/codexhome"
	"cdxtheme/core/damaged"
	"cdxtheme/core/settings"
)

// GetSettings returns the current settings.
func (set *Settings) GetSettings() settings.Settings { return set.current() }

// current is the settings now, for every service.
func (set *Settings) current() settings.Settings {
	set.mu.Lock()
	defer set.mu.Unlock()
	return set.settings
}

// home is the Codex home the settings name, for every service.
func (set *Settings) home() codexhome.Home { return codexhome.Locate(set.current().CodexHome) }

// SaveSettings validates, stores and applies new settings.
func (set *Settings) SaveSettings(s settings.Settings) error {
	if err := settings.Save(s); err != nil {
		return err
	}
	set.mu.Lock()
	set.settings = s
	set.mu.Unlock()
	return nil
}

// DamagedFiles are the files of the user's that could not be read in this
// run and were set aside (NAME.corrupt-<time>), oldest first; later ones
// come as "damaged" events.
func (set *Settings) DamagedFiles() []damaged.Notice {
	n := damaged.Notices()
	if n == nil {
		n = []damaged.Notice{}
	}
	return n
}

// apiKey loads the stored key once; SaveAPIKey and SignOut keep it current.
func (set *Settings) apiKey() (string, string) {
	set.keyOnce.Do(func() {
		k, store, err := settings.LoadAPIKey()
		if err != nil {
			set.log.Warn().Err(err).Msg("load api key")
		}
		set.key, set.keyStore = k, store
	})
	set.mu.Lock()
	defer set.mu.Unlock()
	return set.key, set.keyStore
}

// setKey is the key as now stored (SaveAPIKey, SignOut), after apiKey's
// lazy load ran, so that load cannot overwrite it.
func (set *Settings) setKey(key, store string) {
	set.mu.Lock()
	set.key, set.keyStore = key, store
	set.mu.Unlock()
}

func (set *Settings) agentEnv() []string {
	k, _ := set.apiKey()
	return settings.APIKeyEnv(k)
}

// apiKeyEnvKey changes when the key does, so the engine (and the warm
// agent that got the old key) is replaced.
func (set *Settings) apiKeyEnvKey() string {
	k, _ := set.apiKey()
	if k == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(k))
	return hex.EncodeToString(sum[:8])
}
