import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import NewBuild from './NewBuild.svelte';
import { chat } from '../lib/stores/chat.svelte';
import { models } from '../lib/stores/models.svelte';
import { router } from '../lib/stores/router.svelte';
import { flush, installWails } from '../test/wails';
import { isRunning } from '../lib/chatReducer';

const modelList = { current: 'gpt-5.5', source: 'cache', models: [{ id: 'gpt-5.5', name: 'GPT-5.5', defaultReasoningLevel: 'medium', reasoningLevels: [{ effort: 'low' }, { effort: 'medium' }, { effort: 'high' }] }, { id: 'mini', name: 'Mini', defaultReasoningLevel: 'low', reasoningLevels: [{ effort: 'low' }] }] };

// What Go's SessionBar answers for a new build: a fresh Codex session's
// options with the agent's defaults applied.
const bar = {
  agentId: 'codex',
  agentName: 'Codex',
  known: true,
  defaults: { mode: 'read-only' },
  modes: null,
  options: [
    { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'read-only', options: [{ value: 'read-only', name: 'Read-only' }, { value: 'agent', name: 'Auto review' }, { value: 'agent-full-access', name: 'Full access' }] },
    { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'gpt-5.5', options: [{ value: 'gpt-5.5', name: 'GPT-5.5' }, { value: 'mini', name: 'Mini' }] },
    { id: 'reasoning_effort', name: 'Reasoning effort', category: 'thought_level', type: 'select', currentValue: 'medium', options: [{ value: 'low', name: 'low' }, { value: 'medium', name: 'medium' }, { value: 'high', name: 'high' }, { value: 'xhigh', name: 'xhigh' }, { value: 'turbo-max', name: 'turbo-max' }] },
    { id: 'fast-mode', name: 'Model settings', category: 'model_config', type: 'select', currentValue: 'off', options: [{ value: 'off', name: 'Off' }, { value: 'on', name: 'On' }] },
  ],
};

function backend(extra: Record<string, (...a: any[]) => unknown> = {}) {
  return installWails({
    Models: () => modelList,
    SessionBar: () => structuredClone(bar),
    CheckAgent: () => ({ ok: true, agentId: 'codex', agentName: 'Codex' }),
    Agents: () => ({ default: 'codex', agents: [{ id: 'codex', name: 'Codex', kind: 'codex' }], mcpServers: [] }),
    NewBuild: (req: { turnId: string }) => ({ turnId: req.turnId, workspaceId: 'ws-7', cwd: '/data/theme_builder/ws-7' }),
    SaveBuildDefaults: () => undefined,
    ...extra,
  });
}

const select = (id: string) => screen.getByTestId('session-bar').querySelector<HTMLSelectElement>(`[data-config-id="${id}"] select`)!;

