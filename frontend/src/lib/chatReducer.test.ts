// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { answer, applyEvent, beginOpen, beginTurn, findInTurn, isOpening, isRunning, newChatState, prependHistory, toolOf, type ChatState } from './chatReducer';
import type { ChatEvent, ChatEventOf, PermissionOption, ToolCall } from './types';
import fixture from '../test/fixtures/turn-events.json';

const SID = '01a2360f-5f91-7ff3-adc8-62513b7ee756';

function run(s: ChatState, turnId: string, events: ChatEvent[]) {
  for (const ev of events) applyEvent(s, turnId, ev);
}

/** A tool call as Go sends it: absent lists are null (unchanged). */
const tc = (t: Partial<ToolCall> & { toolCallId: string }): ToolCall => ({ content: null, locations: null, ...t });

const allKinds: PermissionOption[] = [
  { optionId: 'opt-a', name: 'Yes', kind: 'allow_once' },
  { optionId: 'opt-b', name: 'Yes, always', kind: 'allow_always' },
  { optionId: 'opt-c', name: 'No', kind: 'reject_once' },
  { optionId: 'opt-d', name: 'Never', kind: 'reject_always' },
];

function permission(requestId: string, toolCallId: string, kind: string, options = allKinds): ChatEventOf<'permission'> {
  return { type: 'permission', sessionId: SID, permission: { requestId, toolCall: tc({ toolCallId, kind, title: `${kind} ${toolCallId}` }), options } };
}

describe('ChatEvent as generated from the Go payloads', () => {
  it('is a union on type: a field of another kind does not compile (checked by tsc)', () => {
    // @ts-expect-error a done event has no text; tsc fails here if ChatEvent stops narrowing
    const wrong: ChatEvent = { type: 'done', text: 'stray' };
    const right: ChatEventOf<'done'> = { type: 'done', stopReason: 'end_turn' };
    const s = newChatState({ sessionId: SID });
    beginTurn(s, 't', null);
    applyEvent(s, 't', right);
    expect([wrong.type, s.stopReason]).toEqual(['done', 'end_turn']);
  });
});

