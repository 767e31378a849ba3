import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import App from './App.svelte';
import { flush, installWails, type FakeWails } from './test/wails';
import { chat } from './lib/stores/chat.svelte';
import { go } from './lib/stores/router.svelte';
import example from './test/fixtures/example.theme.json';
import { repoFile } from './test/repo';

function backend(selfTestPrompt = '', selfTestActive = selfTestPrompt !== '') {
  const w = installWails({
    GetSettings: () => ({ permissionPolicy: 'ask', enterSends: false }),
    Models: () => ({ current: 'gpt-5.5', source: 'cache', models: [{ id: 'gpt-5.5', name: 'GPT-5.5', reasoningLevels: [] }] }),
    Sessions: () => ({ sessions: [], hint: '' }),
    Workspaces: () => [],
    NewBuild: (req: { turnId: string }) => ({ turnId: req.turnId, workspaceId: 'ws-st', cwd: '/data/ws-st' }),
    Theme: () => ({ theme: example, error: '', checks: [] }),
    GetAuthState: () => ({ apiKeyStored: false, store: '' }),
    AnswerPermission: () => undefined,
    SessionBar: () => ({ agentId: 'codex', agentName: 'Codex', known: false, defaults: null, modes: null, options: [{ id: 'model', category: 'model', type: 'select', currentValue: 'gpt-5.5', options: [{ value: 'gpt-5.5', name: 'GPT-5.5' }] }] }),
    CheckAgent: () => ({ ok: true, agentId: 'codex', agentName: 'Codex' }),
    Agents: () => ({ default: 'codex', agents: [{ id: 'codex', name: 'Codex', kind: 'codex' }], mcpServers: [] }),
  });
  // Go answers the self-test's events only when a script asked for it.
  if (selfTestActive) w.answer('selftest:ask', () => w.emit('selftest:plan', { active: true, prompt: selfTestPrompt }));
  return w;
}

/** The self-test reports the page sent: [kind, text]. */
function reports(w: FakeWails): unknown[][] {
  return w.sent.filter((e) => e[0] === 'selftest:report').map((e) => e.slice(1));
}