describe('New Build', () => {
  it('names the command CDXTHEME_AGENT runs instead of offering agents it will not start', async () => {
    backend({
      SessionBar: () => ({ ...structuredClone(bar), agentName: '/opt/qwen --acp', fixed: true }),
      Agents: () => ({ default: 'codex', agents: [{ id: 'codex', name: 'Codex', kind: 'codex' }, { id: 'claude', name: 'Claude Code', kind: 'claude' }], mcpServers: [] }),
    });
    chat.stop();
    chat.start();
    render(NewBuild);
    await flush();
    expect(screen.queryByTestId('agent-picker')).toBeNull();
    expect(screen.getByTestId('bar-agent').textContent).toContain('/opt/qwen --acp');
    expect(screen.getByTestId('bar-agent').textContent).not.toContain('Codex');
  });

  it('shows the whole session bar before the first message and starts the build with its values', async () => {
    const w = backend();
    chat.stop();
    chat.start();
    await models.load();
    render(NewBuild);
    await flush();
    expect(document.activeElement).toBe(screen.getByTestId('prompt'));
    // Known Codex options under plain names; efforts from one map, unknown ones title-cased.
    const bartext = screen.getByTestId('session-bar').textContent ?? '';
    expect(bartext).toContain('Fast mode');
    expect(bartext).not.toContain('Model settings');
    expect([...select('reasoning_effort').options].map((o) => o.textContent)).toEqual(['Low', 'Medium', 'High', 'Extra high', 'Turbo max']);
    expect(select('mode').value).toBe('read-only');
    await fireEvent.change(select('reasoning_effort'), { target: { value: 'high' } });
    // A model switch puts the effort to the new model's default.
    await fireEvent.change(select('model'), { target: { value: 'mini' } });
    expect(select('reasoning_effort').value).toBe('low');
    await fireEvent.change(select('mode'), { target: { value: 'agent-full-access' } });
    await fireEvent.input(screen.getByTestId('prompt'), { target: { value: 'a warm light theme' } });
    await fireEvent.click(screen.getByTestId('send'));
    await flush();
    expect(w.bound.NewBuild).toHaveBeenCalledWith({ turnId: expect.stringMatching(/^t-[0-9a-f]{16}$/), prompt: 'a warm light theme', options: { mode: 'agent-full-access', model: 'mini', reasoning_effort: 'low', 'fast-mode': 'off' } });
    // Choosing a value here is not making it the default.
    expect(w.bound.SaveBuildDefaults).not.toHaveBeenCalled();
    expect(router.route).toEqual({ view: 'chat', workspaceId: 'ws-7', cwd: '/data/theme_builder/ws-7' });
    expect(chat.state.workspaceId).toBe('ws-7');
    expect(isRunning(chat.state)).toBe(true);
    expect(chat.state.optionsSource).toBe('requested');
    w.emit('turn', { turnId: (w.bound.NewBuild.mock.lastCall![0] as { turnId: string }).turnId, events: [{ type: 'text', text: 'On it.' }, { type: 'done', stopReason: 'end_turn' }] });
    expect(chat.state.items.map((i) => ('text' in i ? i.text : i.kind))).toEqual(['a warm light theme', 'On it.']);
  });

  it('"Use as default for new builds" saves the bar, explicitly', async () => {
    const w = backend();
    render(NewBuild);
    await flush();
    await fireEvent.change(select('mode'), { target: { value: 'agent' } });
    await fireEvent.click(screen.getByTestId('bar-default'));
    await flush();
    expect(w.bound.SaveBuildDefaults).toHaveBeenCalledWith('codex', { mode: 'agent', model: 'gpt-5.5', reasoning_effort: 'medium', 'fast-mode': 'off' });
    expect(screen.getByTestId('bar-default-note').textContent).toContain('default');
  });

  it('says the agent is missing before anything is sent, with Open Settings, and keeps the prompt when starting fails', async () => {
    const w = backend({
      CheckAgent: () => ({ ok: false, agentId: 'codex', agentName: 'Codex', code: 'agent_missing', detail: 'no ACP agent found; tried: codex-acp on PATH: not found. Fix: install codex-acp (or --agent / CDXTHEME_AGENT)' }),
      NewBuild: () => Promise.reject('agent not found'),
    });
    render(NewBuild);
    await flush();
    const box = screen.getByTestId('agent-missing');
    expect(box.textContent).toContain('Codex could not be started');
    expect(box.textContent).toContain('codex-acp on PATH: not found');
    expect(box.textContent).not.toMatch(/CDXTHEME_AGENT|--agent/);
    await fireEvent.input(screen.getByTestId('prompt'), { target: { value: 'retro amber' } });
    await fireEvent.keyDown(screen.getByTestId('prompt'), { key: 'Enter', ctrlKey: true });
    await flush();
    expect(screen.getAllByTestId('error-box').map((e) => e.textContent).join(' ')).toContain('agent not found');
    expect((screen.getByTestId('prompt') as HTMLTextAreaElement).value).toBe('retro amber');
    // Retry starts again with the kept prompt.
    await fireEvent.click(screen.getByTestId('retry'));
    await flush();
    expect(w.bound.NewBuild).toHaveBeenCalledTimes(2);
    expect(w.bound.NewBuild).toHaveBeenLastCalledWith(expect.objectContaining({ prompt: 'retro amber' }));
    await fireEvent.click(box.querySelector('[data-testid=error-action]')!);
    expect(router.route).toEqual({ view: 'settings' });
  });

  it('starts the agent when the view opens and gives it up when it closes unused', async () => {
    const w = installWails({ Models: () => modelList, Prewarm: () => undefined, Release: () => undefined });
    await models.load();
    const view = render(NewBuild);
    await flush();
    expect(w.bound.Prewarm).toHaveBeenCalledWith({ workspaceId: '', sessionId: '', cwd: '' });
    expect(w.bound.Release).not.toHaveBeenCalled();
    view.unmount();
    await flush();
    expect(w.bound.Release).toHaveBeenCalledWith({ workspaceId: '', sessionId: '', cwd: '' });
  });

  it('shows nothing when the pre-warm fails', async () => {
    installWails({ Models: () => modelList, Prewarm: () => Promise.reject('no agent'), Release: () => undefined });
    await models.load();
    render(NewBuild);
    await flush();
    expect(screen.queryByTestId('error-box')).toBeNull();
  });

  it("shows the pre-warmed agent's own options, mode included, before the first message", async () => {
    // An agent not asked yet: no options (never Codex's); then its pre-warm reports.
    let known = false;
    const own = {
      agentId: 'gem',
      agentName: 'Gem',
      defaults: null,
      options: [{ id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'gemini-pro', options: [{ value: 'gemini-pro', name: 'Gemini Pro' }, { value: 'gemini-flash', name: 'Gemini Flash' }] }],
      modes: { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }, { id: 'yolo', name: 'YOLO' }] },
    };
    const w = installWails({
      Models: () => modelList,
      SessionBar: () => (known ? { ...structuredClone(own), known: true } : { agentId: 'gem', agentName: 'Gem', known: false, defaults: null, modes: null, options: [] }),
      CheckAgent: () => ({ ok: true, agentId: 'gem', agentName: 'Gem' }),
      Agents: () => ({ default: 'gem', agents: [{ id: 'gem', name: 'Gem', kind: 'custom' }], mcpServers: [] }),
      Prewarm: () => undefined,
      Release: () => undefined,
    });
    await models.load();
    render(NewBuild);
    await flush();
    const bar = () => screen.getByTestId('session-bar');
    expect(bar().querySelector('[data-config-id="model"]')).toBeNull();
    known = true;
    w.emit('agent-options', { agentId: 'other' });
    await flush();
    expect(bar().querySelector('[data-config-id="model"]')).toBeNull();
    w.emit('agent-options', { agentId: 'gem' });
    await flush();
    expect([...select('model').options].map((o) => o.textContent)).toEqual(['Gemini Pro', 'Gemini Flash']);
    expect(bar().textContent).toContain('YOLO');
  });

  it("switching agents shows only the chosen agent's own values, asking meanwhile", async () => {
    // Codex has reported; Gem has not, and reports while its bar is being read.
    const gem = {
      agentId: 'gem',
      agentName: 'Gem',
      defaults: null,
      options: [{ id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'gemini-pro', options: [{ value: 'gemini-pro', name: 'Gemini Pro' }, { value: 'gemini-flash', name: 'Gemini Flash' }] }],
      modes: { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Default' }, { id: 'yolo', name: 'YOLO' }] },
    };
    let chosen = 'codex';
    let gemKnown = false;
    let saved: () => void = () => {};
    let read: (() => void) | null = null;
    const w = installWails({
      Models: () => modelList,
      CheckAgent: () => ({ ok: true, agentId: chosen, agentName: chosen }),
      Agents: () => ({ default: chosen, agents: [{ id: 'codex', name: 'Codex', kind: 'codex' }, { id: 'gem', name: 'Gem', kind: 'custom' }], mcpServers: [] }),
      SetBuildAgent: (id: string) =>
        new Promise<void>((done) => {
          saved = () => {
            chosen = id;
            done();
          };
        }),
      SessionBar: () => {
        if (chosen === 'codex') return structuredClone(bar);
        // Go reads the bar before the report lands; the answer comes after it.
        const unknown = { agentId: 'gem', agentName: 'Gem', known: false, defaults: null, modes: null, options: [] };
        if (gemKnown) return { ...structuredClone(gem), known: true };
        return new Promise((done) => (read = () => done(unknown)));
      },
      Prewarm: () => undefined,
      Release: () => undefined,
      SaveBuildDefaults: () => undefined,
    });
    await models.load();
    render(NewBuild);
    await flush();
    const sessionBar = () => screen.getByTestId('session-bar');
    const shownIds = () => [...sessionBar().querySelectorAll('[data-testid=bar-option]')].map((o) => o.getAttribute('data-config-id'));
    expect(shownIds()).toEqual(expect.arrayContaining(['mode', 'model', 'reasoning_effort']));
    await fireEvent.change(screen.getByTestId('agent-picker'), { target: { value: 'gem' } });
    await flush();
    // While Go takes the choice: none of Codex's values, and a word that it is asking.
    expect(shownIds()).toEqual([]);
    expect(sessionBar().textContent).not.toContain('GPT-5.5');
    expect(sessionBar().getAttribute('aria-busy')).toBe('true');
    expect(screen.getByTestId('bar-note').textContent).toContain('Connecting');
    expect((screen.getByTestId('bar-default') as HTMLButtonElement).disabled).toBe(true);
    saved();
    await flush();
    expect(shownIds()).toEqual([]);
    // Gem's pre-warm reports while its bar is on the way.
    gemKnown = true;
    w.emit('agent-options', { agentId: 'gem' });
    read!();
    await flush();
    expect([...select('model').options].map((o) => o.textContent)).toEqual(['Gemini Pro', 'Gemini Flash']);
    expect(sessionBar().textContent).toContain('YOLO');
    expect(shownIds()).not.toContain('reasoning_effort');
    expect(sessionBar().getAttribute('aria-busy')).toBe('false');
  });

  it('a refused agent choice brings back the bar of the agent new builds still use', async () => {
    let chosen = 'codex';
    installWails({
      Models: () => modelList,
      CheckAgent: () => ({ ok: true, agentId: chosen, agentName: chosen }),
      Agents: () => ({ default: chosen, agents: [{ id: 'codex', name: 'Codex', kind: 'codex' }, { id: 'gem', name: 'Gem', kind: 'custom' }], mcpServers: [] }),
      SetBuildAgent: () => Promise.reject('choose agent gem: write failed'),
      SessionBar: () => structuredClone(bar),
      Prewarm: () => undefined,
      Release: () => undefined,
    });
    await models.load();
    render(NewBuild);
    await flush();
    await fireEvent.change(screen.getByTestId('agent-picker'), { target: { value: 'gem' } });
    await flush();
    expect((screen.getByTestId('agent-picker') as HTMLSelectElement).value).toBe('codex');
    expect(select('model').value).toBe('gpt-5.5');
    expect(screen.getByTestId('session-bar').getAttribute('aria-busy')).toBe('false');
  });

  it("an answer about the previous agent that comes late is not shown, and a message sent meanwhile waits for the chosen agent's values", async () => {
    let chosen = 'codex';
    let late: (() => void) | null = null;
    const gem = { agentId: 'gem', agentName: 'Gem', known: true, defaults: null, modes: null, options: [{ id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'gemini-pro', options: [{ value: 'gemini-pro', name: 'Gemini Pro' }] }] };
    const w = installWails({
      Models: () => modelList,
      CheckAgent: () => ({ ok: true, agentId: chosen, agentName: chosen }),
      Agents: () => ({ default: chosen, agents: [{ id: 'codex', name: 'Codex', kind: 'codex' }, { id: 'gem', name: 'Gem', kind: 'custom' }], mcpServers: [] }),
      SetBuildAgent: (id: string) => {
        chosen = id;
      },
      // Codex's bar is slow to come; Gem's comes at once.
      SessionBar: () => (chosen === 'codex' ? new Promise((done) => (late = () => done(structuredClone(bar)))) : structuredClone(gem)),
      NewBuild: (req: { turnId: string }) => ({ turnId: req.turnId, workspaceId: 'ws-8', cwd: '/data/theme_builder/ws-8' }),
      Prewarm: () => undefined,
      Release: () => undefined,
    });
    await models.load();
    render(NewBuild);
    await flush();
    const picked = fireEvent.change(screen.getByTestId('agent-picker'), { target: { value: 'gem' } });
    await fireEvent.input(screen.getByTestId('prompt'), { target: { value: 'a warm light theme' } });
    await fireEvent.click(screen.getByTestId('send'));
    await picked;
    await flush();
    late!();
    await flush();
    expect([...select('model').options].map((o) => o.textContent)).toEqual(['Gemini Pro']);
    expect(screen.getByTestId('session-bar').querySelector('[data-config-id="reasoning_effort"]')).toBeNull();
    expect(w.bound.NewBuild).toHaveBeenCalledWith(expect.objectContaining({ prompt: 'a warm light theme', options: { model: 'gemini-pro' } }));
  });

  it("a report the pre-warmed agent sends now replaces the one remembered from before, keeping what the user chose here", async () => {
    // The bar starts from Codex's report of an earlier run; this run's pre-warm reports a model more.
    let now = false;
    const w = backend({
      SessionBar: () => {
        const b = structuredClone(bar);
        if (now) (b.options[1].options as { value: string; name: string }[]).push({ value: 'gpt-6', name: 'GPT-6' });
        return b;
      },
      Prewarm: () => undefined,
      Release: () => undefined,
    });
    await models.load();
    render(NewBuild);
    await flush();
    await fireEvent.change(select('mode'), { target: { value: 'agent' } });
    now = true;
    w.emit('agent-options', { agentId: 'codex' });
    await flush();
    expect([...select('model').options].map((o) => o.value)).toEqual(['gpt-5.5', 'mini', 'gpt-6']);
    expect(select('mode').value).toBe('agent');
  });
});
