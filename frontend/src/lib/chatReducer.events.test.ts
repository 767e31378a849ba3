// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { answer, applyEvent, beginOpen, beginTurn, endOpening, findInTurn, isOpening, isRunning, newChatState, prependHistory, setSession, startOpening, toolOf, type ChatPhase, type ChatState } from './chatReducer';
import type { ChatEvent, ToolCall } from './types';

// What the chat shows for each kind of event Go sends (issue #25: the
// survivors of a mutation run on chatReducer.ts). Each test names what a
// user would see go wrong.

const SID = 'sess-1';
const tc = (t: Partial<ToolCall> & { toolCallId: string }): ToolCall => ({ content: null, locations: null, ...t });
const shown = (s: ChatState) => s.items.map((i) => `${i.kind}:${'text' in i ? i.text : ''}${i.history ? ' (history)' : ''}`);

function turn(turnId = 't', prompt: string | null = 'hi', init: Parameters<typeof newChatState>[0] = { sessionId: SID }): ChatState {
  const s = newChatState(init);
  beginTurn(s, turnId, prompt, 1_000);
  return s;
}

function run(s: ChatState, turnId: string, events: ChatEvent[]) {
  for (const ev of events) applyEvent(s, turnId, ev, 2_000);
}

describe('a new chat', () => {
  it('starts empty and idle with the ids it was given', () => {
    const s = newChatState({ sessionId: 'a', workspaceId: 'w', cwd: '/c', title: 'T' });
    expect(s).toEqual({
      sessionId: 'a', workspaceId: 'w', cwd: '/c', title: 'T', agentName: '', items: [], tools: {}, pending: [], usage: null,
      configOptions: [], optionsSource: 'none', pendingOptions: {}, refusal: null, commands: [], modes: null, capabilities: null,
      turnId: '', phase: 'idle', stopReason: '', openTurn: '', status: null, startedAt: 0, lastEventAt: 0,
      history: { source: '', offset: 0, loading: false, error: '', replayDone: false, hadTurn: false, replayTurns: 0 },
      nextId: 1,
    });
    expect(newChatState()).toMatchObject({ sessionId: '', workspaceId: '', cwd: '', title: '' });
  });
});

describe('the phase of every transition', () => {
  const all: ChatPhase[] = ['idle', 'opening', 'running', 'queued'];
  it('says running and opening for exactly the phases that are', () => {
    expect(all.map((phase) => isRunning({ phase }))).toEqual([false, false, true, true]);
    expect(all.map((phase) => isOpening({ phase }))).toEqual([false, true, false, true]);
  });

  it('starting to open keeps a running turn running (queued) and an opening one opening', () => {
    expect(all.map((phase) => { const s = { phase }; startOpening(s); return s.phase; })).toEqual(['opening', 'opening', 'queued', 'queued']);
  });

  it('the end of an opening lets a queued turn run and leaves a plain running turn alone', () => {
    expect(all.map((phase) => { const s = { phase }; endOpening(s); return s.phase; })).toEqual(['idle', 'idle', 'running', 'running']);
  });

  it('a turn sent while running or queued stays so; its end returns to where it was', () => {
    for (const [from, during] of [['idle', 'running'], ['opening', 'queued'], ['running', 'running'], ['queued', 'queued']] as const) {
      const s = newChatState();
      s.phase = from;
      beginTurn(s, 't', null);
      expect(s.phase).toBe(during);
    }
    const s = newChatState();
    applyEvent(s, 't', { type: 'done', stopReason: 'end_turn' });
    expect(s.phase).toBe('idle'); // a done with nothing running stays idle
    s.phase = 'opening';
    s.turnId = 't';
    applyEvent(s, 't', { type: 'done', stopReason: 'end_turn' });
    expect(s.phase).toBe('opening'); // nothing ran: the opening goes on
  });

  it('a turn starts clean: no old stop reason, status or refusal, stamped now, the prompt shown', () => {
    const s = newChatState();
    s.stopReason = 'cancelled';
    s.status = { message: 'x' };
    s.refusal = { configId: 'm', name: 'm', value: 1, current: 2, reason: 'r' };
    beginTurn(s, 't2', 'again', 5_000);
    expect([s.turnId, s.stopReason, s.status, s.refusal, s.startedAt, s.lastEventAt]).toEqual(['t2', '', null, null, 5_000, 5_000]);
    expect(shown(s)).toEqual(['user:again']);
    beginTurn(s, 't3', null, 6_000);
    expect(shown(s)).toEqual(['user:again']);
  });

  it('an opening remembers its turn, and its ready ends only the opening', () => {
    const s = newChatState();
    beginOpen(s, 'o');
    expect([s.openTurn, s.phase]).toEqual(['o', 'opening']);
    applyEvent(s, 'o', { type: 'ready', sessionId: 'new-sid' });
    expect([s.openTurn, s.phase, s.sessionId, s.history.replayDone]).toEqual(['', 'idle', 'new-sid', true]);
  });

  it('a ready of a plain turn ends it but does not close the door to a later replay', () => {
    const s = turn('t');
    applyEvent(s, 't', { type: 'ready' });
    expect([s.phase, s.sessionId, s.history.replayDone]).toEqual(['idle', SID, false]);
  });
});