describe('chat reducer on a real codex-acp turn', () => {
  const events = fixture.events as ChatEvent[];
  const permIndex = events.findIndex((e) => e.type === 'permission');

  it('streams text, thoughts, plan and tool output into ordered items', () => {
    const s = newChatState({ workspaceId: 'ws1' });
    beginTurn(s, 't-1', 'run echo');
    run(s, 't-1', events.slice(0, permIndex));

    expect(s.sessionId).toBe(SID);
    expect(s.items.map((i) => i.kind)).toEqual(['user', 'thought', 'plan', 'tool', 'tool']);
    const thought = s.items[1];
    expect(thought.kind === 'thought' && thought.text).toBe('The user wants a shell command; I will run it.');
    const plan = s.items[2];
    expect(plan.kind === 'plan' && plan.entries.map((e) => e.status)).toEqual(['in_progress', 'pending']);

    const echo = toolOf(s, 't-1', 'call_mock_3')!;
    expect(echo.status).toBe('completed');
    expect(echo.kind).toBe('execute');
    expect(echo.title).toBe('echo hello-from-shell');
    expect(echo.terminal).toBe('hello-from-shell\n');
    expect(echo.exitCode).toBe(0);
    expect(s.commands.map((c) => c.name)).toEqual(['review']);
  });

  it('ignores an unknown update variant without changing what is shown', () => {
    const s = newChatState();
    beginTurn(s, 't-1', 'x');
    const unknownIdx = events.findIndex((e) => e.type === 'update');
    run(s, 't-1', events.slice(0, unknownIdx));
    const before = JSON.stringify(s);
    // (Each still counts as the agent being alive: same time, same stamp.)
    const at = s.lastEventAt;
    applyEvent(s, 't-1', events[unknownIdx], at);
    // A type newer than this UI (the generated union does not know it yet).
    applyEvent(s, 't-1', JSON.parse('{"type":"brand_new_type","update":{"weird":true}}') as ChatEvent, at);
    applyEvent(s, 't-1', { type: 'tool_call_update' }, at);
    expect(JSON.stringify(s)).toBe(before);
  });

  it('queues a permission request and finishes the turn on done', () => {
    const s = newChatState();
    beginTurn(s, 't-1', 'x');
    run(s, 't-1', events.slice(0, permIndex + 1));
    expect(s.pending).toHaveLength(1);
    expect(s.pending[0]).toMatchObject({ requestId: '0', toolCallId: 'call_mock_5', toolKind: 'execute', sessionId: SID });
    expect(s.pending[0].options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
    // The tool card for the asked-about call exists once, not twice.
    expect(s.items.filter((i) => i.kind === 'tool' && i.toolCallId === 'call_mock_5')).toHaveLength(1);

    run(s, 't-1', events.slice(permIndex + 1));
    const last = s.items[s.items.length - 1];
    expect(last.kind === 'assistant' && last.text).toBe('Hello from **Codex**.');
    expect(s.usage).toEqual({ used: 132, size: 258400, cost: null });
    expect(s.title).toBe('Shell test');
    expect(isRunning(s)).toBe(false);
    expect(s.stopReason).toBe('end_turn');
    expect(s.pending).toEqual([]); // the agent no longer waits
  });
});

describe('tool calls', () => {
  it('merges tool_call_update fields into the card; absent fields keep their value', () => {
    const s = newChatState();
    beginTurn(s, 't', null);
    applyEvent(s, 't', { type: 'tool_call', toolCall: tc({ toolCallId: 'c1', title: 'Edit theme.json', kind: 'edit', status: 'in_progress', content: [{ type: 'diff', path: '/w/theme.json', newText: '{}\n' }], locations: [{ path: '/w/theme.json' }] }) });
    applyEvent(s, 't', { type: 'tool_call_update', toolCall: tc({ toolCallId: 'c1', status: 'completed' }) });
    const t = toolOf(s, 't', 'c1')!;
    expect(t).toMatchObject({ title: 'Edit theme.json', kind: 'edit', status: 'completed' });
    expect(t.content).toEqual([{ type: 'diff', path: '/w/theme.json', oldText: null, newText: '{}\n' }]);
    expect(t.locations).toEqual([{ path: '/w/theme.json', line: undefined }]);
    applyEvent(s, 't', { type: 'tool_call_update', toolCall: tc({ toolCallId: 'c1', content: [{ type: 'content', content: { type: 'text', text: 'done' } }] }) });
    expect(t.content).toEqual([{ type: 'text', text: 'done' }]);
  });

  it('takes shell output from the Rust adapter rawOutput and full terminal_output', () => {
    const s = newChatState();
    beginTurn(s, 't', null);
    applyEvent(s, 't', { type: 'tool_call', toolCall: tc({ toolCallId: 'c2', kind: 'execute', title: 'ls', status: 'in_progress' }) });
    applyEvent(s, 't', { type: 'tool_call_update', toolCall: tc({ toolCallId: 'c2', status: 'completed', rawOutput: { formatted_output: 'a\nb\n', exit_code: 2 } }), terminal: { output: 'a\nb\n', exited: true, exitCode: 2, late: true } });
    expect(toolOf(s, 't', 'c2')).toMatchObject({ terminal: 'a\nb\n', exitCode: 2 });
    applyEvent(s, 't', { type: 'tool_call_update', toolCall: tc({ toolCallId: 'c2', _meta: { terminal_output: 'replaced' } }), terminal: { output: 'replaced' } });
    expect(toolOf(s, 't', 'c2')!.terminal).toBe('replaced');
  });
});

describe('tool call ids are the turn’s own', () => {
  /** What the list shows of each tool card, in order. */
  const cards = (s: ChatState) => s.items.flatMap((i) => (i.kind === 'tool' ? [`${i.turnId}:${s.tools[i.key]?.title}:${s.tools[i.key]?.status}:${s.tools[i.key]?.terminal}`] : []));

  it('a later turn that uses a call id again gets its own card; the earlier card keeps what it showed', () => {
    const s = newChatState({ sessionId: SID });
    beginTurn(s, 't1', 'list');
    run(s, 't1', [
      { type: 'tool_call', toolCall: tc({ toolCallId: 'call_0', kind: 'execute', title: 'ls', status: 'in_progress' }), terminal: { output: 'theme.json\n' } },
      { type: 'tool_call_update', toolCall: tc({ toolCallId: 'call_0', status: 'completed' }) },
      { type: 'done', sessionId: SID, stopReason: 'end_turn' },
    ]);
    beginTurn(s, 't2', 'show it');
    run(s, 't2', [
      { type: 'tool_call', toolCall: tc({ toolCallId: 'call_0', kind: 'execute', title: 'cat theme.json', status: 'in_progress' }), terminal: { output: '{}' } },
      permission('0', 'call_0', 'execute'),
    ]);
    answer(s, '0', allKinds[0]);
    // The request's own tool call (title, pending) is merged into t2's card only.
    expect(cards(s)).toEqual(['t1:ls:completed:theme.json\n', 't2:execute call_0:pending:{}']);
    expect(toolOf(s, 't1', 'call_0')!.decision).toBe('');
    expect(toolOf(s, 't2', 'call_0')!.decision).toBe('allow_once');
  });

  it('an agent’s replay of several turns that reuse an id shows every call', () => {
    const s = newChatState({ sessionId: SID });
    beginOpen(s, 'o');
    run(s, 'o', [
      { type: 'user_text', replay: true, text: 'list' },
      { type: 'tool_call', replay: true, toolCall: tc({ toolCallId: 'call_0', kind: 'execute', title: 'ls', status: 'completed' }) },
      { type: 'user_text', replay: true, text: 'show it' },
      { type: 'tool_call', replay: true, toolCall: tc({ toolCallId: 'call_0', kind: 'execute', title: 'cat theme.json', status: 'completed' }) },
      { type: 'ready', sessionId: SID },
    ]);
    expect(cards(s)).toEqual(['o:ls:completed:', 'o:cat theme.json:completed:']);
  });
});

describe('permissions', () => {
  it('shows a card for a request that arrives before its tool_call (Rust adapter)', () => {
    const s = newChatState({ sessionId: SID });
    beginTurn(s, 't', null);
    applyEvent(s, 't', permission('"uuid-1"', 'c9', 'edit'));
    expect(toolOf(s, 't', 'c9')).toMatchObject({ kind: 'edit', status: 'pending', title: 'edit c9' });
    applyEvent(s, 't', { type: 'tool_call', toolCall: tc({ toolCallId: 'c9', kind: 'edit', title: 'Edit x', status: 'in_progress' }) });
    expect(s.items.filter((i) => i.kind === 'tool')).toHaveLength(1);
    expect(toolOf(s, 't', 'c9')!.title).toBe('Edit x');
  });

  it('shows an answer Go gave from a remembered always, without asking', () => {
    const s = newChatState({ sessionId: SID });
    beginTurn(s, 't', null);
    applyEvent(s, 't', permission('1', 'c1', 'execute'));
    expect(answer(s, '1', allKinds[1])).toEqual([{ turnId: 't', requestId: '1', optionId: 'opt-b' }]);
    applyEvent(s, 't', { type: 'permission_answered', sessionId: SID, answer: { requestId: '1', optionId: 'opt-b', kind: 'allow_always' } });
    expect(toolOf(s, 't', 'c1')!.decision).toBe('allow_always');
    // The next execute request Go answered itself: a card, no dialog.
    const p = permission('2', 'c2', 'execute').permission!;
    applyEvent(s, 't', { type: 'permission_answered', sessionId: SID, permission: p, answer: { requestId: '2', optionId: 'opt-b', kind: 'allow_always', remembered: true } });
    expect(s.pending).toEqual([]);
    expect(toolOf(s, 't', 'c2')).toMatchObject({ title: 'execute c2', decision: 'auto:allow_always' });
  });

  it('drops a request Go answered meanwhile (cancelled with the turn)', () => {
    const s = newChatState({ sessionId: SID });
    beginTurn(s, 't', null);
    applyEvent(s, 't', permission('1', 'c1', 'execute'));
    applyEvent(s, 't', permission('2', 'c2', 'read'));
    applyEvent(s, 't', { type: 'permission_answered', sessionId: SID, answer: { requestId: '1', optionId: '' } });
    expect(s.pending.map((p) => p.requestId)).toEqual(['2']);
    expect(toolOf(s, 't', 'c1')!.decision).toBe('cancelled');
  });

  it('a once answer is not remembered and null cancels with an empty option id', () => {
    const s = newChatState({ sessionId: SID });
    beginTurn(s, 't', null);
    applyEvent(s, 't', permission('1', 'c1', 'execute'));
    answer(s, '1', allKinds[0]);
    applyEvent(s, 't', permission('2', 'c2', 'execute'));
    expect(s.pending.map((p) => p.requestId)).toEqual(['2']);
    expect(answer(s, '2', null)).toEqual([{ turnId: 't', requestId: '2', optionId: '' }]);
    expect(toolOf(s, 't', 'c2')!.decision).toBe('cancelled');
    expect(answer(s, 'nope', allKinds[0])).toEqual([]);
  });
});

describe('errors, stops and order', () => {
  it('keeps the error with the agent stderr and ends the turn', () => {
    const s = newChatState();
    beginTurn(s, 't', 'hi');
    applyEvent(s, 't', { type: 'session', sessionId: SID });
    applyEvent(s, 't', { type: 'text', text: 'partial' });
    applyEvent(s, 't', { type: 'error', code: 'agent_exit', text: 'agent exited with status 3', stderr: ['fatal: simulated crash', 'bye'], agent: 'codex-acp (found on PATH)' });
    const err = s.items[s.items.length - 1];
    expect(err).toMatchObject({ kind: 'error', code: 'agent_exit', stderr: ['fatal: simulated crash', 'bye'], agent: 'codex-acp (found on PATH)' });
    expect(isRunning(s)).toBe(false);
  });

  it('marks a cancelled turn, but not a normal end', () => {
    const s = newChatState();
    beginTurn(s, 't', 'hi');
    applyEvent(s, 't', { type: 'done', stopReason: 'cancelled' });
    expect(s.items.map((i) => i.kind)).toEqual(['user', 'stopped']);
    beginTurn(s, 'u', 'again');
    applyEvent(s, 'u', { type: 'done', stopReason: 'end_turn' });
    expect(s.items.map((i) => i.kind)).toEqual(['user', 'stopped', 'user']);
  });

  it('puts history replayed by session/load (marked replay) above the new prompt', () => {
    const s = newChatState({ sessionId: SID });
    beginTurn(s, 't', 'new question');
    run(s, 't', [
      { type: 'user_text', replay: true, text: 'old question' },
      { type: 'text', replay: true, text: 'old answer' },
      { type: 'tool_call', replay: true, toolCall: tc({ toolCallId: 'c1', kind: 'execute', title: 'ls', status: 'completed' }) },
      { type: 'session', sessionId: SID },
      { type: 'text', text: 'new answer' },
    ]);
    expect(s.items.map((i) => ('text' in i ? `${i.kind}:${i.text}` : i.kind) + (i.history ? ' (history)' : ''))).toEqual([
      'user:old question (history)',
      'assistant:old answer (history)',
      'tool (history)',
      'user:new question',
      'assistant:new answer',
    ]);
  });

  it('keeps the answer below the prompt in the order Go sends a follow-up turn', () => {
    // Go opens the session (a replay marked as such comes first) and emits `session`
    // before anything of the answer; an agent echoing the user's words
    // mid-turn comes after the prompt, not above it.
    const s = newChatState({ sessionId: SID });
    beginTurn(s, 't', 'question');
    run(s, 't', [{ type: 'session', sessionId: SID }, { type: 'text', text: 'answer' }, { type: 'user_text', text: 'echoed?' }]);
    expect(s.items.map((i) => ('text' in i ? `${i.kind}:${i.text}` : i.kind))).toEqual(['user:question', 'assistant:answer', 'user:echoed?']);
  });

  it('replaces the plan of a turn instead of stacking plans', () => {
    const s = newChatState();
    beginTurn(s, 't', null);
    applyEvent(s, 't', { type: 'plan', plan: { entries: [{ content: 'a', status: 'pending' }] } });
    applyEvent(s, 't', { type: 'plan', plan: { entries: [{ content: 'a', status: 'completed' }, { content: 'b', status: 'in_progress' }] } });
    const plans = s.items.filter((i) => i.kind === 'plan');
    expect(plans).toHaveLength(1);
    expect(plans[0].kind === 'plan' && plans[0].entries.map((e) => e.content + ':' + e.status)).toEqual(['a:completed', 'b:in_progress']);
  });
});

describe('agent capabilities, modes and commands', () => {
  it('keeps what the agent takes, its modes and its commands with input hints', () => {
    const s = newChatState();
    beginTurn(s, 't', 'hi');
    run(s, 't', [
      { type: 'session', sessionId: SID, setup: { configOptions: null, modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code', description: 'Write code' }] } } },
      { type: 'agent', sessionId: SID, capabilities: { image: true, audio: false, embeddedContext: true } },
      { type: 'commands', commands: [{ name: 'review', description: 'Review', input: { hint: 'what to look at' } }, { name: 'status', description: 'Status' }] },
      { type: 'mode', mode: 'code' },
    ]);
    expect(s.capabilities).toEqual({ image: true, audio: false, embeddedContext: true });
    expect(s.modes).toEqual({ current: 'code', available: [{ id: 'ask', name: 'Ask', description: undefined }, { id: 'code', name: 'Code', description: 'Write code' }] });
    expect(s.commands).toEqual([
      { name: 'review', description: 'Review', input: { hint: 'what to look at' } },
      { name: 'status', description: 'Status' },
    ]);
  });

  it('an agent event without capabilities means nothing beyond text', () => {
    const s = newChatState();
    applyEvent(s, 't', { type: 'agent' });
    expect(s.capabilities).toEqual({ image: false, audio: false, embeddedContext: false });
  });
});

describe('the truth about settings', () => {
  const opts = (mode: string, effort: string) => ({
    configOptions: [
      { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: mode },
      { id: 'reasoning_effort', name: 'Reasoning', category: 'thought_level', type: 'select', currentValue: effort },
    ],
  });

  it('every session and config event replaces the values shown: the last report wins', () => {
    const s = newChatState({ sessionId: SID });
    beginTurn(s, 't1', 'go');
    run(s, 't1', [
      { type: 'session', sessionId: SID, setup: opts('agent', 'medium') },
      { type: 'config_options', ...opts('agent-full-access', 'medium') },
      { type: 'config_options', ...opts('agent-full-access', 'high') },
      { type: 'done', stopReason: 'end_turn' },
    ]);
    beginTurn(s, 't2', 'again');
    run(s, 't2', [{ type: 'session', sessionId: SID, setup: opts('agent-full-access', 'high') }, { type: 'done', stopReason: 'end_turn' }]);
    expect(s.configOptions.map((o) => o.currentValue)).toEqual(['agent-full-access', 'high']);
    expect(s.optionsSource).toBe('live');
  });

  it("the agent's session setup is all it holds: values shown before it answered that it does not report go", () => {
    // Before the agent answered, the bar showed a model and effort from Codex's configuration and saved modes.
    const s = newChatState({ sessionId: SID });
    s.configOptions = opts('agent', 'medium').configOptions;
    s.modes = { current: 'old', available: [{ id: 'old', name: 'Old' }] };
    s.optionsSource = 'none';
    beginTurn(s, 't', 'go');
    // The agent reports modes only.
    run(s, 't', [{ type: 'session', sessionId: SID, setup: { configOptions: null, modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }] } } }]);
    expect(s.configOptions).toEqual([]);
    expect(s.modes).toEqual({ current: 'ask', available: [{ id: 'ask', name: 'Ask', description: undefined }] });
    expect(s.optionsSource).toBe('live');
    // And then options only: the saved modes are not its.
    run(s, 't', [{ type: 'session', sessionId: SID, setup: opts('agent', 'high') }]);
    expect(s.modes).toBeNull();
    expect(s.configOptions.map((o) => o.currentValue)).toEqual(['agent', 'high']);
  });

  it('a refusal is shown with the agent reason; what the agent runs stays', () => {
    const s = newChatState({ sessionId: SID });
    beginTurn(s, 't', 'go');
    s.pendingOptions = { mode: 'read-only' };
    run(s, 't', [
      { type: 'session', sessionId: SID, setup: opts('agent', 'medium') },
      { type: 'option_refused', text: 'Invalid params', refused: { configId: 'mode', name: 'Mode', value: 'read-only', current: 'agent' } },
    ]);
    expect(s.refusal).toEqual({ configId: 'mode', name: 'Mode', value: 'read-only', current: 'agent', reason: 'Invalid params' });
    expect(s.pendingOptions).toEqual({});
    expect(s.configOptions[0].currentValue).toBe('agent');
    beginTurn(s, 't2', 'next');
    expect(s.refusal).toBeNull();
  });
});

