import { describe, expect, it } from 'vitest';
import { ChatStore } from './chat.svelte';
import { isOpening, isRunning, toolOf } from '../chatReducer';
import { ModelsStore } from './models.svelte';
import { flush, installWails } from '../../test/wails';
import fixture from '../../test/fixtures/turn-events.json';
import type { ChatEvent } from '../types';
import { distinctLabels } from '../chatlabels';

const SID = '01a2360f-5f91-7ff3-adc8-62513b7ee756';

async function setup(sendImpl?: (req: unknown) => unknown) {
  const w = installWails({
    Models: () => ({ current: 'gpt-5.5', source: 'cache', models: [{ id: 'gpt-5.5', name: 'GPT-5.5', defaultReasoningLevel: 'high', reasoningLevels: [{ effort: 'low' }, { effort: 'high' }] }] }),
    Send: sendImpl ?? ((req: { turnId: string }) => req.turnId),
    Cancel: () => undefined,
    AnswerPermission: () => undefined,
    SessionBar: () => ({ agentId: 'codex', agentName: 'Codex', options: [], modes: null, known: false, defaults: null }),
    CheckAgent: () => ({ ok: true, agentId: 'codex', agentName: 'Codex' }),
    OpenChat: (req: { turnId: string }) => req.turnId,
    ChatHistory: () => ({ source: 'agent', messages: [], offset: 0, total: 0 }),
  });
  const models = new ModelsStore();
  await models.load();
  // Turn ids as the page chooses them, numbered here: t-1, t-2, …; open-1, …
  const count: Record<string, number> = {};
  const chat = new ChatStore(models, (prefix) => `${prefix}-${(count[prefix] = (count[prefix] ?? 0) + 1)}`);
  chat.start();
  return { w, models, chat };
}

const turn = (turnId: string, events: ChatEvent[]) => ({ turnId, events });

