import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import Chat from './Chat.svelte';
import { chat } from '../lib/stores/chat.svelte';
import { models } from '../lib/stores/models.svelte';
import { flush, installWails, type FakeWails } from '../test/wails';
import example from '../test/fixtures/example.theme.json';
import fixture from '../test/fixtures/turn-events.json';
import type { ChatEvent } from '../lib/types';

const contrast = [
  { fg: '#8b96aa', bg: '#1f2430', fgRole: 'syntax.comment', bgRole: 'ui.surface', ratio: 4.2, aa: false, aaa: false, aaLarge: true },
  { fg: '#d8dee9', bg: '#161a24', fgRole: 'ui.text', bgRole: 'ui.background', ratio: 13.1, aa: true, aaa: true, aaLarge: true },
];

let w: FakeWails;
let n = 0;
let ws = '';

beforeEach(async () => {
  w = installWails({
    Models: () => ({ current: 'gpt-5.5', source: 'cache', models: [{ id: 'gpt-5.5', name: 'GPT-5.5', defaultReasoningLevel: 'medium', reasoningLevels: [{ effort: 'low' }, { effort: 'medium' }] }, { id: 'mini', name: 'Mini', reasoningLevels: [] }] }),
    Send: (req: { turnId: string }) => req.turnId,
    Cancel: () => undefined,
    AnswerPermission: () => undefined,
    Theme: () => ({ theme: example, error: '', checks: contrast }),
    EditorState: () => ({ roles: [], changed: [], canUndo: false, canRedo: false, undoLabel: '', redoLabel: '' }),
    Workspaces: () => [],
    SessionBar: () => ({ agentId: 'codex', agentName: 'Codex', known: false, defaults: null, modes: null, options: [] }),
    CheckAgent: () => ({ ok: true, agentId: 'codex', agentName: 'Codex' }),
    OpenChat: () => 'open-1',
    ChatHistory: () => ({ source: 'agent', messages: [], offset: 0, total: 0 }),
    SetSessionOption: () => ({ applied: true, configOptions: null }),
    SaveBuildDefaults: () => undefined,
    Artifacts: () => [],
  });
  chat.stop();
  chat.start();
  await models.load();
  n++;
  ws = `ws-${n}`;
});

/** The id the chat chose for the turn it sent last. */
function sent(): string {
  return (w.bound.Send.mock.lastCall![0] as { turnId: string }).turnId;
}

async function sendPrompt(text: string) {
  const box = screen.getByTestId('prompt');
  await fireEvent.input(box, { target: { value: text } });
  await fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true });
  await flush();
}