describe('live turn status', () => {
  it('keeps the agent latest status until output arrives, and stamps the last activity', () => {
    const s = newChatState({ sessionId: SID });
    beginTurn(s, 't', 'go', 1000);
    applyEvent(s, 't', { type: 'status', status: { message: 'Reconnecting... waiting for network', details: 'Connection failed: error sending request', retrying: true } }, 4000);
    applyEvent(s, 't', { type: 'status', status: { message: 'Reconnecting... 2/5' } }, 9000);
    expect(s.status?.message).toBe('Reconnecting... 2/5');
    expect(s.lastEventAt).toBe(9000);
    applyEvent(s, 't', { type: 'text', text: 'Back.' }, 12000);
    expect(s.status).toBeNull();
    applyEvent(s, 't', { type: 'status', status: { message: 'Reconnecting...' } });
    applyEvent(s, 't', { type: 'error', code: 'model_server', text: 'could not reach', server: 'Mock (http://x)', status: { message: 'Reconnecting...' } });
    expect(isRunning(s)).toBe(false);
    expect(s.status).toBeNull();
    expect(s.items.at(-1)).toMatchObject({ kind: 'error', code: 'model_server', server: 'Mock (http://x)' });
  });

  it('a compaction records the context it left', () => {
    const s = newChatState({ sessionId: SID });
    beginTurn(s, 't', '/compact');
    run(s, 't', [
      { type: 'tool_call', toolCall: tc({ toolCallId: 'k', kind: 'think', title: 'Compact conversation', status: 'in_progress' }) },
      { type: 'usage', usage: { used: 8072, size: 258400 } },
      { type: 'tool_call_update', toolCall: tc({ toolCallId: 'k', status: 'completed' }) },
    ]);
    expect(toolOf(s, 't', 'k')!.usageAfter).toMatchObject({ used: 8072, size: 258400 });
  });
});

