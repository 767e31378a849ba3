import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import SettingsView from './Settings.svelte';
import { settings } from '../lib/stores/settings.svelte';
import { flush, installWails } from '../test/wails';
import type { Settings } from '../lib/types';

const stored: Settings = {
  codexAcpVersion: '',
  permissionPolicy: '',
  turnTimeoutSeconds: 0,
  enterSends: false,
  codexHome: '',
  language: '',
  warmConnection: null,
  model: 'gpt-5.5',
  reasoningEffort: 'high',
};

let keyStore = '';

async function setup(save: (s: Settings) => unknown = () => undefined) {
  keyStore = '';
  const state = () => ({ apiKeyStored: keyStore !== '', store: keyStore ? 'keyring' : '' });
  const w = installWails({
    GetSettings: () => stored,
    SaveSettings: save,
    Sessions: () => ({ sessions: [] }),
    Models: () => ({ current: '', source: 'fallback', models: [] }),
    GetAuthState: state,
    SaveAPIKey: (k: string) => ((keyStore = k), state()),
    SignOut: () => void (keyStore = ''),
  });
  await settings.load();
  render(SettingsView);
  await flush();
  return w;
}

describe('Settings', () => {
  it('starts on "ask" and warm connections on when nothing is stored', async () => {
    await setup();
    expect((screen.getByTestId('settings-permission-ask') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByTestId('settings-warm') as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByTestId('settings-allow-warning')).toBeNull();
  });

  it('warns when allow-all is chosen and saves every field', async () => {
    const w = await setup();
    await fireEvent.click(screen.getByTestId('settings-permission-allow'));
    expect(screen.getByTestId('settings-allow-warning').textContent).toContain('without asking');
    await fireEvent.input(screen.getByTestId('settings-timeout'), { target: { value: '120' } });
    await fireEvent.click(screen.getByTestId('settings-enter-sends'));
    await fireEvent.click(screen.getByTestId('settings-warm'));
    await fireEvent.input(screen.getByTestId('settings-codex-home'), { target: { value: '/home/dev/.codex-work' } });
    await fireEvent.change(screen.getByTestId('settings-language'), { target: { value: 'de' } });
    await fireEvent.click(screen.getByTestId('settings-save'));
    await flush();
    expect(w.App.SaveSettings).toHaveBeenCalledWith({
      ...stored,
      permissionPolicy: 'allow',
      turnTimeoutSeconds: 120,
      enterSends: true,
      warmConnection: false,
      codexHome: '/home/dev/.codex-work',
      language: 'de',
    });
    // The UI switched language with the saved setting.
    expect(screen.getByTestId('settings-saved').textContent).toBe('Gespeichert.');
    await fireEvent.change(screen.getByTestId('settings-language'), { target: { value: 'en' } });
    await fireEvent.click(screen.getByTestId('settings-save'));
    await flush();
  });

  it.each([
    { field: 'settings-timeout', value: '-5', message: 'whole number' },
    { field: 'settings-codex-home', value: 'relative/codex', message: 'absolute path' },
  ])('refuses $field = $value before saving', async ({ field, value, message }) => {
    const w = await setup();
    await fireEvent.input(screen.getByTestId(field), { target: { value } });
    await fireEvent.click(screen.getByTestId('settings-save'));
    await flush();
    expect(screen.getByTestId('settings-error').textContent).toContain(message);
    expect(w.App.SaveSettings).not.toHaveBeenCalled();
  });

  it('keeps the edits and shows Go’s error when saving fails', async () => {
    await setup(() => Promise.reject('write settings: read-only file system'));
    await fireEvent.input(screen.getByTestId('settings-timeout'), { target: { value: '77' } });
    await fireEvent.click(screen.getByTestId('settings-save'));
    await flush();
    expect(screen.getByTestId('settings-error').textContent).toBe('write settings: read-only file system');
    expect((screen.getByTestId('settings-timeout') as HTMLInputElement).value).toBe('77');
  });
});

describe('Settings API key', () => {
  it('stores a key without putting it into the settings file, and removes it again', async () => {
    const w = await setup();
    expect(screen.getByTestId('settings-auth-state').textContent).toContain('No API key stored');
    await fireEvent.input(screen.getByTestId('settings-api-key'), { target: { value: ' sk-test-123 ' } });
    await fireEvent.click(screen.getByTestId('settings-api-key-save'));
    await flush();
    expect(w.App.SaveAPIKey).toHaveBeenCalledWith('sk-test-123');
    expect(w.App.SaveSettings).not.toHaveBeenCalled();
    expect((screen.getByTestId('settings-api-key') as HTMLInputElement).value).toBe('');
    expect(screen.getByTestId('settings-auth-state').textContent).toContain('stored (keyring)');
    await fireEvent.click(screen.getByTestId('settings-sign-out'));
    await flush();
    expect(w.App.SignOut).toHaveBeenCalled();
    expect(screen.getByTestId('settings-auth-state').textContent).toContain('No API key stored');
  });
});
