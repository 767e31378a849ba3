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

  it('names an untitled tool by its kind, shows only diffs with a path, quotes errors, and leaves out thoughts and plans', () => {
    const s = newChatState();
    s.items = [
      { kind: 'thought', id: 1, turnId: 't1', text: 'secret reasoning' },
      { kind: 'plan', id: 2, turnId: 't1', entries: [{ content: 'step one', priority: 'high', status: 'pending' }] },
      { kind: 'tool', id: 3, turnId: 't1', toolCallId: 'c1', key: 'k1' },
      { kind: 'tool', id: 4, turnId: 't1', toolCallId: 'gone', key: 'missing' },
      { kind: 'error', id: 5, turnId: 't1', code: '', text: 'agent died\nexit 1', stderr: [], agent: 'codex' },
    ] as unknown as typeof s.items;
    s.tools = {
      k1: tc({
        toolCallId: 'c1', title: '', kind: 'edit', status: 'completed',
        content: [
          { type: 'diff', path: '', newText: 'no path' },
          { type: 'content', content: { type: 'text', text: 'plain content' } },
          { type: 'diff', path: '/w/a.json', newText: 'line\n' },
          { type: 'diff', path: '/w/deleted.json' },
        ],
      }),
    } as unknown as typeof s.tools;
    expect(chatMarkdown(s, 'T', labels)).toBe(
      ['# T', '### Tool: edit', '```\n/w/a.json\nline\n```', '```\n/w/deleted.json\n```', '> agent died\n> exit 1'].join('\n\n') + '\n',
    );
  });
});
