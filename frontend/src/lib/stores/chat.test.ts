import { describe, expect, it } from 'vitest';
import { ChatStore } from './chat.svelte';
import { ModelsStore } from './models.svelte';
import { flush, installWails } from '../../test/wails';
import fixture from '../../test/fixtures/turn-events.json';
import type { ChatEvent } from '../types';

const SID = '01a2360f-5f91-7ff3-adc8-62513b7ee756';

async function setup(sendImpl?: (req: unknown) => unknown) {
  const w = installWails({
    Models: () => ({ current: 'gpt-5.5', source: 'cache', models: [{ id: 'gpt-5.5', name: 'GPT-5.5', defaultReasoningLevel: 'high', reasoningLevels: [{ effort: 'low' }, { effort: 'high' }] }] }),
    Send: sendImpl ?? (() => 't-1'),
    Cancel: () => undefined,
    AnswerPermission: () => undefined,
  });
  const models = new ModelsStore();
  await models.load();
  const chat = new ChatStore(models);
  chat.start();
  return { w, models, chat };
}

const turn = (turnId: string, events: ChatEvent[]) => ({ turnId, events });

describe('chat store', () => {
  it('sends with the chosen model and effort and locks the model menu until done', async () => {
    const { w, models, chat } = await setup();
    chat.open({ workspaceId: 'ws1', sessionId: SID, cwd: '/w' });
    expect(await chat.send('  make it warmer  ')).toBe(true);
    expect(w.App.Send).toHaveBeenCalledWith({ workspaceId: 'ws1', sessionId: SID, cwd: '/w', prompt: 'make it warmer', model: 'gpt-5.5', effort: 'high' });
    expect(models.busy).toBe(true);
    expect(await chat.send('second while running')).toBe(false);

    w.emit('turn', turn('t-1', [{ type: 'text', text: 'Sure.' }, { type: 'done', stopReason: 'end_turn' }]));
    expect(chat.state.running).toBe(false);
    expect(models.busy).toBe(false);
    expect(chat.state.items.map((i) => i.kind)).toEqual(['user', 'assistant']);
  });

  it('keeps events that arrive before Send resolves and applies them in order', async () => {
    let release!: (id: string) => void;
    const { w, chat } = await setup(() => new Promise<string>((r) => (release = r)));
    chat.open({ workspaceId: 'ws2' });
    const sent = chat.send('hello');
    w.emit('turn', turn('t-early', [{ type: 'session', sessionId: SID }, { type: 'text', text: 'Hel' }]));
    w.emit('turn', turn('someone-else', [{ type: 'text', text: 'not ours' }]));
    w.emit('turn', turn('t-early', [{ type: 'text', text: 'lo' }]));
    release('t-early');
    await sent;
    const texts = chat.state.items.map((i) => ('text' in i ? i.text : i.kind));
    expect(texts).toEqual(['hello', 'Hello']);
    expect(chat.state.sessionId).toBe(SID);
  });

  it('runs the real turn: asks for permission, answers via AnswerPermission, remembers always', async () => {
    const { w, chat } = await setup();
    chat.open({ workspaceId: 'ws3' });
    await chat.send('run it');
    const events = fixture.events as ChatEvent[];
    const permIdx = events.findIndex((e) => e.type === 'permission');
    w.emit('turn', turn('t-1', events.slice(0, permIdx + 1)));
    expect(chat.state.pending).toHaveLength(1);
    const always = chat.state.pending[0].options.find((o) => o.kind === 'allow_always')!;
    await chat.answerPermission('0', always);
    expect(w.App.AnswerPermission).toHaveBeenCalledWith('t-1', '0', 'accept_execpolicy_amendment');

    // A second execute request in the same session is answered without a dialog.
    w.emit('turn', turn('t-1', [{ type: 'permission', sessionId: SID, permission: { requestId: '1', toolCall: { toolCallId: 'call_9', kind: 'execute', title: 'ls' }, options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }, { optionId: 'yy', name: 'Always', kind: 'allow_always' }] } }]));
    await flush();
    expect(chat.state.pending).toHaveLength(0);
    expect(w.App.AnswerPermission).toHaveBeenLastCalledWith('t-1', '1', 'yy');

    // Reopening the same session later keeps the remembered answer.
    chat.open({ workspaceId: 'other' });
    chat.open({ sessionId: SID, cwd: '/w' });
    expect(chat.state.always[SID]).toEqual({ execute: 'allow_always' });
  });

  it('shows a failed Send as an error with Retry, and Retry sends the same prompt again', async () => {
    let calls = 0;
    const { w, models, chat } = await setup(() => (++calls === 1 ? Promise.reject('agent not found: tried PATH codex-acp') : 't-2'));
    chat.open({ workspaceId: 'ws4' });
    expect(await chat.send('theme please')).toBe(false);
    const err = chat.state.items[chat.state.items.length - 1];
    expect(err).toMatchObject({ kind: 'error', text: 'agent not found: tried PATH codex-acp' });
    expect(models.busy).toBe(false);
    expect(await chat.retry()).toBe(true);
    expect(w.App.Send).toHaveBeenLastCalledWith(expect.objectContaining({ prompt: 'theme please' }));
  });

  it('Stop cancels the running turn in Go', async () => {
    const { w, chat } = await setup();
    chat.open({ workspaceId: 'ws5' });
    await chat.send('slow please');
    await chat.cancel();
    expect(w.App.Cancel).toHaveBeenCalledWith('t-1');
    w.emit('turn', turn('t-1', [{ type: 'done', stopReason: 'cancelled' }]));
    expect(chat.state.items.map((i) => i.kind)).toEqual(['user', 'stopped']);
    await chat.cancel();
    expect(w.App.Cancel).toHaveBeenCalledTimes(1);
  });

  it('adopts a New Build turn and leaving a running chat cancels it', async () => {
    const { w, models, chat } = await setup();
    w.emit('turn', turn('nb-1', [{ type: 'session', sessionId: 'S1' }, { type: 'text', text: 'Working on it' }]));
    chat.open({ workspaceId: 'ws6', cwd: '/w6' });
    chat.adopt('nb-1', 'dark harbour theme');
    expect(chat.state.items.map((i) => ('text' in i ? i.text : i.kind))).toEqual(['dark harbour theme', 'Working on it']);
    expect(models.busy).toBe(true);
    chat.open({ sessionId: 'S2', cwd: '/elsewhere' });
    expect(w.App.Cancel).toHaveBeenCalledWith('nb-1');
    expect(models.busy).toBe(false);
    w.emit('turn', turn('nb-1', [{ type: 'text', text: 'late' }]));
    expect(chat.state.items).toEqual([]);
  });
});

