import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import ToolCard from './ToolCard.svelte';
import type { ToolCallView } from '../lib/chatReducer';

const base = (over: Partial<ToolCallView>): ToolCallView => ({
  id: 'c', turnId: 't', title: '', kind: 'other', status: 'completed', content: [], locations: [], terminal: '', exitCode: null, decision: '', ...over,
});

describe('ToolCard', () => {
  it('names an edited file once, relative to the workspace', async () => {
    const tool = base({
      kind: 'edit',
      title: '/data/ws/theme.json',
      content: [{ type: 'diff', path: '/data/ws/theme.json', oldText: 'a', newText: 'b' }],
      locations: [{ path: '/data/ws/theme.json' }],
    });
    const { container } = render(ToolCard, { props: { tool, cwd: '/data/ws', workspaceId: 'w' } });
    await fireEvent.click(screen.getByRole('button', { expanded: false }));
    // The diff view loads on first use.
    expect((await screen.findByTestId('diff-path')).textContent).toBe('theme.json');
    expect(container.textContent).not.toContain('/data/ws');
    expect(container.textContent?.match(/theme\.json/g)).toHaveLength(1);
  });

  it('a running card is open and folds to its head once completed; a click opens it again', async () => {
    const running = base({ kind: 'execute', title: 'ls', status: 'in_progress', rawInput: { command: 'ls' }, terminal: 'theme.json' });
    const { rerender, container } = render(ToolCard, { props: { tool: running } });
    const head = () => container.querySelector('button.head') as HTMLButtonElement;
    expect(head().getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByTestId('tool-terminal').textContent).toContain('theme.json');
    await rerender({ tool: { ...running, status: 'completed' } });
    expect(head().getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByTestId('tool-terminal')).toBeNull();
    await fireEvent.click(head());
    expect(screen.getByTestId('tool-terminal').textContent).toContain('theme.json');
  });

  it('a failed card stays open, so its error is seen', () => {
    render(ToolCard, { props: { tool: base({ kind: 'execute', title: 'make', status: 'failed', rawInput: { command: 'make' }, terminal: 'boom' }) } });
    expect(screen.getByTestId('tool-terminal').textContent).toContain('boom');
  });

  it('a denied command says Denied, not that output is still to come', () => {
    const tool = base({ kind: 'execute', title: 'rm -rf x', status: 'failed', rawInput: { command: 'rm -rf x' }, content: [{ type: 'terminal', terminalId: 't' }], decision: 'reject_once' });
    render(ToolCard, { props: { tool } });
    expect(screen.getByTestId('tool-terminal').textContent).toBe('Denied');
  });

  it('Codex\'s compaction is one line saying what happened', () => {
    const tool = base({ kind: 'think', title: 'Compact conversation', usageAfter: { used: 8072, size: 258400 } });
    render(ToolCard, { props: { tool } });
    const line = screen.getByTestId('tool-line');
    expect(line.textContent).toContain('Conversation compacted');
    expect(line.textContent).toContain('8,072');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('a theme check shows its failing pair with the fix, open, with its verdict', () => {
    const tool = base({
      kind: 'execute', title: 'mcp.cdxtheme.theme_check', rawInput: { server: 'cdxtheme', tool: 'theme_check', arguments: {} },
      rawOutput: { result: { content: [{ type: 'text', text: '1 of 44…' }], structuredContent: {
        valid: true, passes: false, target: 4.5, checked: 44, problems: [], locked: [],
        failing: [{ foreground: { role: 'syntax.comment', color: '#41465a' }, background: { role: 'ui.background', color: '#161a24' }, ratio: 1.86, fix: { role: 'syntax.comment', color: '#8891a7', ratio: 4.52 } }],
      } } },
    });
    const { container } = render(ToolCard, { props: { tool } });
    expect(container.querySelector('button.head')?.getAttribute('aria-expanded')).toBe('true');
    expect(container.textContent).toContain('Theme check');
    expect(screen.queryByTestId('tool-kind')).toBeNull();
    expect(screen.getByTestId('theme-check-verdict').textContent).toContain('1 to fix');
    const pair = screen.getByTestId('theme-pair');
    expect(pair.textContent).toContain('syntax.comment / ui.background');
    expect(pair.textContent).toContain('1.86:1');
    expect(screen.getByTestId('theme-fix').textContent).toContain('#8891a7');
    const samples = pair.querySelectorAll<HTMLElement>('.sample');
    expect(samples[0].style.color).toBe('rgb(65, 70, 90)');
    expect(samples[1].style.color).toBe('rgb(136, 145, 167)');
  });

  it('a theme render shows the picture', () => {
    const tool = base({
      kind: 'execute', title: 'mcp.cdxtheme.theme_render', rawInput: { server: 'cdxtheme', tool: 'theme_render', arguments: {} },
      rawOutput: { result: { content: [{ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }] } },
    });
    render(ToolCard, { props: { tool } });
    const img = screen.getByTestId('theme-render') as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(img.alt).toBeTruthy();
  });

  it('a passing check says so', () => {
    const tool = base({ kind: 'execute', title: 'x', rawInput: { server: 'cdxtheme', tool: 'theme_check' }, rawOutput: { result: { structuredContent: { valid: true, passes: true, failing: [], problems: [], locked: [] } } } });
    render(ToolCard, { props: { tool } });
    expect(screen.getByTestId('theme-check-verdict').textContent).toContain('Passes');
    expect(screen.queryByTestId('theme-pair')).toBeNull();
  });
});