describe('chat store', () => {
  it('sends the prompt alone (settings are the chat\'s own, in Go) and locks the model menu until done', async () => {
    const { w, models, chat } = await setup();
    chat.open({ workspaceId: 'ws1', sessionId: SID, cwd: '/w' });
    expect(await chat.send('  make it warmer  ')).toBe(true);
    expect(w.bound.Send).toHaveBeenCalledWith({ turnId: 't-1', workspaceId: 'ws1', sessionId: SID, cwd: '/w', prompt: 'make it warmer' });
    expect(models.busy).toBe(true);
    expect(await chat.send('second while running')).toBe(false);

    w.emit('turn', turn('t-1', [{ type: 'text', text: 'Sure.' }, { type: 'done', stopReason: 'end_turn' }]));
    expect(isRunning(chat.state)).toBe(false);
    expect(models.busy).toBe(false);
    expect(chat.state.items.map((i) => i.kind)).toEqual(['user', 'assistant']);
  });

  it('follows its turn from the first event, under the id it chose, before Send resolves', async () => {
    let release!: () => void;
    const { w, chat } = await setup((req) => new Promise<string>((r) => (release = () => r((req as { turnId: string }).turnId))));
    chat.open({ workspaceId: 'ws2' });
    const sent = chat.send('hello');
    await flush();
    w.emit('turn', turn('t-1', [{ type: 'session', sessionId: SID }, { type: 'text', text: 'Hel' }]));
    w.emit('turn', turn('someone-else', [{ type: 'text', text: 'not ours' }]));
    const texts = () => chat.state.items.map((i) => ('text' in i ? i.text : i.kind));
    expect(texts()).toEqual(['hello', 'Hel']);
    w.emit('turn', turn('t-1', [{ type: 'text', text: 'lo' }]));
    release();
    await sent;
    expect(texts()).toEqual(['hello', 'Hello']);
    expect(chat.state.sessionId).toBe(SID);
  });

  it('runs the real turn: asks for permission, answers via AnswerPermission; a remembered always is only shown', async () => {
    const { w, chat } = await setup();
    chat.open({ workspaceId: 'ws3' });
    await chat.send('run it');
    const events = fixture.events as ChatEvent[];
    const permIdx = events.findIndex((e) => e.type === 'permission');
    w.emit('turn', turn('t-1', events.slice(0, permIdx + 1)));
    expect(chat.state.pending).toHaveLength(1);
    const always = chat.state.pending[0].options.find((o) => o.kind === 'allow_always')!;
    await chat.answerPermission('0', always);
    expect(w.bound.AnswerPermission).toHaveBeenCalledWith('t-1', '0', 'accept_execpolicy_amendment');
    expect(w.bound.AnswerPermission).toHaveBeenCalledTimes(1);

    // Go answered the next execute request itself (chat.Always): the UI
    // shows how, with no dialog and no answer of its own.
    const call9 = { toolCallId: 'call_9', kind: 'execute', title: 'ls', content: null, locations: null };
    w.emit('turn', turn('t-1', [{ type: 'permission_answered', sessionId: SID, permission: { requestId: '1', toolCall: call9, options: [] }, answer: { requestId: '1', optionId: 'yy', kind: 'allow_always', remembered: true } }]));
    await flush();
    expect(chat.state.pending).toHaveLength(0);
    expect(toolOf(chat.state, 't-1', 'call_9')?.decision).toBe('auto:allow_always');
    expect(w.bound.AnswerPermission).toHaveBeenCalledTimes(1);
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
    expect(w.bound.Send).toHaveBeenLastCalledWith(expect.objectContaining({ prompt: 'theme please' }));
  });

  it('Stop cancels the running turn in Go', async () => {
    const { w, chat } = await setup();
    chat.open({ workspaceId: 'ws5' });
    await chat.send('slow please');
    await chat.cancel();
    expect(w.bound.Cancel).toHaveBeenCalledWith('t-1');
    w.emit('turn', turn('t-1', [{ type: 'done', stopReason: 'cancelled' }]));
    expect(chat.state.items.map((i) => i.kind)).toEqual(['user', 'stopped']);
    await chat.cancel();
    expect(w.bound.Cancel).toHaveBeenCalledTimes(1);
  });

  it('says "stopping" the moment Stop is pressed, asks Go once, and is idle when the turn ends', async () => {
    const { w, chat } = await setup();
    chat.open({ workspaceId: 'ws5b' });
    await chat.send('slow please');
    let release!: () => void;
    w.bound.Cancel.mockImplementationOnce(() => new Promise<void>((r) => (release = r)));
    const pressed = chat.cancel();
    // Before Go has answered: an agent that ignores cancel holds the turn for seconds.
    expect(chat.state.phase).toBe('stopping');
    void chat.cancel(); // Esc pressed again while stopping
    release();
    await pressed;
    expect(w.bound.Cancel).toHaveBeenCalledTimes(1);
    expect(chat.state.phase).toBe('stopping');
    w.emit('turn', turn('t-1', [{ type: 'text', text: 'late words' }, { type: 'done', stopReason: 'cancelled' }]));
    expect(chat.state.phase).toBe('idle');
    expect(chat.state.items.map((i) => i.kind)).toEqual(['user', 'assistant', 'stopped']);
  });

  it('follows a New Build turn from its first event; leaving it never cancels: it streams on and its end is announced', async () => {
    const { w, models, chat } = await setup();
    await chat.startBuild('dark harbour theme', null, async (turnId) => {
      // Go streams before NewBuild has answered.
      w.emit('turn', turn(turnId, [{ type: 'session', sessionId: 'S1' }, { type: 'text', text: 'Working on it' }]));
      return { turnId, workspaceId: 'ws6', cwd: '/w6', title: '' };
    });
    const a = chat.state;
    expect(a.workspaceId).toBe('ws6');
    expect(a.items.map((i) => ('text' in i ? i.text : i.kind))).toEqual(['dark harbour theme', 'Working on it']);
    expect(models.busy).toBe(true);
    chat.open({ sessionId: 'S2', cwd: '/elsewhere' });
    expect(w.bound.Cancel).not.toHaveBeenCalled();
    expect(chat.state.items).toEqual([]);
    expect(models.busy).toBe(true); // a turn still runs
    w.emit('turn', turn('t-1', [{ type: 'text', text: ', nearly' }, { type: 'done', stopReason: 'end_turn' }]));
    expect(chat.state.items).toEqual([]); // nothing leaks into the shown chat
    expect(isRunning(a)).toBe(false);
    expect(a.items.map((i) => ('text' in i ? i.text : i.kind))).toEqual(['dark harbour theme', 'Working on it, nearly']);
    expect(models.busy).toBe(false);
    expect(chat.announcements.map((x) => [x.title, x.outcome])).toEqual([['dark harbour theme', 'done']]);
    expect(chat.outcomes['ws:ws6']).toBe('done');
    // Back on it: the same chat, whole, and seen.
    chat.open({ workspaceId: 'ws6', cwd: '/w6' });
    expect(chat.state).toBe(a);
    expect(chat.announcements).toEqual([]);
    expect(chat.outcomes['ws:ws6']).toBeUndefined();
  });

  it('three builds stream at once with switches between them; every turn completes, every chat intact', async () => {
    let n = 0;
    const { w, chat } = await setup(() => `t-${++n}`);
    const chats = ['b1', 'b2', 'b3'].map((ws) => {
      chat.open({ workspaceId: ws, cwd: `/${ws}` });
      return chat.state;
    });
    for (const [i, s] of chats.entries()) {
      chat.open({ workspaceId: s.workspaceId, cwd: s.cwd });
      expect(await chat.send(`theme ${i + 1}`)).toBe(true);
    }
    expect(chats.every((s) => isRunning(s))).toBe(true);
    // Interleaved batches while the user moves between the chats.
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 3; i++) {
        chat.open({ workspaceId: chats[(i + round) % 3].workspaceId });
        w.emit('turn', turn(`t-${i + 1}`, [{ type: 'text', text: `${i + 1}.${round} ` }]));
      }
    }
    chat.open({ workspaceId: 'b2' });
    for (let i = 0; i < 3; i++) w.emit('turn', turn(`t-${i + 1}`, [{ type: 'done', stopReason: 'end_turn' }]));
    expect(w.bound.Cancel).not.toHaveBeenCalled();
    for (const [i, s] of chats.entries()) {
      expect(isRunning(s)).toBe(false);
      expect(s.items.map((it) => ('text' in it ? it.text : it.kind))).toEqual([`theme ${i + 1}`, `${i + 1}.0 ${i + 1}.1 ${i + 1}.2 `]);
    }
    expect(chat.chats).toHaveLength(3);
    expect(chat.announcements.map((a) => a.title).sort()).toEqual(['theme 1', 'theme 3']); // b2 was shown
  });

  it('keeps at most maxOpenChats idle chats, never closing one that runs', async () => {
    const { chat } = await setup();
    await chat.startBuild('long one', null, async (turnId) => ({ turnId, workspaceId: 'run', cwd: '/r', title: '' }));
    for (let i = 0; i < 12; i++) chat.open({ workspaceId: `idle-${i}`, cwd: `/i${i}` });
    expect(chat.chats.length).toBe(8);
    expect(chat.chats.some((c) => c.workspaceId === 'run')).toBe(true);
    expect(chat.chats[chat.chats.length - 1]).toBe(chat.state);
  });
});

