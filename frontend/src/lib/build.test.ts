// startBuild, the one path from New build's Send (and the self-test) to a
// running chat: the real stores and api.ts over the fake Wails bridge.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBuild } from './build';
import { isRunning } from './chatReducer';
import { buildBar } from './stores/buildbar.svelte';
import { chat } from './stores/chat.svelte';
import { models } from './stores/models.svelte';
import { buildNames } from './stores/names.svelte';
import { go, router } from './stores/router.svelte';
import { flush, installWails, uninstallWails } from '../test/wails';

const bar = {
  agentId: 'codex',
  agentName: 'Codex',
  known: true,
  modes: null,
  options: [
    { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'read-only', options: [{ value: 'read-only', name: 'Read-only' }, { value: 'agent', name: 'Auto review' }] },
    { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'gpt-5.5', options: [{ value: 'gpt-5.5', name: 'GPT-5.5' }, { value: 'mini', name: 'Mini' }] },
  ],
};

const res = { turnId: 'nb-3', workspaceId: 'ws-3', cwd: '/data/theme_builder/ws-3', title: 'Warm light' };

/** The fake Go side, and the chat store following its events as the app's start does. */
function backend(impl: Parameters<typeof installWails>[0]) {
  const w = installWails(impl);
  chat.stop();
  chat.start();
  return w;
}

beforeEach(() => {
  buildBar.bar = null;
  buildBar.options = [];
  go({ view: 'home' });
});
afterEach(() => {
  chat.stop();
  uninstallWails();
});

describe('startBuild', () => {
  it('asks for the bar when New build never loaded it, starts the build with its values and opens the running chat', async () => {
    let busyDuring = false;
    const w = backend({
      SessionBar: () => structuredClone(bar),
      NewBuild: (req: { turnId: string }) => {
        busyDuring = models.busyReasons.includes('generate');
        return { ...res, turnId: req.turnId };
      },
    });
    await startBuild('a warm light theme');
    expect(w.bound.SessionBar).toHaveBeenCalledTimes(1);
    expect(w.bound.NewBuild).toHaveBeenCalledWith({ turnId: expect.stringMatching(/^t-[0-9a-f]{16}$/), prompt: 'a warm light theme', options: { mode: 'read-only', model: 'gpt-5.5' } });
    const turnId = (w.bound.NewBuild.mock.lastCall![0] as { turnId: string }).turnId;
    // The model menu is locked while the build starts; then the running turn holds it.
    expect(busyDuring).toBe(true);
    expect(models.busyReasons).not.toContain('generate');
    expect(buildNames.of('ws-3')).toBe('Warm light');
    expect(router.route).toEqual({ view: 'chat', workspaceId: 'ws-3', cwd: '/data/theme_builder/ws-3' });
    expect(chat.state.workspaceId).toBe('ws-3');
    expect(chat.state.cwd).toBe('/data/theme_builder/ws-3');
    expect(isRunning(chat.state)).toBe(true);
    // The chat starts with the bar the build was started with.
    expect(chat.state.configOptions.find((o) => o.id === 'mode')?.currentValue).toBe('read-only');
    // The prompt is the chat's first message, and the turn's events land in it.
    w.emit('turn', { turnId, events: [{ type: 'text', text: 'On it.' }, { type: 'done', stopReason: 'end_turn' }] });
    await flush();
    expect(chat.state.items.map((i) => ('text' in i ? i.text : i.kind))).toEqual(['a warm light theme', 'On it.']);
    expect(isRunning(chat.state)).toBe(false);
    expect(models.busy).toBe(false);
  });

  it('keeps the values chosen on a loaded bar instead of asking again', async () => {
    const w = backend({ SessionBar: () => structuredClone(bar), NewBuild: () => ({ ...res, workspaceId: 'ws-4', cwd: '/data/theme_builder/ws-4' }) });
    await buildBar.load();
    buildBar.set('mode', 'agent');
    await startBuild('x');
    expect(w.bound.SessionBar).toHaveBeenCalledTimes(1);
    expect(w.bound.NewBuild).toHaveBeenCalledWith({ turnId: expect.any(String), prompt: 'x', options: { mode: 'agent', model: 'gpt-5.5' } });
    expect(chat.state.configOptions.find((o) => o.id === 'mode')?.currentValue).toBe('agent');
  });

  it('a build that cannot start stays on New build with nothing opened and the menu unlocked', async () => {
    backend({ SessionBar: () => structuredClone(bar), NewBuild: () => Promise.reject('agent not found') });
    go({ view: 'new' });
    const before = chat.state;
    await expect(startBuild('x')).rejects.toBe('agent not found');
    expect(models.busyReasons).not.toContain('generate');
    expect(router.route).toEqual({ view: 'new' });
    expect(chat.state).toBe(before);
  });
});
