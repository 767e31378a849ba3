import * as api from '../api';
import { applyAppearance } from '../appearance';
import { setLanguage } from '../i18n.svelte';
import type { Settings } from '../types';

export function defaultSettings(): Settings {
  return {
    codexAcpVersion: '',
    permissionPolicy: 'ask',
    turnTimeoutSeconds: 0,
    enterSends: false,
    codexHome: '',
    language: '',
    warmConnection: true,
    themeTools: true,
    model: '',
    reasoningEffort: '',
    appearance: '',
  };
}

export class SettingsStore {
  value = $state<Settings>(defaultSettings());
  loaded = $state(false);
  error = $state('');
  saving = $state(false);

  async load(): Promise<void> {
    try {
      const s = await api.getSettings();
      this.value = { ...defaultSettings(), ...s, permissionPolicy: s.permissionPolicy || 'ask', warmConnection: s.warmConnection ?? true, themeTools: s.themeTools ?? true };
      this.error = '';
    } catch (e) {
      this.error = api.errorMessage(e);
    } finally {
      this.loaded = true;
      setLanguage(this.value.language);
      applyAppearance(this.value.appearance);
    }
  }

  /** Saves s; on failure keeps the edited values and reports why. */
  async save(s: Settings): Promise<boolean> {
    this.saving = true;
    try {
      await api.saveSettings($state.snapshot(s) as Settings);
      this.value = { ...s };
      this.error = '';
      setLanguage(s.language);
      applyAppearance(s.appearance);
      return true;
    } catch (e) {
      this.error = api.errorMessage(e);
      return false;
    } finally {
      this.saving = false;
    }
  }
}

export const settings = new SettingsStore();