describe('the last activity of a turn', () => {
  it('is stamped by the running turn and by the opening, not by another turn', () => {
    const s = turn('t');
    applyEvent(s, 'other', { type: 'warning', text: 'late' }, 3_000);
    expect(s.lastEventAt).toBe(1_000);
    applyEvent(s, 'x', { type: 'text', turnId: 't', text: 'a' }, 4_000);
    expect(s.lastEventAt).toBe(4_000); // the event's own turn id wins
    beginOpen(s, 'o');
    applyEvent(s, 'o', { type: 'user_text', replay: true, text: 'q' }, 5_000);
    expect(s.lastEventAt).toBe(5_000);
  });
});

describe('streamed text', () => {
  it('empty chunks show nothing', () => {
    const s = turn('t', null);
    run(s, 't', [{ type: 'text', text: '' }, { type: 'thought' }, { type: 'user_text', text: '' }, { type: 'warning', text: '' }]);
    expect(s.items).toEqual([]);
  });

  it('a thought between two answers splits them; a user message is its own bubble', () => {
    const s = turn('t', null);
    run(s, 't', [
      { type: 'text', text: 'a' }, { type: 'text', text: 'b' }, { type: 'thought', text: 'hm' }, { type: 'thought', text: 'm' },
      { type: 'text', text: 'c' }, { type: 'user_text', text: 'u' }, { type: 'user_text', text: 'v' },
    ]);
    expect(shown(s)).toEqual(['assistant:ab', 'thought:hmm', 'assistant:c', 'user:uv']);
    expect(s.items.map((i) => i.id)).toEqual([1, 2, 3, 4]);
    expect(s.nextId).toBe(5);
  });

  it('a live chunk after replayed history of the same kind starts a new bubble', () => {
    const s = newChatState();
    beginOpen(s, 'o');
    applyEvent(s, 'o', { type: 'text', replay: true, text: 'old' });
    applyEvent(s, 'o', { type: 'text', text: 'new' });
    applyEvent(s, 'o', { type: 'text', replay: true, text: ' older' });
    expect(shown(s)).toEqual(['assistant:old older (history)', 'assistant:new']);
  });
});

describe('the agent replay', () => {
  it('is put above this run, each of its turns apart, and its tools are cards', () => {
    const s = turn('t', 'now');
    run(s, 't', [{ type: 'text', text: 'live' }]);
    run(s, 't', [
      { type: 'user_text', replay: true, text: 'q1' },
      { type: 'user_text', replay: true, text: ' more' },
      { type: 'thought', replay: true, text: 'th' },
      { type: 'text', replay: true, text: 'a1' },
      { type: 'tool_call', replay: true, toolCall: tc({ toolCallId: 'c', title: 'ls', kind: 'execute' }), terminal: { output: 'x' } },
      { type: 'user_text', replay: true, text: 'q2' },
      { type: 'tool_call', replay: true, toolCall: tc({ toolCallId: 'c', title: 'cat' }) },
      { type: 'tool_call_update', replay: true, toolCall: tc({ toolCallId: 'c', status: 'completed' }) },
      { type: 'text', replay: true, text: '' },
      { type: 'tool_call', replay: true },
      { type: 'usage', replay: true, usage: { used: 5, size: 10 } },
      { type: 'session_info', replay: true, info: { title: 'Old title' } },
      { type: 'session_info', replay: true, info: {} },
    ]);
    expect(shown(s)).toEqual([
      'user:q1 more (history)', 'thought:th (history)', 'assistant:a1 (history)', 'tool: (history)', 'user:q2 (history)', 'tool: (history)',
      'user:now', 'assistant:live',
    ]);
    expect(s.history).toMatchObject({ source: 'agent', replayTurns: 2 });
    const cards = s.items.filter((i) => i.kind === 'tool').map((i) => (i.kind === 'tool' ? s.tools[i.key] : null));
    expect(cards.map((c) => [c?.title, c?.status, c?.terminal, c?.turnId])).toEqual([['ls', 'pending', 'x', 't'], ['cat', 'completed', '', 't']]);
    expect(s.usage).toBeNull(); // a replayed usage is not this run's context
    expect(s.title).toBe('Old title');
  });

  it('is not shown when Codex rollout shows that history already', () => {
    const s = newChatState();
    prependHistory(s, [{ role: 'user', text: 'q' } as never], 0);
    beginOpen(s, 'o');
    applyEvent(s, 'o', { type: 'user_text', replay: true, text: 'q' });
    applyEvent(s, 'o', { type: 'session_info', replay: true, info: { title: 'x' } });
    expect(shown(s)).toEqual(['user:q (history)']);
    expect([s.history.source, s.title]).toEqual(['rollout', '']);
  });
});