describe('App', () => {
  it('Help → Keyboard shortcuts lists the real shortcuts; File → Import theme… opens the file picker on Home', async () => {
    const w = backend();
    go({ view: 'settings' });
    render(App);
    await flush();
    w.emit('menu', { view: 'shortcuts' });
    await flush();
    const dialog = await screen.findByTestId('shortcuts-dialog');
    // Every accelerator of the native menu (app/shell/desktop.go) is listed with what it does.
    const menu = repoFile('app/shell/desktop.go');
    const accels = [...menu.matchAll(/AddText\("([^"]+)", keys\.(?:CmdOrCtrl\("(.)"\)|Combo\("(.)", keys\.CmdOrCtrlKey, keys\.ShiftKey\))/g)];
    expect(accels.length).toBeGreaterThanOrEqual(6);
    const shown = screen.getAllByTestId('shortcut').map((r) => r.textContent ?? '');
    for (const [, name, key, shifted] of accels) {
      const combo = key ? `Ctrl+${key.toUpperCase()}` : `Ctrl+Shift+${shifted.toUpperCase()}`;
      expect(shown.some((r) => r.startsWith(combo) && r.length > combo.length), `${name} (${combo})`).toBe(true);
    }
    expect(dialog.closest('[data-testid="dialog-host"]')).not.toBeNull();
    await fireEvent.click(screen.getByTestId('shortcuts-close'));
    expect(screen.queryByTestId('shortcuts-dialog')).toBeNull();

    const clicked = vi.spyOn(HTMLInputElement.prototype, 'click').mockImplementation(() => {});
    w.emit('menu', { view: 'import' });
    await flush();
    expect(screen.getByTestId('session-search')).toBeTruthy(); // on Home
    await flush();
    expect(clicked.mock.contexts.some((el) => (el as HTMLElement).dataset.testid === 'import-input')).toBe(true);
    clicked.mockRestore();
  });

  it('opens on Home and follows the native menu to another view', async () => {
    const w = backend();
    render(App);
    await flush();
    expect(screen.getByTestId('session-search')).toBeTruthy();
    w.emit('menu', { view: 'settings' });
    // Views other than Home load on first use.
    expect(await screen.findByTestId('settings-save', {}, { timeout: 10000 })).toBeTruthy();
    w.emit('menu', { view: 'no-such-view' });
    await flush();
    expect(screen.getByTestId('settings-save')).toBeTruthy();
    await fireEvent.click(screen.getByTestId('nav-new'));
    expect(await screen.findByTestId('prompt', {}, { timeout: 10000 })).toBeTruthy();
    expect(w.sent.filter((e) => e[0] === 'selftest:ask').length).toBeGreaterThan(0);
    expect(reports(w)).toEqual([]);
  });

  it('self-test without a prompt reports only the first paint (the start-up benchmark)', async () => {
    const w = backend('', true);
    render(App);
    await vi.waitFor(() => expect(reports(w)).toEqual([['paint', expect.any(String)]]), { timeout: 5000 });
    await flush();
    expect(w.bound.NewBuild).not.toHaveBeenCalled();
    expect(reports(w)).toHaveLength(1);
  });

  it('self-test: sends the prompt through New Build and reports the rendered reply', async () => {
    const w = backend('Say hello');
    render(App);
    await vi.waitFor(() => expect(w.bound.NewBuild).toHaveBeenCalledWith({ turnId: expect.any(String), prompt: 'Say hello', options: { model: 'gpt-5.5' } }), { timeout: 5000 });
    expect(reports(w)).toContainEqual(['paint', expect.any(String)]);
    expect(await screen.findByTestId('message-list', {}, { timeout: 10000 })).toBeTruthy();
    w.emit('turn', { turnId: (w.bound.NewBuild.mock.lastCall![0] as { turnId: string }).turnId, events: [{ type: 'session', sessionId: 'S' }, { type: 'text', text: 'You said: Say hello\n' }, { type: 'text', text: 'Hello from the **fake agent**.' }, { type: 'done', stopReason: 'end_turn' }] });
    await vi.waitFor(() => expect(reports(w)).toContainEqual(['reply', expect.stringContaining('Hello from the fake agent.')]), { timeout: 5000 });
  });
});

describe('permission requests outside the chat view', () => {
  it('reach the user on Home and are answered there', async () => {
    const w = backend();
    chat.stop();
    render(App);
    await flush();
    go({ view: 'home' });
    let bgTurn = '';
    await chat.startBuild('theme please', null, async (turnId) => {
      bgTurn = turnId;
      return { turnId, workspaceId: 'ws-bg', cwd: '/w', title: '' };
    });
    w.emit('turn', { turnId: bgTurn, events: [{ type: 'permission', sessionId: 'S', permission: { requestId: '7', toolCall: { toolCallId: 'c', kind: 'edit', title: 'Edit theme.json' }, options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }] } }] });
    await flush();
    expect(screen.getByTestId('session-search')).toBeTruthy();
    expect(screen.getAllByTestId('permission-dialog')).toHaveLength(1);
    await fireEvent.click(screen.getAllByTestId('permission-option')[0]);
    await flush();
    expect(w.bound.AnswerPermission).toHaveBeenCalledWith(bgTurn, '7', 'ok');
    expect(screen.queryByTestId('permission-dialog')).toBeNull();
  });
});

describe('a chat that finished in the background', () => {
  it('is announced in the sidebar, never floating over the view (where Send is)', async () => {
    const w = backend();
    chat.stop();
    render(App);
    await flush();
    go({ view: 'home' });
    let bgTurn2 = '';
    await chat.startBuild('dark harbour theme', null, async (turnId) => {
      bgTurn2 = turnId;
      return { turnId, workspaceId: 'ws-bg2', cwd: '/w', title: '' };
    });
    chat.open({ workspaceId: 'ws-other', cwd: '/o' });
    w.emit('turn', { turnId: bgTurn2, events: [{ type: 'done', stopReason: 'end_turn' }] });
    await flush();
    const toast = await screen.findByTestId('announcement');
    expect(toast.closest('nav')).not.toBeNull();
    expect(toast.closest('main')).toBeNull();
  });
});