describe('Chat view', () => {
  it('streams a real turn: messages, tool card with terminal output, permission dialog answered by kind', async () => {
    render(Chat, { props: { workspaceId: ws, cwd: '/home/dev/themes/work' } });
    await sendPrompt('run echo');
    expect(w.bound.Send).toHaveBeenCalledWith({ turnId: expect.stringMatching(/^t-[0-9a-f]{16}$/), workspaceId: ws, sessionId: '', cwd: '/home/dev/themes/work', prompt: 'run echo' });
    expect(screen.getByTestId('turn-status').textContent).toContain('0:0');
    expect(screen.getByTestId('stop')).toBeTruthy();

    const events = fixture.events as ChatEvent[];
    const permIdx = events.findIndex((e) => e.type === 'permission');
    w.emit('turn', { turnId: sent(), events: events.slice(0, permIdx + 1) });
    await flush();

    const cards = screen.getAllByTestId('tool-card');
    // The permission's toolCall is a ToolCallUpdate (ACP): the asked-about call shows as pending.
    expect(cards.map((c) => c.dataset.status)).toEqual(['completed', 'pending']);
    // A completed card is folded to its head; opened, it shows the shell's output.
    expect(cards[0].querySelector('[data-testid=tool-terminal]')).toBeNull();
    await fireEvent.click(cards[0].querySelector('button.head') as HTMLElement);
    expect(cards[0].querySelector('[data-testid=tool-terminal]')?.textContent).toBe('hello-from-shell\n');
    expect(cards[0].querySelector('[data-testid=tool-exit]')?.textContent).toContain('0');
    expect(screen.getByTestId('plan')).toBeTruthy();

    const dialog = screen.getByTestId('permission-dialog');
    expect(dialog.textContent).toContain('touch /home/dev/themes/outside.txt');
    const reject = screen.getAllByTestId('permission-option').find((b) => b.dataset.kind === 'reject_once')!;
    await fireEvent.click(reject);
    await flush();
    expect(w.bound.AnswerPermission).toHaveBeenCalledWith(sent(), '0', 'cancel');
    expect(screen.queryByTestId('permission-dialog')).toBeNull();

    w.emit('turn', { turnId: sent(), events: events.slice(permIdx + 1) });
    await flush();
    const msgs = screen.getAllByTestId('message');
    const last = msgs.filter((m) => m.dataset.role === 'assistant').pop()!;
    expect(last.querySelector('strong')?.textContent).toBe('Codex');
    expect(screen.getByTestId('usage').textContent).toContain('132');
    expect(screen.getByTestId('send')).toBeTruthy();
    expect(screen.queryByTestId('turn-status')).toBeNull();
  });

  it('one session bar: the agent\'s values, locked during a turn, and the values after every follow-up are the agent\'s last word', async () => {
    const opts = (mode: string, effort: string) => ({
      configOptions: [
        { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: mode, options: [{ value: 'agent', name: 'Auto review' }, { value: 'agent-full-access', name: 'Full access' }] },
        { id: 'reasoning_effort', name: 'Reasoning effort', category: 'thought_level', type: 'select', currentValue: effort, options: [{ value: 'medium', name: 'Medium' }, { value: 'high', name: 'High' }] },
      ],
    });
    render(Chat, { props: { workspaceId: ws, cwd: '/w' } });
    await sendPrompt('first');
    const sel = (id: string) => screen.getByTestId('session-bar').querySelector<HTMLSelectElement>(`[data-config-id="${id}"] select`)!;
    w.emit('turn', { turnId: sent(), events: [{ type: 'session', sessionId: 'S', setup: opts('agent', 'medium') }] });
    await flush();
    expect(screen.getAllByTestId('session-bar')).toHaveLength(1);
    expect(screen.queryByTestId('model-menu')).toBeNull();
    expect(sel('mode').disabled).toBe(true);
    w.emit('turn', { turnId: sent(), events: [{ type: 'config_options', ...opts('agent-full-access', 'high') }, { type: 'done', sessionId: 'S', stopReason: 'end_turn' }] });
    await flush();
    expect(sel('mode').disabled).toBe(false);
    expect([sel('mode').value, sel('reasoning_effort').value]).toEqual(['agent-full-access', 'high']);
    expect(sel('mode').selectedOptions[0].textContent).toBe('Full access');

    await sendPrompt('follow-up');
    w.emit('turn', { turnId: sent(), events: [{ type: 'session', sessionId: 'S', setup: opts('agent-full-access', 'high') }, { type: 'done', sessionId: 'S', stopReason: 'end_turn' }] });
    await flush();
    expect([sel('mode').value, sel('reasoning_effort').value]).toEqual(['agent-full-access', 'high']);

    await fireEvent.click(screen.getByTestId('bar-default'));
    await flush();
    expect(w.bound.SaveBuildDefaults).toHaveBeenCalledWith('codex', { mode: 'agent-full-access', reasoning_effort: 'high' });
    expect(document.activeElement).toBe(screen.getByTestId('prompt'));
  });

  it('shows the agent\'s retry notice in the status line and, after 30 s of silence, offers Stop', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      render(Chat, { props: { workspaceId: ws } });
      await sendPrompt('hello');
      w.emit('turn', { turnId: sent(), events: [{ type: 'status', status: { message: 'Reconnecting... waiting for network', details: 'Connection failed: error sending request', retrying: true } }] });
      await flush();
      expect(screen.getByTestId('turn-agent-status').textContent).toBe('Reconnecting... waiting for network — Connection failed: error sending request');
      expect(screen.queryByTestId('stall-notice')).toBeNull();
      await vi.advanceTimersByTimeAsync(31_000);
      expect(screen.getByTestId('stall-notice').textContent).toContain('No answer from the agent for 3');
      expect(screen.getByTestId('turn-elapsed').textContent).toBe('0:31');
      await fireEvent.click(screen.getByTestId('stall-wait'));
      expect(screen.queryByTestId('stall-notice')).toBeNull();
      await vi.advanceTimersByTimeAsync(31_000);
      await fireEvent.click(screen.getByTestId('stall-stop'));
      await flush();
      expect(w.bound.Cancel).toHaveBeenCalledWith(sent());
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows an agent crash with its stderr and retries the same prompt', async () => {
    render(Chat, { props: { workspaceId: ws } });
    await sendPrompt('crash please');
    w.emit('turn', { turnId: sent(), events: [{ type: 'text', text: 'Hel' }, { type: 'error', code: 'agent_exit', text: 'agent exited with status 3', stderr: ['fatal: simulated crash'], agent: '/usr/bin/codex-acp (found on PATH)' }] });
    await flush();
    const box = screen.getByTestId('error-box');
    expect(box.textContent).toContain('The agent stopped unexpectedly');
    expect(box.textContent).toContain('agent exited with status 3');
    expect(screen.getByTestId('error-stderr').textContent).toBe('fatal: simulated crash');
    await fireEvent.click(screen.getByTestId('retry'));
    await flush();
    expect(w.bound.Send).toHaveBeenCalledTimes(2);
    expect(w.bound.Send).toHaveBeenLastCalledWith(expect.objectContaining({ prompt: 'crash please' }));
  });

  it('shows a failed model server (HTTP 500) as an error naming the server, with a Retry that sends the same prompt once', async () => {
    render(Chat, { props: { workspaceId: ws } });
    await sendPrompt('make it teal');
    const said = 'unexpected status 500 Internal Server Error: upstream failed';
    w.emit('turn', { turnId: sent(), events: [{ type: 'error', code: 'model_server', text: `the agent got no answer from its model server: ${said}`, server: 'Mock Responses (http://127.0.0.1:9/v1)', status: { message: said }, sessionId: 'S' }] });
    await flush();
    const list = screen.getByTestId('message-list');
    expect(list.querySelector('[data-role=assistant]')).toBeNull();
    const box = within(list).getByTestId('error-box');
    expect(box.textContent).toContain('The agent got no answer from its model server, Mock Responses (http://127.0.0.1:9/v1). It said: ' + said);
    await fireEvent.click(within(box).getByTestId('retry'));
    await flush();
    expect(w.bound.Send).toHaveBeenCalledTimes(2);
    expect(w.bound.Send).toHaveBeenLastCalledWith(expect.objectContaining({ prompt: 'make it teal' }));
  });

  it('Esc in the permission dialog does what its button says: stops the turn', async () => {
    render(Chat, { props: { workspaceId: ws } });
    await sendPrompt('run it');
    w.emit('turn', { turnId: sent(), events: [{ type: 'permission', sessionId: 'S', permission: { requestId: '0', toolCall: { toolCallId: 'c1', kind: 'execute', title: 'ls' }, options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }, { optionId: 'n', name: 'No', kind: 'reject_once' }] } }] });
    await flush();
    const dialog = screen.getByTestId('permission-dialog');
    expect(screen.getByTestId('permission-cancel').textContent).toContain('Stop the turn');
    await fireEvent.keyDown(dialog, { key: 'Escape' });
    await flush();
    expect(w.bound.AnswerPermission).toHaveBeenCalledWith(sent(), '0', '');
    // Once: the window's Esc handler does not stop it a second time.
    expect(w.bound.Cancel.mock.calls.filter((c) => c[0] === sent())).toHaveLength(1);
  });

  it('Esc anywhere cancels the running turn', async () => {
    render(Chat, { props: { workspaceId: ws } });
    await sendPrompt('slow');
    await fireEvent.keyDown(window, { key: 'Escape' });
    await flush();
    expect(w.bound.Cancel).toHaveBeenCalledWith(sent());
  });

  it('shows the theme preview and sends a follow-up listing the failing pairs', async () => {
    render(Chat, { props: { workspaceId: ws } });
    await flush();
    expect(w.bound.Theme).toHaveBeenCalledWith(ws);
    expect(screen.getByTestId('preview').style.getPropertyValue('--ui-accent')).toBe(example.ui.accent);
    expect(screen.getAllByTestId('contrast-row')).toHaveLength(2);
    await fireEvent.click(screen.getByTestId('fix-contrast'));
    await flush();
    const prompt = (w.bound.Send.mock.lastCall![0] as { prompt: string }).prompt;
    expect(prompt).toContain('- syntax.comment #8b96aa on ui.surface #1f2430: 4.20:1');
    expect(prompt).not.toContain('ui.text #d8dee9');

    // A broken theme.json keeps the last good preview and shows why (Go
    // reports the same state when asked again).
    const broken = { theme: null, error: 'syntax.keyword: required', checks: null };
    w.bound.Theme.mockImplementation(async () => broken);
    w.emit('theme', { workspaceId: ws, ...broken });
    await flush();
    expect(screen.getByTestId('preview-error').textContent).toContain('syntax.keyword: required');
    expect(screen.getByTestId('preview').style.getPropertyValue('--ui-accent')).toBe(example.ui.accent);
  });

  it('switches to the Design view by its button and by Ctrl+Shift+D, the chat kept beside it', async () => {
    w.bound.VSCodeTheme.mockImplementation(async () => JSON.stringify({ type: 'dark', colors: {}, tokenColors: [] }));
    render(Chat, { props: { workspaceId: ws } });
    await flush();
    expect(screen.getByTestId('preview-panel')).toBeTruthy();
    await fireEvent.click(screen.getByTestId('toggle-design'));
    await flush();
    expect(screen.getByTestId('design-view')).toBeTruthy();
    expect(screen.queryByTestId('preview-panel')).toBeNull();
    // The chat stays beside it: a turn can be asked without leaving.
    expect(screen.getByTestId('prompt')).toBeTruthy();
    expect(screen.getByTestId('toggle-design').getAttribute('aria-pressed')).toBe('true');
    await fireEvent.click(screen.getByTestId('design-toggle-chat'));
    expect(screen.getByTestId('compose').closest('.col')!.hasAttribute('hidden')).toBe(true);
    await fireEvent.keyDown(window, { key: 'D', ctrlKey: true, shiftKey: true });
    await flush();
    expect(screen.queryByTestId('design-view')).toBeNull();
    expect(screen.getByTestId('preview-panel')).toBeTruthy();
    expect(screen.getByTestId('compose').closest('.col')!.hasAttribute('hidden')).toBe(false);
  });

  it("opens a saved chat on its agent when it is shown (no second pre-warm) and gives the agent up when the view closes", async () => {
    const calls: string[] = [];
    w.bound.OpenChat.mockImplementation(async (r: { sessionId: string }) => (calls.push('open ' + r.sessionId), 'open-' + r.sessionId));
    w.bound.Release.mockImplementation(async (r: { sessionId: string }) => void calls.push('release ' + r.sessionId));
    const view = render(Chat, { props: { sessionId: 'sess-a', cwd: '/home/dev/themes/a' } });
    await flush();
    await view.rerender({ sessionId: 'sess-b', cwd: '/home/dev/themes/b' });
    await flush();
    view.unmount();
    await flush();
    expect(w.bound.Prewarm).not.toHaveBeenCalled();
    expect(calls).toEqual(['open sess-a', 'release sess-a', 'open sess-b', 'release sess-b']);
  });

  it('pre-warms nothing for a chat without a session yet', async () => {
    const view = render(Chat, { props: { workspaceId: ws } });
    await flush();
    view.unmount();
    expect(w.bound.Prewarm).not.toHaveBeenCalled();
  });
});