describe('tool cards', () => {
  it('a new card starts pending, of kind other, with nothing shown', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'tool_call', toolCall: tc({ toolCallId: 'c' }) });
    expect(toolOf(s, 't', 'c')).toEqual({ id: 'c', turnId: 't', title: '', kind: 'other', status: 'pending', content: [], locations: [], terminal: '', exitCode: null, decision: '' });
    expect(s.items).toEqual([{ kind: 'tool', id: 1, turnId: 't', toolCallId: 'c', key: 't\u0000c' }]);
  });

  it('a call without an id shows no card', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'tool_call', toolCall: tc({ toolCallId: '', title: 'x' }), command: 'ls' });
    expect([s.items, s.tools]).toEqual([[], {}]);
  });

  it('shows each kind of content, with what is missing empty', () => {
    const s = turn('t', null);
    applyEvent(s, 't', {
      type: 'tool_call',
      toolCall: tc({
        toolCallId: 'c',
        content: [
          { type: 'content' },
          { type: 'diff' },
          { type: 'diff', path: '/a', oldText: 'o', newText: 'n' },
          { type: 'terminal' },
          { type: 'terminal', terminalId: 'term-1' },
          { type: 'image' },
          { type: '' },
        ],
        locations: [{ path: '/a', line: 3 }, { path: '/b' }],
      }),
    });
    const t = toolOf(s, 't', 'c')!;
    expect(t.content).toEqual([
      { type: 'text', text: '' },
      { type: 'diff', path: '', oldText: null, newText: null },
      { type: 'diff', path: '/a', oldText: 'o', newText: 'n' },
      { type: 'terminal', terminalId: '' },
      { type: 'terminal', terminalId: 'term-1' },
      { type: 'image', text: '' },
    ]);
    expect(t.locations).toEqual([{ path: '/a', line: 3 }, { path: '/b', line: undefined }]);
  });

  it('keeps the raw input and output an update leaves out or nulls, and the command Go read', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'tool_call', toolCall: tc({ toolCallId: 'c', rawInput: { command: 'ls' }, rawOutput: 'out' }), command: 'ls -l' });
    applyEvent(s, 't', { type: 'tool_call_update', toolCall: tc({ toolCallId: 'c', rawInput: null, rawOutput: null }) });
    applyEvent(s, 't', { type: 'tool_call_update', toolCall: tc({ toolCallId: 'c', rawInput: 0, rawOutput: false }) });
    expect(toolOf(s, 't', 'c')).toMatchObject({ rawInput: 0, rawOutput: false, command: 'ls -l' });
    applyEvent(s, 't', { type: 'tool_call_update', toolCall: tc({ toolCallId: 'c' }) });
    expect(toolOf(s, 't', 'c')?.command).toBe('ls -l');
  });

  it('streams terminal output, replaces it with a full one, and shows the exit code', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'tool_call', toolCall: tc({ toolCallId: 'c', kind: 'execute' }), terminal: { append: 'a' } });
    applyEvent(s, 't', { type: 'tool_call_update', toolCall: tc({ toolCallId: 'c' }), terminal: { append: 'b' } });
    expect(toolOf(s, 't', 'c')?.terminal).toBe('ab');
    applyEvent(s, 't', { type: 'tool_call_update', toolCall: tc({ toolCallId: 'c' }), terminal: { output: '' } });
    expect(toolOf(s, 't', 'c')?.terminal).toBe('');
    applyEvent(s, 't', { type: 'tool_call_update', toolCall: tc({ toolCallId: 'c' }), terminal: { output: 'x', append: 'y', exited: false, exitCode: 3 } });
    expect(toolOf(s, 't', 'c')).toMatchObject({ terminal: 'xy', exitCode: null });
    applyEvent(s, 't', { type: 'tool_call_update', toolCall: tc({ toolCallId: 'c' }), terminal: { exited: true } });
    expect(toolOf(s, 't', 'c')?.exitCode).toBeNull();
    applyEvent(s, 't', { type: 'tool_call_update', toolCall: tc({ toolCallId: 'c' }), terminal: { exited: true, exitCode: 1 } });
    expect(toolOf(s, 't', 'c')).toMatchObject({ terminal: 'xy', exitCode: 1 });
  });

  it('late output: an empty one leaves the card blank, an exit without code shows none', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'tool_call', toolCall: tc({ toolCallId: 'c', kind: 'execute' }) });
    applyEvent(s, 't', { type: 'tool_call_update', toolCall: tc({ toolCallId: 'c' }), terminal: { late: true, output: '', exited: false, exitCode: 4 } });
    expect(toolOf(s, 't', 'c')).toMatchObject({ terminal: '', exitCode: null });
    applyEvent(s, 't', { type: 'tool_call_update', toolCall: tc({ toolCallId: 'c' }), terminal: { late: true, exited: true } });
    expect(toolOf(s, 't', 'c')?.exitCode).toBeNull();
    applyEvent(s, 't', { type: 'tool_call_update', toolCall: tc({ toolCallId: 'c' }), terminal: { late: true, output: 'done', exited: true, exitCode: 0 } });
    expect(toolOf(s, 't', 'c')).toMatchObject({ terminal: 'done', exitCode: 0 });
  });

  it('records the context window at completion once, a copy, or none when no usage came', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'tool_call', toolCall: tc({ toolCallId: 'a', status: 'completed' }) });
    expect(toolOf(s, 't', 'a')?.usageAfter).toBeNull();
    applyEvent(s, 't', { type: 'usage', usage: { used: 10, size: 100 } });
    applyEvent(s, 't', { type: 'tool_call', toolCall: tc({ toolCallId: 'b', status: 'in_progress' }) });
    expect(toolOf(s, 't', 'b')?.usageAfter).toBeUndefined();
    applyEvent(s, 't', { type: 'tool_call_update', toolCall: tc({ toolCallId: 'b', status: 'completed' }) });
    applyEvent(s, 't', { type: 'usage', usage: { used: 20, size: 100, cost: { amount: 1, currency: 'USD' } } });
    applyEvent(s, 't', { type: 'tool_call_update', toolCall: tc({ toolCallId: 'b', status: 'completed' }) });
    expect(toolOf(s, 't', 'b')?.usageAfter).toEqual({ used: 10, size: 100, cost: null });
    expect(s.usage).toEqual({ used: 20, size: 100, cost: { amount: 1, currency: 'USD' } });
    s.usage!.used = 99;
    expect(toolOf(s, 't', 'b')?.usageAfter?.used).toBe(10);
  });
});

