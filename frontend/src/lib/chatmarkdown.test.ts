// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { applyEvent, beginTurn, newChatState } from './chatReducer';
import { chatMarkdown } from './chatmarkdown';
import type { ToolCall } from './types';

const tc = (t: Partial<ToolCall> & { toolCallId: string }): ToolCall => ({ content: null, locations: null, ...t });
const labels = { user: 'You', agent: 'Codex', tool: 'Tool' };

describe('chatMarkdown', () => {
  it('writes every message and tool call of the chat, each under its heading, in order', () => {
    const s = newChatState();
    beginTurn(s, 't1', 'make it teal', 0);
    applyEvent(s, 't1', { type: 'text', text: 'Writing the theme.' }, 1);
    applyEvent(s, 't1', { type: 'tool_call', toolCall: tc({ toolCallId: 'c1', title: 'Edit theme.json', kind: 'edit', status: 'completed', content: [{ type: 'diff', path: '/w/theme.json', newText: '{"name":"Teal"}' }] }) }, 2);
    applyEvent(s, 't1', { type: 'tool_call', toolCall: tc({ toolCallId: 'c2', title: 'ls', kind: 'execute', status: 'completed', content: [] }), terminal: { output: 'theme.json\n' } }, 3);
    applyEvent(s, 't1', { type: 'done', stopReason: 'end_turn' }, 4);
    // A second turn may reuse a call id: its card is its own.
    beginTurn(s, 't2', 'again', 5);
    applyEvent(s, 't2', { type: 'tool_call', toolCall: tc({ toolCallId: 'c1', title: 'Edit again', kind: 'edit', status: 'completed', content: [] }) }, 6);
    applyEvent(s, 't2', { type: 'warning', text: 'careful\nnow' }, 7);
    const md = chatMarkdown(s, 'Teal\nbuild', labels);
    expect(md).toBe(
      [
        '# Teal build',
        '## You', 'make it teal',
        '## Codex', 'Writing the theme.',
        '### Tool: Edit theme.json', '```\n/w/theme.json\n{"name":"Teal"}\n```',
        '### Tool: ls', '```\ntheme.json\n```',
        '## You', 'again',
        '### Tool: Edit again',
        '> careful\n> now',
      ].join('\n\n') + '\n',
    );
  });

  it('fences output longer than any run of backticks in it', () => {
    const s = newChatState();
    beginTurn(s, 't1', 'x', 0);
    applyEvent(s, 't1', { type: 'tool_call', toolCall: tc({ toolCallId: 'c1', title: 'cat', kind: 'execute', status: 'completed', content: [] }), terminal: { output: 'a ```` b' } }, 1);
    expect(chatMarkdown(s, 'T', labels)).toContain('`````\na ```` b\n`````');
  });
});
