// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { applyEvent, beginOpen, beginTurn, newChatState, toolOf, type ChatState } from './chatReducer';
import type { ChatEvent, ToolCall } from './types';

// Guards a mutation pass found unwatched (issue 25): what the user would
// see go wrong is in each test's name.

const SID = '01a2360f-5f91-7ff3-adc8-62513b7ee756';
const tc = (t: Partial<ToolCall> & { toolCallId: string }): ToolCall => ({ content: null, locations: null, ...t });
const shown = (s: ChatState) => s.items.map((i) => `${i.kind}:${'text' in i ? i.text : ''}`);

function reopen(s: ChatState, turnId: string, replay: ChatEvent[]) {
  beginOpen(s, turnId);
  for (const ev of replay) applyEvent(s, turnId, { ...ev, replay: true });
  applyEvent(s, turnId, { type: 'ready', sessionId: SID });
}

const history: ChatEvent[] = [
  { type: 'user_text', text: 'make it teal' },
  { type: 'text', text: 'Done: teal.' },
];

describe('the agent replay is shown once', () => {
  it('not after a turn of this run finished: its history is on screen already', () => {
    const s = newChatState({ sessionId: SID });
    beginTurn(s, 't1', 'make it teal');
    applyEvent(s, 't1', { type: 'text', text: 'Done: teal.' });
    applyEvent(s, 't1', { type: 'done', sessionId: SID, stopReason: 'end_turn' });
    reopen(s, 'o1', history); // the warm agent died; the reconnect loads the session
    expect(shown(s)).toEqual(['user:make it teal', 'assistant:Done: teal.']);
  });

  it('not a second time when the chat is opened again', () => {
    const s = newChatState({ sessionId: SID });
    reopen(s, 'o1', history);
    reopen(s, 'o2', history);
    expect(shown(s)).toEqual(['user:make it teal', 'assistant:Done: teal.']);
  });
});

describe('streamed chunks', () => {
  it('of different turns stay in their own bubbles', () => {
    const s = newChatState({ sessionId: SID });
    applyEvent(s, 't1', { type: 'text', text: 'first answer' });
    applyEvent(s, 't2', { type: 'text', text: 'second answer' });
    expect(shown(s)).toEqual(['assistant:first answer', 'assistant:second answer']);
  });

  it('of one turn join into one bubble', () => {
    const s = newChatState({ sessionId: SID });
    applyEvent(s, 't1', { type: 'text', text: 'one ' });
    applyEvent(s, 't1', { type: 'text', text: 'bubble' });
    expect(shown(s)).toEqual(['assistant:one bubble']);
  });
});

describe('late terminal output (rawOutput, once the command is done)', () => {
  const late = (id: string, output: string): ChatEvent => ({
    type: 'tool_call_update',
    toolCall: tc({ toolCallId: id, status: 'completed' }),
    terminal: { late: true, output, exited: true, exitCode: 0 },
  });

  it('shows on a command card that showed nothing', () => {
    const s = newChatState({ sessionId: SID });
    applyEvent(s, 't', { type: 'tool_call', toolCall: tc({ toolCallId: 'x', kind: 'execute', title: 'ls' }) });
    applyEvent(s, 't', late('x', 'theme.json\n'));
    expect(toolOf(s, 't', 'x')).toMatchObject({ terminal: 'theme.json\n', exitCode: 0 });
  });

  it('never on an edit or read card', () => {
    const s = newChatState({ sessionId: SID });
    applyEvent(s, 't', { type: 'tool_call', toolCall: tc({ toolCallId: 'e', kind: 'edit', title: 'Edit theme.json' }) });
    applyEvent(s, 't', late('e', '{"ok":true}'));
    expect(toolOf(s, 't', 'e')!.terminal).toBe('');
    expect(toolOf(s, 't', 'e')!.exitCode).toBeNull();
  });

  it('never over the output the command streamed', () => {
    const s = newChatState({ sessionId: SID });
    applyEvent(s, 't', { type: 'tool_call', toolCall: tc({ toolCallId: 'x', kind: 'execute', title: 'ls' }), terminal: { output: 'streamed\n' } });
    applyEvent(s, 't', late('x', 'summary'));
    expect(toolOf(s, 't', 'x')!.terminal).toBe('streamed\n');
  });
});