describe('the live status', () => {
  it('is shown as sent, a status without a message is ignored, and only this turn’s output clears it', () => {
    const s = turn('t', null);
    const st = { message: 'Reconnecting…', retrying: true };
    applyEvent(s, 't', { type: 'status', status: st });
    expect(s.status).toEqual(st);
    expect(s.status).not.toBe(st);
    applyEvent(s, 't', { type: 'status' });
    applyEvent(s, 't', { type: 'status', status: { details: 'x' } as never });
    expect(s.status).toEqual(st);
    applyEvent(s, 'old', { type: 'text', text: 'x' });
    expect(s.status).toEqual(st);
    applyEvent(s, 't', { type: 'usage', usage: { used: 1, size: 2 } });
    expect(s.status).toEqual(st); // usage is not the agent talking
    for (const ev of [
      { type: 'thought', text: 'x' }, { type: 'tool_call' }, { type: 'tool_call_update' }, { type: 'plan' }, { type: 'permission' }, { type: 'permission_answered' },
    ] as ChatEvent[]) {
      s.status = { message: 'again' };
      applyEvent(s, 't', ev);
      expect([ev.type, s.status]).toEqual([ev.type, null]);
    }
    s.status = { message: 'again' };
    applyEvent(s, 't', { type: 'done', stopReason: 'end_turn' });
    expect(s.status).toBeNull();
  });
});

describe('option refusals', () => {
  const opts = [{ id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'gpt-5' }, { id: 'effort-x', name: 'Effort', category: 'thought_level', type: 'select', currentValue: 'high' }];

  it('names the option by the agent’s name and shows the value it still runs', () => {
    const s = turn('t', null);
    setSession(s, { configOptions: opts });
    s.pendingOptions = { thought_level: 'low', 'effort-x': 'low', model: 'o3' };
    applyEvent(s, 't', { type: 'option_refused', text: 'not allowed', refused: { configId: 'thought_level', value: 'low' } });
    expect(s.refusal).toEqual({ configId: 'effort-x', name: 'Effort', value: 'low', current: 'high', reason: 'not allowed' });
    expect(s.pendingOptions).toEqual({ model: 'o3' });
  });

  it('an option the agent does not list keeps the id as its name and no reason', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'option_refused', refused: { configId: 'x', value: 1 } });
    expect(s.refusal).toEqual({ configId: 'x', name: 'x', value: 1, current: undefined, reason: '' });
    applyEvent(s, 't', { type: 'option_refused', refused: { configId: 'x', name: 'X', value: 1, current: 0 } });
    expect(s.refusal).toMatchObject({ name: 'X', current: 0 });
  });

  it('a refusal without an option id shows nothing', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'option_refused', text: 'no', refused: { configId: '', value: 1 } });
    applyEvent(s, 't', { type: 'option_refused', text: 'no' });
    expect(s.refusal).toBeNull();
  });
});