describe('the open chats in the sidebar', () => {
  it('keep their order as the user moves between them, and same-named ones are told apart', async () => {
    const { chat } = await setup();
    for (const ws of ['a', 'b', 'c']) chat.open({ workspaceId: ws, cwd: '/' + ws });
    const order = () => chat.chats.map((c) => c.workspaceId);
    expect(order()).toEqual(['a', 'b', 'c']);
    chat.open({ workspaceId: 'a', cwd: '/a' });
    chat.open({ workspaceId: 'b', cwd: '/b' });
    chat.open({ workspaceId: 'a', cwd: '/a' });
    expect(order()).toEqual(['a', 'b', 'c']);
    expect(distinctLabels(['Fake Dusk', 'Paper', 'Fake Dusk', 'Fake Dusk'])).toEqual(['Fake Dusk', 'Paper', 'Fake Dusk (2)', 'Fake Dusk (3)']);
  });
});

describe('chat store: sign-in, options and attachments', () => {
  it('signs in for the failed turn and follows the retried one without repeating the message', async () => {
    const { w, chat } = await setup();
    w.bound.SignIn.mockImplementation(async () => ({ turnId: 't-2', auth: { apiKeyStored: true, store: 'file', method: 'api-key' } }));
    chat.open({ workspaceId: 'ws1', cwd: '/w' });
    await chat.send('a sunset theme');
    w.emit('turn', turn('t-1', [{ type: 'auth_required', authMethods: [{ id: 'api-key', name: 'API key' }] }, { type: 'error', code: 'auth', text: 'Authentication required' }]));
    expect(isRunning(chat.state)).toBe(false);
    expect(await chat.signIn('t-1', 'api-key', 'sk-1')).toBe(true);
    expect(w.bound.SignIn).toHaveBeenCalledWith({ turnId: 't-1', retryTurnId: 't-2', methodId: 'api-key', apiKey: 'sk-1', cwd: '/w' });
    expect(isRunning(chat.state)).toBe(true);
    w.emit('turn', turn('t-2', [{ type: 'session', sessionId: SID }, { type: 'text', text: 'Hello' }, { type: 'done', stopReason: 'end_turn' }]));
    expect(isRunning(chat.state)).toBe(false);
    expect(chat.state.items.filter((i) => i.kind === 'user')).toHaveLength(1);
    expect(chat.state.items.at(-1)).toMatchObject({ kind: 'assistant', text: 'Hello' });
  });

  it('shows what the agent answers to a change: its options, its refusal and reason, or pending for the next message', async () => {
    const { w, chat } = await setup();
    chat.open({ workspaceId: 'ws1', sessionId: SID, cwd: '/w' });
    await flush(); // Go streams the opening once OpenChat has it
    w.emit('turn', turn('open-1', [{ type: 'ready', sessionId: SID }]));
    await flush();
    chat.state.configOptions = [{ id: 'fast-mode', type: 'boolean', currentValue: false }, { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'gpt-5.5' }];
    w.bound.SetSessionOption.mockImplementation(async () => ({ applied: true, configOptions: [{ id: 'fast-mode', type: 'boolean', currentValue: true }, { id: 'model', category: 'model', type: 'select', currentValue: 'gpt-5.5' }] }));
    await chat.setOption('fast-mode', true);
    expect(w.bound.SetSessionOption).toHaveBeenCalledWith({ workspaceId: 'ws1', sessionId: SID, configId: 'fast-mode', value: true });
    expect(chat.state.configOptions[0].currentValue).toBe(true);

    w.bound.SetSessionOption.mockImplementation(async () => ({
      applied: false,
      refused: { configId: 'model', name: 'Model', value: 'gpt-5-pro', current: 'gpt-5.5' },
      reason: 'Invalid params: gpt-5-pro is not available for this account',
      configOptions: [{ id: 'fast-mode', type: 'boolean', currentValue: true }, { id: 'model', category: 'model', type: 'select', currentValue: 'gpt-5.5' }],
    }));
    await chat.setOption('model', 'gpt-5-pro');
    expect(chat.state.configOptions[1].currentValue).toBe('gpt-5.5');
    expect(chat.state.refusal).toMatchObject({ configId: 'model', value: 'gpt-5-pro', current: 'gpt-5.5', reason: expect.stringContaining('not available') });
    expect(chat.state.pendingOptions).toEqual({});

    w.bound.SetSessionOption.mockImplementation(async () => ({ applied: false, configOptions: null, pending: { 'fast-mode': false } }));
    await chat.setOption('fast-mode', false);
    expect(chat.state.refusal).toBeNull();
    expect(chat.state.pendingOptions).toEqual({ 'fast-mode': false });
    await chat.send('go');
    w.emit('turn', turn('t-1', [{ type: 'config_options', configOptions: [{ id: 'fast-mode', name: 'Fast', type: 'boolean', currentValue: false }] }]));
    expect(chat.state.pendingOptions).toEqual({});
    w.bound.SetSessionOption.mockImplementation(async () => {
      throw 'no such chat';
    });
    await chat.setOption('fast-mode', true);
    expect(chat.optionError).toBe(''); // locked while the turn runs: nothing was sent
    w.emit('turn', turn('t-1', [{ type: 'done', stopReason: 'end_turn' }]));
    await chat.setOption('fast-mode', true);
    expect(chat.optionError).toBe('no such chat');
  });

  it('sends attachments with the message and again on retry', async () => {
    const { w, chat } = await setup();
    chat.open({ workspaceId: 'ws1', sessionId: SID, cwd: '/w' });
    const atts = [{ name: 'shot.png', mimeType: 'image/png', data: 'iVBORw==' }];
    await chat.send('look', atts);
    expect(w.bound.Send.mock.calls[0][0].attachments).toEqual(atts);
    w.emit('turn', turn('t-1', [{ type: 'error', code: 'agent_exit', text: 'crashed' }]));
    await chat.retry();
    expect(w.bound.Send.mock.calls[1][0].attachments).toEqual(atts);
  });
});

