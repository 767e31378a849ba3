import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import SettingsView from './Settings.svelte';
import { settings } from '../lib/stores/settings.svelte';
import { flush, installWails } from '../test/wails';
import { go, router } from '../lib/stores/router.svelte';
import type { AgentList, Settings } from '../lib/types';

const agents: AgentList = {
  default: '',
  agents: [{ id: 'codex', name: 'Codex', kind: 'codex', command: '', args: [], env: {}, defaults: {}, secrets: [], pinned: '' }],
  mcpServers: [],
};

const stored: Settings = {
  codexAcpVersion: '',
  permissionPolicy: '',
  turnTimeoutSeconds: 0,
  enterSends: false,
  codexHome: '',
  language: '',
  warmConnection: undefined,
  model: 'gpt-5.5',
  reasoningEffort: 'high',
  appearance: '',
};

let keyStore = '';

async function setup(save: (s: Settings) => unknown = () => undefined, saveAgents: (l: AgentList) => unknown = () => undefined) {
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
    Agents: () => structuredClone(agents),
    SaveAgents: saveAgents,
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
    expect((screen.getByTestId('settings-theme-tools') as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByTestId('settings-allow-warning')).toBeNull();
  });

  it('warns when allow-all is chosen and saves every field', async () => {
    const w = await setup();
    await fireEvent.click(screen.getByTestId('settings-permission-allow'));
    expect(screen.getByTestId('settings-allow-warning').textContent).toContain('without asking');
    await fireEvent.input(screen.getByTestId('settings-timeout'), { target: { value: '120' } });
    await fireEvent.click(screen.getByTestId('settings-enter-sends'));
    await fireEvent.click(screen.getByTestId('settings-warm'));
    await fireEvent.click(screen.getByTestId('settings-theme-tools'));
    await fireEvent.input(screen.getByTestId('settings-codex-home'), { target: { value: '/home/dev/.codex-work' } });
    await fireEvent.change(screen.getByTestId('settings-language'), { target: { value: 'de' } });
    await fireEvent.click(screen.getByTestId('settings-save'));
    await flush();
    expect(w.bound.SaveSettings).toHaveBeenCalledWith({
      ...stored,
      permissionPolicy: 'allow',
      turnTimeoutSeconds: 120,
      enterSends: true,
      warmConnection: false,
      themeTools: false,
      codexHome: '/home/dev/.codex-work',
      language: 'de',
      appearance: '',
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
    expect(w.bound.SaveSettings).not.toHaveBeenCalled();
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
    await fireEvent.click(screen.getByTestId('settings-save'));
    await flush();
    expect(w.bound.SaveAPIKey).toHaveBeenCalledWith('sk-test-123');
    expect(w.bound.SaveSettings).not.toHaveBeenCalled();
    expect((screen.getByTestId('settings-api-key') as HTMLInputElement).value).toBe('');
    expect(screen.getByTestId('settings-auth-state').textContent).toContain('stored (keyring)');
    await fireEvent.click(screen.getByTestId('settings-sign-out'));
    await flush();
    expect(w.bound.SignOut).toHaveBeenCalled();
    expect(screen.getByTestId('settings-auth-state').textContent).toContain('No API key stored');
  });
});

describe('Settings has one Save', () => {
  it('saves settings, agents and a new key with one button, which is off while nothing changed', async () => {
    let savedAgents: AgentList | null = null;
    const w = await setup(undefined, (l) => void (savedAgents = l));
    const save = screen.getByTestId('settings-save') as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect(screen.getAllByRole('button').filter((b) => /save/i.test(b.textContent ?? ''))).toEqual([save]);
    await fireEvent.click(screen.getByTestId('settings-enter-sends'));
    await fireEvent.input(screen.getByTestId('agent-new-name'), { target: { value: 'Mine' } });
    await fireEvent.click(screen.getByTestId('agent-add'));
    // The Codex row has its own (optional) command now; the new row is the last.
    await fireEvent.input(screen.getAllByTestId('agent-command').at(-1)!, { target: { value: '/opt/acp' } });
    await fireEvent.input(screen.getByTestId('settings-api-key'), { target: { value: 'sk-one' } });
    expect(screen.getByTestId('settings-dirty').textContent).toBe('Unsaved changes');
    expect(save.disabled).toBe(false);
    await fireEvent.click(save);
    await flush();
    expect(w.bound.SaveSettings).toHaveBeenCalledWith(expect.objectContaining({ enterSends: true }));
    expect(savedAgents!.agents!.map((a) => a.command)).toEqual(['', '/opt/acp']);
    expect(w.bound.SaveAPIKey).toHaveBeenCalledWith('sk-one');
    expect(screen.getByTestId('settings-saved').textContent).toBe('Saved.');
    expect(save.disabled).toBe(true);
  });

  it('keeps the agents edits and says why when only agents.toml is refused', async () => {
    const w = await setup(undefined, () => Promise.reject('save agents: agent 2 ("x"): a custom agent needs a command'));
    await fireEvent.input(screen.getByTestId('agent-new-name'), { target: { value: 'x' } });
    await fireEvent.click(screen.getByTestId('agent-add'));
    await fireEvent.click(screen.getByTestId('settings-save'));
    await flush();
    expect(screen.getByTestId('agents-error').textContent).toContain('needs a command');
    expect(screen.getAllByTestId('agent-row')).toHaveLength(2);
    expect(screen.queryByTestId('settings-saved')).toBeNull();
    expect(w.bound.SaveSettings).not.toHaveBeenCalled();
  });
});

