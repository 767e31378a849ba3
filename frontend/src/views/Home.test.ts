import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import Home from './Home.svelte';
import { router } from '../lib/stores/router.svelte';
import { flush, installWails } from '../test/wails';

const sessions = [
  { id: '019a-1', title: 'Harbour night theme', updatedAt: '2026-12-01T10:00:00Z', cwd: '/home/dev/themes/harbour', path: '/c/1.jsonl' },
  { id: '019a-2', title: '', updatedAt: '2026-11-02T10:00:00Z', cwd: '/home/dev/other', path: '/c/2.jsonl', archived: true },
];

describe('Home', () => {
  it('lists sessions with title, date and folder; Resume opens the chat with id and cwd', async () => {
    const w = installWails({ Sessions: () => ({ sessions, hint: '' }), Workspaces: () => [] });
    render(Home);
    await flush();
    expect(w.App.Sessions).toHaveBeenCalledWith('', 50);
    const rows = screen.getAllByTestId('session-row');
    expect(rows).toHaveLength(2);
    expect(rows[0].textContent).toContain('Harbour night theme');
    expect(rows[0].textContent).toContain('…/dev/themes/harbour');
    expect(rows[1].textContent).toContain('Untitled session');
    expect(rows[1].textContent).toContain('Archived');
    expect(screen.queryByTestId('model-menu')).toBeNull();

    await fireEvent.click(rows[0].querySelector('[data-testid=resume]')!);
    expect(router.route).toEqual({ view: 'chat', sessionId: '019a-1', cwd: '/home/dev/themes/harbour', title: 'Harbour night theme' });
  });

  it('lists again when Go says the agent’s session list changed the picture', async () => {
    let answer = { sessions: sessions.slice(0, 1), hint: '' };
    const w = installWails({ Sessions: () => answer, Workspaces: () => [] });
    render(Home);
    await flush();
    expect(screen.getAllByTestId('session-row')).toHaveLength(1);
    answer = { sessions, hint: '' };
    w.emit('sessions', { fromAgent: 1 });
    await flush();
    expect(screen.getAllByTestId('session-row')).toHaveLength(2);
  });

  it('opens the transcript of a row', async () => {
    installWails({ Sessions: () => ({ sessions, hint: '' }), Workspaces: () => [] });
    render(Home);
    await flush();
    await fireEvent.click(screen.getAllByTestId('open-transcript')[0]);
    expect(router.route).toEqual({ view: 'transcript', id: '019a-1', title: 'Harbour night theme' });
  });

  it('shows the hint Go sends when there is no session folder, and a search with no match', async () => {
    installWails({ Sessions: (q: string) => ({ sessions: q ? [] : [], hint: 'No sessions in /home/dev/.codex yet.' }), Workspaces: () => [] });
    render(Home);
    await flush();
    expect(screen.getByTestId('sessions-hint').textContent).toBe('No sessions in /home/dev/.codex yet.');
    await fireEvent.input(screen.getByTestId('session-search'), { target: { value: 'zzz' } });
    await new Promise((r) => setTimeout(r, 250));
    await flush();
    expect(document.body.textContent).toContain('No session matches “zzz”.');
  });
});