describe('plans and usage', () => {
  it('a plan entry without a status is pending; a plan without entries is empty', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'plan', plan: { entries: [{ content: 'a', status: '' }, { content: 'b', status: 'completed', priority: 'high' }] } });
    const p = s.items[0];
    expect(p.kind === 'plan' && p.entries).toEqual([{ content: 'a', status: 'pending' }, { content: 'b', status: 'completed', priority: 'high' }]);
    applyEvent(s, 't', { type: 'plan', plan: { entries: null } });
    expect(s.items).toHaveLength(1);
    expect(s.items[0].kind === 'plan' && s.items[0].entries).toEqual([]);
    applyEvent(s, 't2', { type: 'plan' });
    expect(s.items.map((i) => [i.kind, i.turnId])).toEqual([['plan', 't'], ['plan', 't2']]);
  });

  it('a usage event without usage keeps the last one', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'usage', usage: { used: 1, size: 2 } });
    applyEvent(s, 't', { type: 'usage' });
    expect(s.usage).toEqual({ used: 1, size: 2, cost: null });
  });
});

describe('permission prompts', () => {
  it('ask with the card’s kind, title and paths when the request names only the call', () => {
    const s = turn('t', null, {});
    s.sessionId = 'own';
    applyEvent(s, 't', { type: 'tool_call', toolCall: tc({ toolCallId: 'c', kind: 'edit', title: 'Edit a', locations: [{ path: '/a' }, { path: '/b' }] }) });
    applyEvent(s, 't', { type: 'permission', permission: { requestId: 'r', toolCall: tc({ toolCallId: 'c' }), options: null } });
    expect(s.pending).toEqual([{ turnId: 't', sessionId: 'own', requestId: 'r', toolCallId: 'c', toolKind: 'edit', title: 'Edit a', command: '/a\n/b', options: [] }]);
    expect(toolOf(s, 't', 'c')?.status).toBe('pending');
  });

  it('show the command Go read before the card’s, and the card’s command before its paths', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'tool_call', toolCall: tc({ toolCallId: 'c', kind: 'execute', status: 'in_progress', locations: [{ path: '/a' }] }), command: 'make' });
    applyEvent(s, 't', { type: 'permission', sessionId: 'ev-sid', permission: { requestId: 'r1', toolCall: tc({ toolCallId: 'c' }), options: null } });
    applyEvent(s, 't', { type: 'permission', permission: { requestId: 'r2', toolCall: tc({ toolCallId: 'c' }), command: 'rm -rf x', options: null } });
    expect(s.pending.map((p) => [p.command, p.sessionId])).toEqual([['make', 'ev-sid'], ['rm -rf x', SID]]);
    expect(toolOf(s, 't', 'c')?.status).toBe('pending'); // it waits on the answer
  });

  it('without a tool call ask about kind other with nothing to show', () => {
    const s = turn('t', null, {});
    applyEvent(s, 't', { type: 'permission', permission: { requestId: 'r', options: null } });
    expect(s.pending).toEqual([{ turnId: 't', sessionId: '', requestId: 'r', toolCallId: '', toolKind: 'other', title: '', command: '', options: [] }]);
    expect(s.items).toEqual([]);
    applyEvent(s, 't', { type: 'permission', permission: { requestId: '', options: null } });
    applyEvent(s, 't', { type: 'permission' });
    expect(s.pending).toHaveLength(1);
  });

  it('Go’s answer marks the card: remembered, chosen, or cancelled, found by the pending request', () => {
    const s = turn('t', null);
    for (const id of ['a', 'b', 'c', 'd']) applyEvent(s, 't', { type: 'permission', permission: { requestId: `r-${id}`, toolCall: tc({ toolCallId: id }), options: null } });
    applyEvent(s, 't', { type: 'permission_answered', answer: { requestId: 'r-a', optionId: 'o', kind: 'allow_always', remembered: true } });
    applyEvent(s, 't', { type: 'permission_answered', answer: { requestId: 'r-b', optionId: 'o', kind: 'reject_once' } });
    applyEvent(s, 't', { type: 'permission_answered', answer: { requestId: 'r-c', optionId: '' } });
    applyEvent(s, 't', { type: 'permission_answered', answer: { requestId: 'r-d', optionId: 'o' } });
    expect(['a', 'b', 'c', 'd'].map((id) => toolOf(s, 't', id)?.decision)).toEqual(['auto:allow_always', 'reject_once', 'cancelled', '']);
    expect(s.pending).toEqual([]);
  });

  it('an answer about a call never asked for shows its card; one without answer changes nothing', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'permission', permission: { requestId: 'keep', options: null } });
    applyEvent(s, 't', { type: 'permission_answered', permission: { requestId: 'x', toolCall: tc({ toolCallId: 'c', title: 'Run', status: 'in_progress' }), options: null }, answer: { requestId: 'x', optionId: 'o', kind: 'allow_always', remembered: true } });
    expect(toolOf(s, 't', 'c')).toMatchObject({ title: 'Run', status: 'in_progress', decision: 'auto:allow_always' });
    applyEvent(s, 't', { type: 'permission_answered', permission: { requestId: 'y', toolCall: tc({ toolCallId: 'd' }), options: null }, answer: { requestId: 'y', optionId: 'o', kind: 'allow_once' } });
    expect(toolOf(s, 't', 'd')).toMatchObject({ status: 'pending', decision: 'allow_once' });
    applyEvent(s, 't', { type: 'permission_answered', answer: { requestId: 'zz', optionId: 'o' } });
    applyEvent(s, 't', { type: 'permission_answered', permission: { requestId: 'keep', options: null } });
    expect(s.pending.map((p) => p.requestId)).toEqual(['keep']);
  });

  it('the user’s answer marks the card and goes to Go; an unknown request sends nothing', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'permission', permission: { requestId: 'r1', toolCall: tc({ toolCallId: 'c' }), options: null } });
    applyEvent(s, 't', { type: 'permission', permission: { requestId: 'r2', options: null } });
    expect(answer(s, 'nope', null)).toEqual([]);
    expect(answer(s, 'r1', { optionId: 'o1', name: 'Yes', kind: 'allow_once' })).toEqual([{ turnId: 't', requestId: 'r1', optionId: 'o1' }]);
    expect(toolOf(s, 't', 'c')?.decision).toBe('allow_once');
    expect(answer(s, 'r2', null)).toEqual([{ turnId: 't', requestId: 'r2', optionId: '' }]);
    expect(s.pending).toEqual([]);
  });

  it('the end of a turn drops only its own questions', () => {
    const s = turn('t', null);
    s.pending.push({ turnId: 'other', sessionId: '', requestId: 'o', toolCallId: '', toolKind: 'other', title: '', command: '', options: [] });
    applyEvent(s, 't', { type: 'permission', permission: { requestId: 'mine', options: null } });
    applyEvent(s, 't', { type: 'done', stopReason: 'end_turn' });
    expect(s.pending.map((p) => p.requestId)).toEqual(['o']);
  });
});

