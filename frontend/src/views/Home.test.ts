import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import Home from './Home.svelte';
import { router } from '../lib/stores/router.svelte';
import { setLanguage } from '../lib/i18n.svelte';
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
    expect(screen.getByTestId('sessions-hint').textContent).toContain('No sessions in /home/dev/.codex yet.');
    await fireEvent.input(screen.getByTestId('session-search'), { target: { value: 'zzz' } });
    await new Promise((r) => setTimeout(r, 250));
    await flush();
    expect(document.body.textContent).toContain('No session matches “zzz”.');
  });

  it('words Go’s coded hint in the UI language, with the action that fixes it', async () => {
    setLanguage('de');
    installWails({ Sessions: () => ({ sessions: [], hint: 'No Codex home at /home/dev/.codex; run Codex once or set CODEX_HOME', hintCode: 'no_home', hintDir: '/home/dev/.codex' }), Workspaces: () => [] });
    render(Home);
    await flush();
    const hint = screen.getByTestId('sessions-hint');
    expect(hint.textContent).toContain('Unter /home/dev/.codex gibt es noch keinen Codex-Ordner.');
    expect(hint.textContent).not.toContain('run Codex once');
    await fireEvent.click(screen.getByTestId('open-settings'));
    expect(router.route).toEqual({ view: 'settings' });
    setLanguage('en');
  });

  it('a listing error offers Open Settings and a Retry that lists again', async () => {
    let fail = true;
    const w = installWails({ Sessions: () => (fail ? Promise.reject('list sessions: permission denied') : { sessions, hint: '' }), Workspaces: () => [] });
    render(Home);
    await flush();
    const box = screen.getByTestId('error-box');
    expect(box.textContent).toContain('The saved sessions could not be listed');
    expect(box.textContent).toContain('permission denied');
    expect(box.querySelector('[data-testid=open-settings]')).toBeTruthy();
    fail = false;
    await fireEvent.click(screen.getByTestId('retry'));
    await flush();
    expect(w.App.Sessions).toHaveBeenCalledTimes(2);
    expect(screen.queryByTestId('error-box')).toBeNull();
    expect(screen.getAllByTestId('session-row')).toHaveLength(sessions.length);
  });
});
