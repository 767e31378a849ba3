package app

import "cdxtheme/core/settings"

// GetSettings returns the current settings.
func (a *Settings) GetSettings() settings.Settings { return a.current() }

// current is the settings now, for every service.
func (a *core) current() settings.Settings {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.settings
}

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