describe('chat store: sign-in, options and attachments', () => {
  it('signs in for the failed turn and follows the retried one without repeating the message', async () => {
    const { w, chat } = await setup();
    w.App.SignIn.mockImplementation(async () => ({ turnId: 't-2', auth: { apiKeyStored: true, store: 'file', method: 'api-key' } }));
    chat.open({ workspaceId: 'ws1', cwd: '/w' });
    await chat.send('a sunset theme');
    w.emit('turn', turn('t-1', [{ type: 'auth_required', authMethods: [{ id: 'api-key', name: 'API key' }] }, { type: 'error', code: 'auth', text: 'Authentication required' }]));
    expect(chat.state.running).toBe(false);
    expect(await chat.signIn('t-1', 'api-key', 'sk-1')).toBe(true);
    expect(w.App.SignIn).toHaveBeenCalledWith({ turnId: 't-1', methodId: 'api-key', apiKey: 'sk-1', cwd: '/w' });
    expect(chat.state.running).toBe(true);
    w.emit('turn', turn('t-2', [{ type: 'session', sessionId: SID }, { type: 'text', text: 'Hello' }, { type: 'done', stopReason: 'end_turn' }]));
    expect(chat.state.running).toBe(false);
    expect(chat.state.items.filter((i) => i.kind === 'user')).toHaveLength(1);
    expect(chat.state.items.at(-1)).toMatchObject({ kind: 'assistant', text: 'Hello' });
  });

  it('shows an option change at once, takes the agent answer, and undoes a refused one', async () => {
    const { w, chat } = await setup();
    chat.open({ workspaceId: 'ws1', sessionId: SID, cwd: '/w' });
    chat.state.configOptions = [{ id: 'fast-mode', type: 'boolean', currentValue: false }];
    w.App.SetSessionOption.mockImplementation(async () => ({ applied: true, configOptions: [{ id: 'fast-mode', type: 'boolean', currentValue: true }, { id: 'x', type: 'boolean', currentValue: false }] }));
    await chat.setOption('fast-mode', true);
    expect(w.App.SetSessionOption).toHaveBeenCalledWith({ workspaceId: 'ws1', sessionId: SID, configId: 'fast-mode', value: true });
    expect(chat.state.configOptions.map((o) => o.id)).toEqual(['fast-mode', 'x']);
    w.App.SetSessionOption.mockImplementation(async () => {
      throw 'invalid value';
    });
    await chat.setOption('fast-mode', false);
    expect(chat.state.configOptions[0].currentValue).toBe(true);
    expect(chat.optionError).toBe('invalid value');
  });

  it('sends attachments with the message and again on retry', async () => {
    const { w, chat } = await setup();
    chat.open({ workspaceId: 'ws1', sessionId: SID, cwd: '/w' });
    const atts = [{ name: 'shot.png', mimeType: 'image/png', data: 'iVBORw==' }];
    await chat.send('look', atts);
    expect(w.App.Send.mock.calls[0][0].attachments).toEqual(atts);
    w.emit('turn', turn('t-1', [{ type: 'error', code: 'agent_exit', text: 'crashed' }]));
    await chat.retry();
    expect(w.App.Send.mock.calls[1][0].attachments).toEqual(atts);
  });
});

describe('chat store: the model menu follows the session options', () => {
  it('a model or effort chosen among the options becomes what the next message sends', async () => {
    const { w, models, chat } = await setup();
    w.App.SetSessionOption.mockImplementation(async () => ({ applied: false, configOptions: null }));
    chat.open({ workspaceId: 'ws1', sessionId: SID, cwd: '/w' });
    chat.state.configOptions = [
      { id: 'model', category: 'model', type: 'select', currentValue: 'gpt-5.5' },
      { id: 'reasoning_effort', category: 'thought_level', type: 'select', currentValue: 'high' },
    ];
    await chat.setOption('reasoning_effort', 'low');
    expect(models.effort).toBe('low');
    await chat.send('go');
    expect(w.App.Send.mock.calls[0][0]).toMatchObject({ model: 'gpt-5.5', effort: 'low' });
  });
});