describe('history', () => {
  it('older rollout pages go above everything, tools become cards', () => {
    const s = newChatState({ sessionId: SID });
    beginOpen(s, 'o');
    prependHistory(s, [{ role: 'user', time: '', text: 'b' }, { role: 'tool', time: '', text: '', tool: { name: 'exec_command', command: 'ls', output: 'theme.json', exitCode: 0 } }], 2);
    prependHistory(s, [{ role: 'user', time: '', text: 'a' }, { role: 'assistant', time: '', text: 'ok' }], 0);
    expect(s.items.map((i) => ('text' in i ? i.text : i.kind))).toEqual(['a', 'ok', 'b', 'tool']);
    const tool = toolOf(s, 'history', 'history-3');
    expect(tool).toMatchObject({ kind: 'execute', title: 'ls', terminal: 'theme.json', exitCode: 0, status: 'completed' });
    expect(s.history).toMatchObject({ source: 'rollout', offset: 0 });
    applyEvent(s, 'o', { type: 'user_text', replay: true, text: 'a' });
    applyEvent(s, 'o', { type: 'ready', sessionId: SID });
    expect(s.items).toHaveLength(4);
    expect(isOpening(s)).toBe(false);
  });
});

describe('the chat phase', () => {
  it('goes idle, opening, queued (a message sent while it opens), running, idle', () => {
    const s = newChatState({ sessionId: SID });
    expect(s.phase).toBe('idle');
    beginOpen(s, 'o');
    expect(s.phase).toBe('opening');
    beginTurn(s, 't', 'make it teal');
    expect([s.phase, isRunning(s), isOpening(s)]).toEqual(['queued', true, true]);
    applyEvent(s, 'o', { type: 'ready', sessionId: SID });
    expect(s.phase).toBe('running');
    applyEvent(s, 't', { type: 'done', sessionId: SID, stopReason: 'end_turn' });
    expect(s.phase).toBe('idle');
  });

  it('is still opening when the queued turn ends first, and idle once the open fails', () => {
    const s = newChatState({ sessionId: SID });
    beginOpen(s, 'o');
    beginTurn(s, 't', 'hi');
    applyEvent(s, 't', { type: 'error', code: 'agent_exit', text: 'gone' });
    expect(s.phase).toBe('opening');
    applyEvent(s, 'o', { type: 'error', code: 'agent_exit', text: 'gone' });
    expect(s.phase).toBe('idle');
  });
});