describe('errors, warnings and stops', () => {
  it('an error shows its code, text, stderr, agent, server and status, marked when it failed the opening', () => {
    const s = newChatState();
    beginOpen(s, 'o');
    applyEvent(s, 'o', { type: 'error', code: 'model_server', text: 'down', stderr: ['e1'], agent: 'codex', server: 'http://x', status: { message: 'm' } });
    expect(s.items).toEqual([{ kind: 'error', id: 1, turnId: 'o', code: 'model_server', text: 'down', stderr: ['e1'], agent: 'codex', server: 'http://x', status: { message: 'm' }, open: true }]);
    beginTurn(s, 't', null);
    applyEvent(s, 't', { type: 'error', stderr: 'not a list' as never });
    expect(s.items[1]).toEqual({ kind: 'error', id: 2, turnId: 't', code: '', text: '', stderr: [], agent: '' });
    expect(s.phase).toBe('idle');
  });

  it('an auth error after the sign-in box ends the turn without a second message; one without it is shown', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'auth_required', authMethods: [{ id: 'chatgpt', name: 'ChatGPT' }] });
    applyEvent(s, 't', { type: 'error', code: 'auth', text: 'sign in' });
    expect(s.items.map((i) => i.kind)).toEqual(['auth']);
    expect(s.items[0].kind === 'auth' && s.items[0].methods).toEqual([{ id: 'chatgpt', name: 'ChatGPT' }]);
    expect(s.phase).toBe('idle');
    beginTurn(s, 't2', null);
    applyEvent(s, 't2', { type: 'error', code: 'auth', text: 'sign in' });
    applyEvent(s, 't2', { type: 'auth_required' });
    expect(s.items.map((i) => i.kind)).toEqual(['auth', 'error', 'auth']);
    expect(s.items[2].kind === 'auth' && s.items[2].methods).toEqual([]);
    beginTurn(s, 't3', null);
    applyEvent(s, 't3', { type: 'error', code: 'agent_exit', text: 'x' });
    expect(s.items[3]).toMatchObject({ kind: 'error', code: 'agent_exit' });
  });

  it('a warning is shown in its turn', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'warning', text: 'MCP server failed' });
    expect(s.items).toEqual([{ kind: 'warning', id: 1, turnId: 't', text: 'MCP server failed' }]);
  });

  it('done records the stop reason, a turn of this run, and a stop only when not a normal end', () => {
    const s = turn('t', null, {});
    applyEvent(s, 't', { type: 'done', sessionId: 'sid-2', stopReason: 'max_tokens' });
    expect([s.sessionId, s.stopReason, s.history.hadTurn]).toEqual(['sid-2', 'max_tokens', true]);
    expect(s.items).toEqual([{ kind: 'stopped', id: 1, turnId: 't', reason: 'max_tokens' }]);
    beginTurn(s, 't2', null);
    applyEvent(s, 't2', { type: 'done' });
    expect([s.sessionId, s.stopReason, s.items.length]).toEqual(['sid-2', '', 1]);
  });

  it('the end of another turn leaves the running one running, with its pending values', () => {
    const s = turn('t', null);
    s.pendingOptions = { model: 'o3' };
    s.status = { message: 'working' };
    applyEvent(s, 'old', { type: 'done', stopReason: 'end_turn' });
    expect([s.phase, s.pendingOptions, s.status]).toEqual(['running', { model: 'o3' }, { message: 'working' }]);
    applyEvent(s, 't', { type: 'done', stopReason: 'end_turn' });
    expect([s.phase, s.pendingOptions, s.status]).toEqual(['idle', {}, null]);
  });

  it('a failed opening keeps the values chosen for the queued turn and lets it run', () => {
    const s = newChatState();
    beginOpen(s, 'o');
    beginTurn(s, 't', 'hi');
    s.pendingOptions = { model: 'o3' };
    applyEvent(s, 'o', { type: 'error', code: 'agent_exit', text: 'x' });
    expect([s.phase, s.openTurn, s.pendingOptions, s.history.replayDone]).toEqual(['running', '', { model: 'o3' }, false]);
  });
});