describe('Settings leave guard', () => {
  async function leaveWithEdit() {
    const w = await setup();
    go({ view: 'settings' });
    await fireEvent.input(screen.getByTestId('settings-codex-home'), { target: { value: '/srv/codex' } });
    go({ view: 'home' });
    await flush();
    return w;
  }

  it('asks before leaving with edits; Cancel stays with the edits', async () => {
    const w = await leaveWithEdit();
    expect(router.route.view).toBe('settings');
    expect(screen.getByTestId('leave-dialog').textContent).toContain('You have unsaved changes');
    await fireEvent.click(screen.getByTestId('leave-cancel'));
    expect(screen.queryByTestId('leave-dialog')).toBeNull();
    expect(router.route.view).toBe('settings');
    expect((screen.getByTestId('settings-codex-home') as HTMLInputElement).value).toBe('/srv/codex');
    expect(w.bound.SaveSettings).not.toHaveBeenCalled();
  });

  it('Save saves, then leaves', async () => {
    const w = await leaveWithEdit();
    await fireEvent.click(screen.getByTestId('leave-save'));
    await flush();
    expect(w.bound.SaveSettings).toHaveBeenCalledWith(expect.objectContaining({ codexHome: '/srv/codex' }));
    expect(router.route.view).toBe('home');
  });

  it('Discard leaves without saving and drops the edits', async () => {
    const w = await leaveWithEdit();
    await fireEvent.click(screen.getByTestId('leave-discard'));
    await flush();
    expect(w.bound.SaveSettings).not.toHaveBeenCalled();
    expect(router.route.view).toBe('home');
    expect(settings.value.codexHome ?? '').toBe('');
  });

  it('a failed save stays on the page with the error', async () => {
    await setup(() => Promise.reject('write settings: read-only file system'));
    go({ view: 'settings' });
    await fireEvent.input(screen.getByTestId('settings-codex-home'), { target: { value: '/srv/codex' } });
    go({ view: 'new' });
    await flush();
    await fireEvent.click(screen.getByTestId('leave-save'));
    await flush();
    expect(router.route.view).toBe('settings');
    expect(screen.getByTestId('settings-error').textContent).toContain('read-only');
  });

  it('leaves without asking when nothing changed', async () => {
    await setup();
    go({ view: 'settings' });
    go({ view: 'home' });
    await flush();
    expect(screen.queryByTestId('leave-dialog')).toBeNull();
    expect(router.route.view).toBe('home');
  });
});

describe('Settings appearance', () => {
  it('previews Light/Dark at once, saves the choice, and Discard puts the stored one back', async () => {
    const w = await setup();
    const root = document.documentElement;
    expect(root.dataset.appearance).toBeUndefined();
    await fireEvent.click(screen.getByTestId('settings-appearance-dark'));
    expect(root.dataset.appearance).toBe('dark');
    await fireEvent.click(screen.getByTestId('settings-discard'));
    await flush();
    expect(root.dataset.appearance).toBeUndefined();
    await fireEvent.click(screen.getByTestId('settings-appearance-light'));
    await fireEvent.click(screen.getByTestId('settings-save'));
    await flush();
    expect(w.bound.SaveSettings).toHaveBeenCalledWith(expect.objectContaining({ appearance: 'light' }));
    expect(root.dataset.appearance).toBe('light');
    await fireEvent.click(screen.getByTestId('settings-appearance-system'));
    await fireEvent.click(screen.getByTestId('settings-save'));
    await flush();
    expect(root.dataset.appearance).toBeUndefined();
  });
});

describe('Settings › Template folders', () => {
  it('adds a folder the user picks and removes one; Save stores the list', async () => {
    const w = await setup();
    w.bound.ChooseFolder.mockImplementation(async () => '/home/dev/tinted-fzf');
    expect(screen.getByTestId('templates-none')).toBeTruthy();
    await fireEvent.click(screen.getByTestId('template-add'));
    await flush();
    w.bound.ChooseFolder.mockImplementation(async () => '/home/dev/tinted-vim');
    await fireEvent.click(screen.getByTestId('template-add'));
    await flush();
    expect(screen.getAllByTestId('template-folder').map((e) => e.textContent)).toEqual(['/home/dev/tinted-fzf', '/home/dev/tinted-vim']);
    expect(screen.getByTestId('settings-dirty')).toBeTruthy();
    await fireEvent.click(screen.getAllByTestId('template-remove')[0]);
    await fireEvent.click(screen.getByTestId('settings-save'));
    await flush();
    expect(w.bound.SaveSettings).toHaveBeenCalledTimes(1);
    expect(w.bound.SaveSettings.mock.calls[0][0].templateFolders).toEqual(['/home/dev/tinted-vim']);
  });

  it('a cancelled folder dialog adds nothing', async () => {
    const w = await setup();
    w.bound.ChooseFolder.mockImplementation(async () => '');
    await fireEvent.click(screen.getByTestId('template-add'));
    await flush();
    expect(screen.queryByTestId('template-folder')).toBeNull();
    expect(screen.queryByTestId('settings-dirty')).toBeNull();
  });
});