describe('an opening that failed', () => {
  it('still takes the replay of the next opening (e.g. after Choose folder)', () => {
    const s = newChatState({ sessionId: SID });
    beginOpen(s, 'o1');
    applyEvent(s, 'o1', { type: 'error', code: 'input', text: 'the working directory /gone is not a directory' });
    expect(isOpening(s)).toBe(false);
    beginOpen(s, 'o2');
    applyEvent(s, 'o2', { type: 'user_text', replay: true, text: 'make it teal' });
    applyEvent(s, 'o2', { type: 'ready', sessionId: SID });
    expect(s.items.filter((i) => i.history).map((i) => ('text' in i ? i.text : ''))).toEqual(['make it teal']);
    expect(s.history.replayDone).toBe(true);
  });
});

describe('chat reducer: first-run install', () => {
  const pkg = '@agentclientprotocol/codex-acp@2.6.0';
  const install = (phase: string, done = 0, total = 0): ChatEvent => ({ type: 'install', install: { package: pkg, phase, done, total } });

  it('keeps one install item per turn with its latest progress, before the answer', () => {
    const s = newChatState();
    beginTurn(s, 't-1', 'hi');
    run(s, 't-1', [install('resolving'), install('downloading', 0, 1000), install('downloading', 400, 1000)]);
    const items = s.items.filter((it) => it.kind === 'install');
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ pkg, phase: 'downloading', done: 400, total: 1000, ended: '' });
    run(s, 't-1', [install('done', 1000, 1000), { type: 'text', text: 'Hello' }, { type: 'done', stopReason: 'end_turn' }]);
    expect(s.items.map((it) => it.kind)).toEqual(['user', 'install', 'assistant']);
    expect(s.items[1]).toMatchObject({ phase: 'done', done: 1000, ended: 'done' });
  });

  it('never shows progress going back', () => {
    const s = newChatState();
    beginTurn(s, 't-1', 'hi');
    run(s, 't-1', [install('downloading', 700, 1000), install('downloading', 300, 1000)]);
    expect(s.items[1]).toMatchObject({ done: 700 });
  });

  it('marks an install the turn ended before (cancel, failure) as stopped', () => {
    const s = newChatState();
    beginTurn(s, 't-1', 'hi');
    run(s, 't-1', [install('downloading', 10, 1000), { type: 'done', stopReason: 'cancelled' }]);
    expect(s.items[1]).toMatchObject({ kind: 'install', ended: 'stopped' });
    expect(isRunning(s)).toBe(false);
    beginTurn(s, 't-2', 'again');
    run(s, 't-2', [install('resolving'), { type: 'error', code: 'install', text: 'Could not install the agent' }]);
    const second = s.items.find((it) => it.kind === 'install' && it.turnId === 't-2');
    expect(second).toMatchObject({ ended: 'stopped' });
  });
});

