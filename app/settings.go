package app

import (
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