describe('chat store: opening a saved chat', () => {
  it('shows the saved bar, then the agent\'s live values; a message sent meanwhile waits for the opening', async () => {
    const { w, chat } = await setup();
    w.bound.SessionBar.mockImplementation(async () => ({
      agentId: 'codex', agentName: 'Codex', known: true, defaults: null, modes: null,
      options: [{ id: 'mode', category: 'mode', type: 'select', currentValue: 'read-only', options: [{ value: 'read-only', name: 'Read-only' }, { value: 'agent-full-access', name: 'Full access' }] }],
    }));
    chat.open({ sessionId: SID, cwd: '/w' });
    await flush();
    expect(w.bound.OpenChat).toHaveBeenCalledWith({ turnId: 'open-1', workspaceId: '', sessionId: SID, cwd: '/w' });
    expect(isOpening(chat.state)).toBe(true);
    expect(chat.state.optionsSource).toBe('saved');
    expect(chat.state.configOptions[0].currentValue).toBe('read-only');
    const sent = chat.send('hi');
    await flush();
    expect(w.bound.Send).not.toHaveBeenCalled();
    w.emit('turn', turn('open-1', [
      { type: 'session', sessionId: SID, setup: { configOptions: [{ id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'agent-full-access' }] } },
      { type: 'ready', sessionId: SID },
    ]));
    await sent;
    expect(w.bound.Send).toHaveBeenCalledTimes(1);
    expect(isOpening(chat.state)).toBe(false);
    expect(chat.state.optionsSource).toBe('live');
    expect(chat.state.configOptions[0].currentValue).toBe('agent-full-access');
  });

  it('shows the rollout\'s newest messages, older pages above them, and none twice', async () => {
    const { w, chat } = await setup();
    const msgs = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ role: (from + i) % 2 ? 'assistant' : 'user', text: `m${from + i}` }));
    w.bound.ChatHistory.mockImplementation(async (_sid: string, before: number, limit: number) => {
      const end = before < 0 ? 70 : before;
      const from = Math.max(0, end - limit);
      return { source: 'rollout', messages: msgs(from, end - from), offset: from, total: 70 };
    });
    chat.open({ sessionId: SID, cwd: '/w' });
    await flush();
    expect(w.bound.ChatHistory).toHaveBeenCalledWith(SID, -1, 50);
    expect(chat.state.items.map((i) => ('text' in i ? i.text : ''))[0]).toBe('m20');
    expect(chat.moreHistory).toBe(true);
    await chat.loadHistory();
    expect(w.bound.ChatHistory).toHaveBeenLastCalledWith(SID, 20, 50);
    const texts = chat.state.items.map((i) => ('text' in i ? i.text : ''));
    expect(texts).toEqual(msgs(0, 70).map((m) => m.text));
    expect(chat.moreHistory).toBe(false);
    await chat.loadHistory();
    expect(w.bound.ChatHistory).toHaveBeenCalledTimes(2);
    // The agent's replay adds nothing when the rollout is the history.
    w.emit('turn', turn('open-1', [{ type: 'user_text', replay: true, text: 'm0' }, { type: 'ready', sessionId: SID }]));
    expect(chat.state.items).toHaveLength(70);
    expect(chat.state.items.every((i) => i.history)).toBe(true);
  });

  it('takes the agent\'s replay as the history once, above a message sent while opening', async () => {
    const { w, chat } = await setup();
    chat.open({ sessionId: SID, cwd: '/w' });
    await flush();
    const sent = chat.send('and now?');
    w.emit('turn', turn('open-1', [
      { type: 'user_text', replay: true, text: 'make it teal' },
      { type: 'text', replay: true, text: 'Done, teal.' },
      { type: 'ready', sessionId: SID },
    ]));
    await sent;
    w.emit('turn', turn('t-1', [
      { type: 'user_text', replay: true, text: 'make it teal' }, // a reconnect replays again
      { type: 'text', text: 'Still teal.' },
      { type: 'done', stopReason: 'end_turn' },
    ]));
    expect(chat.state.items.map((i) => [i.kind, 'text' in i ? i.text : '', !!i.history])).toEqual([
      ['user', 'make it teal', true],
      ['assistant', 'Done, teal.', true],
      ['user', 'and now?', false],
      ['assistant', 'Still teal.', false],
    ]);
  });

  it('an agent with modes only: the mode it took through set_mode is the one shown', async () => {
    const { w, chat } = await setup();
    chat.open({ sessionId: SID, cwd: '/w' });
    await flush();
    w.emit('turn', turn('open-1', [
      { type: 'session', sessionId: SID, setup: { configOptions: null, modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] } } },
      { type: 'ready', sessionId: SID },
    ]));
    await flush();
    w.bound.SetSessionOption.mockImplementation(async () => ({ applied: true, configOptions: null }));
    await chat.setOption('mode', 'code');
    expect(chat.state.modes?.current).toBe('code');
    w.bound.SetSessionOption.mockImplementation(async () => ({ applied: false, refused: { configId: 'mode', value: 'ask', current: 'code' }, reason: 'no' }));
    await chat.setOption('mode', 'ask');
    expect(chat.state.modes?.current).toBe('code');
  });

  it('shows the agent problem before anything is sent and does not open the chat', async () => {
    const { w, chat } = await setup();
    w.bound.CheckAgent.mockImplementation(async () => ({ ok: false, agentId: 'codex', agentName: 'Codex', code: 'agent_missing', detail: 'no ACP agent found' }));
    chat.open({ sessionId: SID, cwd: '/w' });
    await flush();
    expect(chat.agentProblem).toMatchObject({ code: 'agent_missing' });
    expect(w.bound.OpenChat).not.toHaveBeenCalled();
    expect(isOpening(chat.state)).toBe(false);
  });
});