describe('a turn in a long chat', () => {
  it('finds its own items newest first and each turn keeps one plan, however long the history above it', () => {
    const s = newChatState({ cwd: '/w' });
    for (let i = 1; i <= 50; i++) {
      beginTurn(s, 't' + i, 'q' + i);
      applyEvent(s, 't' + i, { type: 'plan', plan: { entries: [{ content: 'step of ' + i, priority: 'medium', status: 'pending' }] } });
      applyEvent(s, 't' + i, { type: 'text', text: 'a' + i });
      applyEvent(s, 't' + i, { type: 'done', stopReason: 'end_turn' });
    }
    beginTurn(s, 'now', 'again');
    applyEvent(s, 'now', { type: 'plan', plan: { entries: [{ content: 'first', priority: 'medium', status: 'pending' }] } });
    applyEvent(s, 'now', { type: 'text', text: 'working' });
    applyEvent(s, 'now', { type: 'plan', plan: { entries: [{ content: 'second', priority: 'medium', status: 'completed' }] } });
    const plans = s.items.filter((it) => it.kind === 'plan' && it.turnId === 'now');
    expect(plans).toHaveLength(1);
    expect(plans[0].kind === 'plan' && plans[0].entries.map((e) => e.content)).toEqual(['second']);
    // An earlier turn's plan is untouched.
    const earlier = s.items.find((it) => it.kind === 'plan' && it.turnId === 't50');
    expect(earlier?.kind === 'plan' && earlier.entries[0].content).toBe('step of 50');
    const seen: string[] = [];
    findInTurn(s, 'now', (it) => (seen.push(it.kind), false));
    expect(seen).toEqual(['assistant', 'plan', 'user']);
    expect(findInTurn(s, 'now', (it) => it.kind === 'user')?.turnId).toBe('now');
  });
});