describe('session, modes, options and commands', () => {
  it('a session event takes the id and the setup; modes without a list are not modes', () => {
    const s = turn('t', null, {});
    applyEvent(s, 't', { type: 'session', sessionId: 'sid', setup: { configOptions: null, modes: { currentModeId: 'a', availableModes: null } } });
    // The agent answered, offering nothing: that is its word, not "not asked yet".
    expect([s.sessionId, s.modes, s.configOptions, s.optionsSource]).toEqual(['sid', null, [], 'live']);
    applyEvent(s, 't', { type: 'session' });
    expect(s.sessionId).toBe('sid');
    applyEvent(s, 't', { type: 'session', setup: { configOptions: null, modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: '' }, { id: 'code', name: 'Code', description: 'Writes' }] } } });
    expect(s.modes).toEqual({ current: 'ask', available: [{ id: 'ask', name: 'ask', description: undefined }, { id: 'code', name: 'Code', description: 'Writes' }] });
    expect(s.optionsSource).toBe('live');
  });

  it('a mode change moves the current mode, only for an agent with modes', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'mode', mode: 'code' });
    expect([s.modes, s.optionsSource]).toEqual([null, 'none']);
    s.modes = { current: 'ask', available: [] };
    applyEvent(s, 't', { type: 'mode' });
    expect([s.modes.current, s.optionsSource]).toEqual(['ask', 'none']);
    applyEvent(s, 't', { type: 'mode', mode: 'code' });
    expect([s.modes.current, s.optionsSource]).toEqual(['code', 'live']);
  });

  it('config options are the agent’s now, and pending values it holds already are dropped', () => {
    const s = turn('t', null);
    s.pendingOptions = { model: 'o3', thought_level: 'low', other: 'x' };
    applyEvent(s, 't', { type: 'config_options', configOptions: [{ id: 'model', name: 'Model', type: 'select', currentValue: 'o3' }, { id: 'e', name: 'E', category: 'thought_level', type: 'select', currentValue: 'low' }, { id: 'other', name: 'O', type: 'select', currentValue: 'y' }] });
    expect([s.optionsSource, s.pendingOptions]).toEqual(['live', { other: 'x' }]);
    applyEvent(s, 't', { type: 'config_options' });
    expect(s.configOptions).toEqual([]);
  });

  it('setSession without options or modes changes no source', () => {
    const s = newChatState();
    setSession(s, {});
    setSession(s, { configOptions: null, modes: null });
    expect([s.optionsSource, s.configOptions, s.modes]).toEqual(['none', [], null]);
  });

  it('commands are replaced, none when the list is null; a title comes only with a title', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'commands', commands: [{ name: 'review' }] });
    applyEvent(s, 't', { type: 'commands' });
    expect(s.commands).toEqual([]);
    applyEvent(s, 't', { type: 'session_info', info: { title: 'New' } });
    applyEvent(s, 't', { type: 'session_info', info: { title: '' } });
    applyEvent(s, 't', { type: 'session_info' });
    expect(s.title).toBe('New');
  });

  it('capabilities are only what the agent says true', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'agent', capabilities: { image: true, audio: 'yes' as never, embeddedContext: false } });
    expect(s.capabilities).toEqual({ image: true, audio: false, embeddedContext: false });
    applyEvent(s, 't', { type: 'agent', capabilities: { image: false, audio: true, embeddedContext: true } });
    expect(s.capabilities).toEqual({ image: false, audio: true, embeddedContext: true });
  });
});

describe('install progress', () => {
  it('an event without progress shows nothing; done ends it, a later turn’s end does not touch it', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'install' });
    expect(s.items).toEqual([]);
    applyEvent(s, 't', { type: 'install', install: { package: 'codex-acp', phase: 'download', done: 1, total: 4 } });
    expect(s.items[0]).toEqual({ kind: 'install', id: 1, turnId: 't', pkg: 'codex-acp', phase: 'download', done: 1, total: 4, ended: '' });
    applyEvent(s, 't', { type: 'install', install: { package: 'codex-acp', phase: 'done', done: 4, total: 4 } });
    applyEvent(s, 't', { type: 'done', stopReason: 'end_turn' });
    expect(s.items[0]).toMatchObject({ phase: 'done', ended: 'done' });
    beginTurn(s, 't2', null);
    applyEvent(s, 't2', { type: 'install', install: { package: 'p', phase: 'download', done: 0, total: 0 } });
    applyEvent(s, 't2', { type: 'error', code: 'install', text: 'x' });
    expect(s.items.map((i) => (i.kind === 'install' ? i.ended : i.kind))).toEqual(['done', 'stopped', 'error']);
  });
});

describe('rollout history', () => {
  it('tool messages become cards: failed on a non-zero exit, titled by command, name or text', () => {
    const s = newChatState();
    s.items.push({ kind: 'user', id: 99, turnId: 't', text: 'live' });
    prependHistory(s, [
      { role: 'system', text: 'ignored' },
      { role: 'tool', text: 'out1', tool: { command: 'make', exitCode: 2, output: '' } },
      { role: 'tool', text: 'out2', tool: { name: 'read_file' } },
      { role: 'tool', text: 'bare' },
      { role: 'tool', text: 'ok', tool: { command: 'ls', exitCode: 0, output: 'a b' } },
      { role: 'assistant', text: 'answer' },
    ] as never, 10);
    expect(shown(s)).toEqual(['tool: (history)', 'tool: (history)', 'tool: (history)', 'tool: (history)', 'assistant:answer (history)', 'user:live']);
    expect(s.items.slice(0, 4).map((i) => i.kind === 'tool' && i.toolCallId)).toEqual(['history-11', 'history-12', 'history-13', 'history-14']);
    const cards = ['history-11', 'history-12', 'history-13', 'history-14'].map((id) => toolOf(s, 'history', id)!);
    expect(cards.map((c) => [c.title, c.kind, c.status, c.terminal, c.exitCode, c.rawInput])).toEqual([
      ['make', 'execute', 'failed', 'out1', 2, { command: 'make' }],
      ['read_file', 'other', 'completed', 'out2', null, undefined],
      ['bare', 'other', 'completed', '', null, undefined],
      ['ls', 'execute', 'completed', 'a b', 0, { command: 'ls' }],
    ]);
    expect(s.history).toMatchObject({ offset: 10, source: 'rollout' });
  });
});

describe('findInTurn', () => {
  it('walks a turn newest first and stops where its run ends; nothing in an empty chat', () => {
    const s = newChatState();
    expect(findInTurn(s, 't', () => true)).toBeUndefined();
    s.items.push({ kind: 'user', id: 1, turnId: 'a', text: '1' }, { kind: 'user', id: 2, turnId: 'b', text: '2' }, { kind: 'user', id: 3, turnId: 'a', text: '3' });
    const seen: number[] = [];
    expect(findInTurn(s, 'a', (it) => { seen.push(it.id); return false; })).toBeUndefined();
    expect(seen).toEqual([3]);
    expect(findInTurn(s, 'b', () => true)?.id).toBe(2);
    expect(findInTurn(s, 'a', () => true)?.id).toBe(3);
  });
});

describe('gaps the second mutation run pointed at (not measured by it)', () => {
  it('a late exit without output leaves the card text blank, not undefined', () => {
    const s = turn('t', null);
    applyEvent(s, 't', { type: 'tool_call', toolCall: tc({ toolCallId: 'c', kind: 'execute' }) });
    applyEvent(s, 't', { type: 'tool_call_update', toolCall: tc({ toolCallId: 'c' }), terminal: { late: true, exited: true } });
    expect(toolOf(s, 't', 'c')?.terminal).toBe('');
  });

  it('a replayed empty thought or a replayed session info without info shows nothing', () => {
    const s = newChatState();
    beginOpen(s, 'o');
    applyEvent(s, 'o', { type: 'thought', replay: true });
    applyEvent(s, 'o', { type: 'session_info', replay: true });
    expect([s.items, s.title]).toEqual([[], '']);
  });

  it('rollout cards show no content, places or decision, and every item keeps its own id', () => {
    const s = newChatState();
    prependHistory(s, [{ role: 'user', text: 'q' }, { role: 'tool', text: 'o', tool: { command: 'ls' } }] as never, 0);
    beginTurn(s, 't', 'now');
    expect(s.items.map((i) => i.id)).toEqual([1, 2, 3]);
    expect(toolOf(s, 'history', 'history-1')).toMatchObject({ content: [], locations: [], decision: '' });
  });
});
