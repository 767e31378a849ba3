import { fireEvent, render, screen } from '@testing-library/svelte';
import { beforeEach, describe, expect, it } from 'vitest';
import Home from './Home.svelte';
import { router } from '../lib/stores/router.svelte';
import { sessions as store } from '../lib/stores/sessions.svelte';
import { setLanguage } from '../lib/i18n.svelte';
import { flush, installWails } from '../test/wails';
import { Steps } from '../test/steps';

const idle = { building: false, first: false, done: 0, total: 0, changed: false };

const sessions = [
  { id: '019a-1', title: 'Harbour night theme', updatedAt: '2026-12-01T10:00:00Z', cwd: '/home/dev/themes/harbour', path: '/c/1.jsonl' },
  { id: '019a-2', title: '', updatedAt: '2026-11-02T10:00:00Z', cwd: '/home/dev/other', path: '/c/2.jsonl', archived: true },
];

describe('Home', () => {
  beforeEach(() => {
    store.query = '';
    store.showInternal = false;
    store.showHidden = false;
  });

  it('lists sessions with title, date and folder; Resume opens the chat with id and cwd', async () => {
    const w = installWails({ Sessions: () => ({ sessions, hint: '' }), Builds: () => [], DeletedBuilds: () => [], SearchStatus: () => idle });
    render(Home);
    await flush();
    expect(w.bound.Sessions).toHaveBeenCalledWith({ search: '', limit: 50, showInternal: false, showHidden: false });
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
    const w = installWails({ Sessions: () => answer, Builds: () => [], DeletedBuilds: () => [], SearchStatus: () => idle });
    render(Home);
    await flush();
    expect(screen.getAllByTestId('session-row')).toHaveLength(1);
    answer = { sessions, hint: '' };
    w.emit('sessions', { fromAgent: 1 });
    await flush();
    expect(screen.getAllByTestId('session-row')).toHaveLength(2);
  });

  it('opens the transcript of a row', async () => {
    installWails({ Sessions: () => ({ sessions, hint: '' }), Builds: () => [], DeletedBuilds: () => [], SearchStatus: () => idle });
    render(Home);
    await flush();
    await fireEvent.click(screen.getAllByTestId('open-transcript')[0]);
    expect(router.route).toEqual({ view: 'transcript', id: '019a-1', title: 'Harbour night theme' });
  });

  it('shows the hint Go sends when there is no session folder, and a search with no match', async () => {
    installWails({ Sessions: () => ({ sessions: [], hint: 'No sessions in /home/dev/.codex yet.' }), Builds: () => [], DeletedBuilds: () => [], SearchStatus: () => idle });
    render(Home);
    await flush();
    expect(screen.getByTestId('sessions-hint').textContent).toContain('No sessions in /home/dev/.codex yet.');
    await fireEvent.input(screen.getByTestId('session-search'), { target: { value: 'zzz' } });
    await new Promise((r) => setTimeout(r, 250));
    await flush();
    expect(document.body.textContent).toContain('No session matches “zzz”.');
  });

  it('shows a text hit with its snippet highlighted as text, and opens the transcript at the hit', async () => {
    const evil = '<img src=x onerror="window.pwned=1"> say hello there';
    const hit = { ...sessions[0], snippet: evil, marks: [{ start: 41, end: 46 }], role: 'user', message: 7 };
    const w = installWails({ Sessions: () => ({ sessions: [hit], hint: '' }), Builds: () => [], DeletedBuilds: () => [], SearchStatus: () => idle });
    render(Home);
    await flush();
    await fireEvent.input(screen.getByTestId('session-search'), { target: { value: 'hello' } });
    await new Promise((r) => setTimeout(r, 250));
    await flush();
    expect(w.bound.Sessions).toHaveBeenLastCalledWith({ search: 'hello', limit: 50, showInternal: false, showHidden: false });
    const sn = screen.getByTestId('snippet');
    expect(sn.textContent).toBe(evil);
    expect(sn.querySelector('img')).toBeNull();
    expect(Array.from(sn.querySelectorAll('mark')).map((m) => m.textContent)).toEqual(['hello']);
    await fireEvent.click(screen.getByTestId('open-transcript'));
    expect(router.route).toEqual({ view: 'transcript', id: '019a-1', title: 'Harbour night theme', at: 7 });
  });

  it('lists an unreadable file with its reason and without Resume; the filters ask Go again', async () => {
    const bad = { id: '019a-9', title: '', updatedAt: '2026-12-01T10:00:00Z', cwd: '', path: '/c/rollout-x.jsonl', unreadable: 'not a Codex rollout: 2 lines that are not JSON' };
    const w = installWails({ Sessions: () => ({ sessions: [bad], hint: '' }), Builds: () => [], DeletedBuilds: () => [], SearchStatus: () => idle });
    render(Home);
    await flush();
    const row = screen.getByTestId('session-row');
    expect(row.textContent).toContain('Unreadable file');
    expect(row.textContent).toContain('not a Codex rollout');
    expect(row.querySelector('[data-testid=resume]')).toBeNull();
    expect(row.querySelector('[data-testid=open-transcript]')).toBeNull();
    await fireEvent.click(screen.getByTestId('show-internal'));
    await flush();
    expect(w.bound.Sessions).toHaveBeenLastCalledWith({ search: '', limit: 50, showInternal: true, showHidden: false });
  });

  it('shows the first index build’s progress', async () => {
    const w = installWails({ Sessions: () => ({ sessions, hint: '' }), Builds: () => [], DeletedBuilds: () => [], SearchStatus: () => ({ ...idle, building: true, first: true, done: 10, total: 400 }) });
    render(Home);
    await flush();
    expect(screen.getByTestId('index-progress').textContent).toContain('10 of 400');
    w.emit('search-index', { ...idle, building: true, first: true, done: 390, total: 400 });
    await flush();
    expect(screen.getByTestId('index-progress').textContent).toContain('390 of 400');
    w.emit('search-index', { ...idle, changed: true });
    await flush();
    expect(screen.queryByTestId('index-progress')).toBeNull();
  });

  it('says when a search could not look into message text (no index), as the CLI does, and when the index is out of date', async () => {
    let answer: Record<string, unknown> = { sessions: sessions.slice(0, 1), hint: '', titlesOnly: 'open search index: disk is full' };
    installWails({ Sessions: () => answer, Builds: () => [], DeletedBuilds: () => [], SearchStatus: () => idle });
    render(Home);
    await flush();
    expect(screen.queryByTestId('search-titles-only')).toBeNull(); // no query: nothing was searched
    await store.search('harbour', 0);
    await flush();
    expect(screen.getByTestId('search-titles-only').textContent).toContain('only titles and folders');
    expect(screen.getByTestId('search-titles-only').textContent).toContain('disk is full');
    answer = { sessions: sessions.slice(0, 1), hint: '', stale: 'database or disk is full' };
    await store.search('harbour night', 0);
    await flush();
    expect(screen.queryByTestId('search-titles-only')).toBeNull();
    expect(screen.getByTestId('search-stale').textContent).toContain('could not be brought up to date');
    answer = { sessions: sessions.slice(0, 1), hint: '' };
    await store.search('harbour', 0);
    await flush();
    expect(screen.queryByTestId('search-stale')).toBeNull();
  });

  it('shows builds as cards with swatches; rename, duplicate, delete and undo', async () => {
    let cards = [
      { id: '20261201-100000-aaaaaa', title: 'Harbour', created: '2026-12-01T10:00:00Z', changed: '2026-12-01T11:00:00Z', sessionIds: ['s1'], model: '', dir: '/d/a', name: 'Harbour Night', swatches: ['#161a24', '#d8dee9', 'url(javascript:x)'], status: 'failing', failing: 2 },
    ];
    let trash: typeof cards = [];
    const w = installWails({
      Sessions: () => ({ sessions: [], hint: '' }),
      SearchStatus: () => idle,
      Builds: () => cards,
      RenameBuild: (id: string, title: string) => ({ ...cards[0], id, title }),
      DuplicateBuild: () => {
        cards = [...cards, { ...cards[0], id: '20261201-100001-bbbbbb', title: 'Harbour (copy)', sessionIds: [] }];
        return cards[1];
      },
      // Go moves a deleted build to the trash and a restored one back.
      DeleteBuild: (id: string) => {
        trash = [...trash, ...cards.filter((c) => c.id === id)];
        cards = cards.filter((c) => c.id !== id);
      },
      RestoreBuild: (id: string) => {
        cards = [...trash.filter((c) => c.id === id), ...cards];
        trash = trash.filter((c) => c.id !== id);
      },
      DeletedBuilds: () => trash.map((c) => ({ id: c.id, title: c.title, created: c.created, deleted: '2026-12-02T10:00:00Z', expires: '2027-01-01T10:00:00Z', dir: c.dir })),
    });
    render(Home);
    await flush();
    // A designer's first screen is their themes, listed before anyone's Codex sessions.
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Your themes');
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings.indexOf('Recent theme builds')).toBe(0);
    const card = screen.getByTestId('build-card');
    expect(card.textContent).toContain('Harbour');
    expect(card.textContent).toContain('2 contrast pairs below AA');
    const sw = Array.from(card.querySelectorAll<HTMLElement>('.sw')).map((e) => e.style.background);
    expect(sw).toEqual(['rgb(22, 26, 36)', 'rgb(216, 222, 233)']);

    await fireEvent.click(screen.getByTestId('rename-build'));
    const input = screen.getByTestId('build-name') as HTMLInputElement;
    await fireEvent.input(input, { target: { value: 'Harbour at dusk' } });
    await fireEvent.keyDown(input, { key: 'Enter' });
    await flush();
    expect(w.bound.RenameBuild).toHaveBeenCalledWith('20261201-100000-aaaaaa', 'Harbour at dusk');
    expect(screen.getByTestId('build-title').textContent).toBe('Harbour at dusk');

    await fireEvent.click(screen.getByTestId('duplicate-build'));
    await flush();
    expect(screen.getAllByTestId('build-card')).toHaveLength(2);

    await fireEvent.click(screen.getAllByTestId('delete-build')[0]);
    await flush();
    expect(w.bound.DeleteBuild).toHaveBeenCalledWith('20261201-100000-aaaaaa');
    expect(screen.getAllByTestId('build-card')).toHaveLength(1);
    expect(screen.getByTestId('build-deleted').textContent).toContain('Deleted');
    await fireEvent.click(screen.getByTestId('undo-delete'));
    await flush();
    expect(w.bound.RestoreBuild).toHaveBeenCalledWith('20261201-100000-aaaaaa');
    expect(screen.getAllByTestId('build-card')).toHaveLength(2);
  });

  // A fake data dir: the live builds and the trash, moved between by the bindings as Go does.
  function fakeDisk(live: string[], trash: string[]) {
    const card = (id: string, title: string) => ({ id, title, created: '2026-12-01T10:00:00Z', changed: '2026-12-01T11:00:00Z', sessionIds: ['s1'], model: '', dir: '/d/' + id, name: title, swatches: [], status: 'ready', failing: 0 });
    const gone = (id: string, title: string, i: number) => ({ id, title, created: '2026-12-01T10:00:00Z', deleted: `2026-12-0${5 - i}T10:00:00Z`, expires: '2027-01-04T10:00:00Z', dir: '/d/' + id });
    const titles: Record<string, string> = {};
    const disk = { live: [...live], trash: [...trash] };
    for (const t of [...live, ...trash]) titles[t] = t;
    const idOf = (title: string) => '20261201-10000' + Object.keys(titles).indexOf(title) + '-aaaaaa';
    const byID = (id: string) => Object.keys(titles).find((t) => idOf(t) === id)!;
    return {
      disk,
      idOf,
      impl: {
        Sessions: () => ({ sessions: [], hint: '' }),
        SearchStatus: () => idle,
        Builds: () => disk.live.map((t) => card(idOf(t), t)),
        DeletedBuilds: () => disk.trash.map((t, i) => gone(idOf(t), t, i)),
        DeleteBuild: (id: string) => {
          const t = byID(id);
          disk.live = disk.live.filter((x) => x !== t);
          disk.trash = [t, ...disk.trash];
        },
        RestoreBuild: (id: string) => {
          const t = byID(id);
          if (!disk.trash.includes(t)) return Promise.reject(`restore build: restore workspace ${id}: not in the trash`);
          disk.trash = disk.trash.filter((x) => x !== t);
          disk.live = [t, ...disk.live];
        },
        PurgeBuild: (id: string) => {
          const t = byID(id);
          disk.trash = disk.trash.filter((x) => x !== t);
        },
      },
    };
  }

  const titlesOf = (testid: string) => screen.queryAllByTestId(testid).map((e) => e.textContent);

  it('lists the deleted builds under “Recently deleted”, collapsed, with their count; Restore brings one back', async () => {
    const f = fakeDisk(['Harbour'], ['Dusk', 'Ember']);
    const w = installWails(f.impl);
    render(Home);
    await flush();
    expect(w.bound.DeletedBuilds).toHaveBeenCalled();
    const section = screen.getByTestId('recently-deleted') as HTMLDetailsElement;
    expect(section.open).toBe(false);
    expect(screen.getByTestId('recently-deleted-toggle').textContent).toBe('Recently deleted (2)');
    expect(titlesOf('deleted-title')).toEqual(['Dusk', 'Ember']);
    expect(screen.getAllByTestId('deleted-build')[0].textContent).toContain('kept until');
    expect(titlesOf('build-title')).toEqual(['Harbour']);

    await fireEvent.click(screen.getByTestId('recently-deleted-toggle'));
    await fireEvent.click(screen.getAllByTestId('restore-build')[1]);
    await flush();
    expect(w.bound.RestoreBuild).toHaveBeenCalledWith(f.idOf('Ember'));
    expect(titlesOf('build-title')).toEqual(['Ember', 'Harbour']);
    expect(titlesOf('deleted-title')).toEqual(['Dusk']);
    expect(screen.getByTestId('recently-deleted-toggle').textContent).toBe('Recently deleted (1)');
    expect(screen.queryByTestId('error-box')).toBeNull();
  });

  it('a build deleted on Home can still be restored after leaving Home (the undo note is gone)', async () => {
    const f = fakeDisk(['Harbour', 'Dusk'], []);
    const w = installWails(f.impl);
    const first = render(Home);
    await flush();
    expect(screen.queryByTestId('recently-deleted')).toBeNull(); // an empty trash shows nothing
    await fireEvent.click(screen.getAllByTestId('delete-build')[0]);
    await flush();
    expect(w.bound.DeleteBuild).toHaveBeenCalledWith(f.idOf('Harbour'));
    expect(titlesOf('deleted-title')).toEqual(['Harbour']);
    first.unmount(); // to another view and back, or a restart

    render(Home);
    await flush();
    expect(screen.queryByTestId('build-deleted')).toBeNull();
    expect(titlesOf('build-title')).toEqual(['Dusk']);
    expect(screen.getByTestId('recently-deleted-toggle').textContent).toBe('Recently deleted (1)');
    await fireEvent.click(screen.getByTestId('restore-build'));
    await flush();
    expect(w.bound.RestoreBuild).toHaveBeenCalledWith(f.idOf('Harbour'));
    expect(titlesOf('build-title')).toEqual(['Harbour', 'Dusk']);
    expect(screen.queryByTestId('recently-deleted')).toBeNull();
  });

  it('keeps the builds, the trash and the undo note in agreement at every step of delete, undo, restore and purge', async () => {
    const f = fakeDisk(['Harbour', 'Dusk'], ['Ember']);
    // Go's answers arrive one at a time; the page is looked at after each.
    const steps = new Steps();
    const slow = Object.fromEntries(Object.entries(f.impl).map(([k, fn]) => [k, k === 'Sessions' || k === 'SearchStatus' ? fn : steps.answer(k, fn as (...a: unknown[]) => unknown)]));
    installWails(slow);
    render(Home);
    const known = new Set(['Harbour', 'Dusk', 'Ember']);
    const problems: string[] = [];
    const look = (after: string) => {
      const cards = titlesOf('build-title') as string[];
      const trash = titlesOf('deleted-title') as string[];
      const note = screen.queryByTestId('build-deleted')?.textContent ?? '';
      for (const t of cards) if (trash.includes(t)) problems.push(`after ${after}: ${t} is both a build and in the trash`);
      for (const t of known) if (!cards.includes(t) && !trash.includes(t)) problems.push(`after ${after}: ${t} is shown nowhere`);
      for (const t of cards) if (note.includes(`“${t}”`)) problems.push(`after ${after}: the note says ${t} was deleted, its card is still there`);
    };
    await steps.drain();
    look('opening');
    expect([titlesOf('build-title'), titlesOf('deleted-title')]).toEqual([['Harbour', 'Dusk'], ['Ember']]);

    await fireEvent.click(screen.getAllByTestId('delete-build')[0]);
    await steps.drain(look);
    expect([titlesOf('build-title'), titlesOf('deleted-title')]).toEqual([['Dusk'], ['Harbour', 'Ember']]);
    expect(screen.getByTestId('build-deleted').textContent).toContain('Harbour');

    await fireEvent.click(screen.getByTestId('undo-delete'));
    await steps.drain(look);
    expect([titlesOf('build-title'), titlesOf('deleted-title')]).toEqual([['Harbour', 'Dusk'], ['Ember']]);
    expect(screen.queryByTestId('build-deleted')).toBeNull();

    await fireEvent.click(screen.getByTestId('restore-build'));
    await steps.drain(look);
    expect([titlesOf('build-title'), titlesOf('deleted-title')]).toEqual([['Ember', 'Harbour', 'Dusk'], []]);

    // Deleted, then deleted for good from the trash: the note about it goes too.
    await fireEvent.click(screen.getAllByTestId('delete-build')[2]);
    await steps.drain(look);
    await fireEvent.click(screen.getByTestId('purge-build'));
    await fireEvent.click(screen.getByTestId('purge-confirm'));
    known.delete('Dusk');
    await steps.drain(look);
    expect([titlesOf('build-title'), titlesOf('deleted-title')]).toEqual([['Ember', 'Harbour'], []]);
    expect(screen.queryByTestId('build-deleted')).toBeNull();
    expect(problems).toEqual([]);
  });

  it('Delete forever asks first, then has Go delete the build for good', async () => {
    const f = fakeDisk([], ['Dusk', 'Ember']);
    const w = installWails(f.impl);
    render(Home);
    await flush();
    await fireEvent.click(screen.getAllByTestId('purge-build')[0]);
    expect(w.bound.PurgeBuild).not.toHaveBeenCalled();
    expect(screen.getAllByTestId('deleted-build')[0].textContent).toContain('This cannot be undone.');
    await fireEvent.click(screen.getByTestId('purge-cancel'));
    expect(screen.queryByTestId('purge-confirm')).toBeNull();
    expect(w.bound.PurgeBuild).not.toHaveBeenCalled();

    await fireEvent.click(screen.getAllByTestId('purge-build')[0]);
    await fireEvent.click(screen.getByTestId('purge-confirm'));
    await flush();
    expect(w.bound.PurgeBuild).toHaveBeenCalledWith(f.idOf('Dusk'));
    expect(titlesOf('deleted-title')).toEqual(['Ember']);
    expect(w.bound.RestoreBuild).not.toHaveBeenCalled();
  });

  it('a restore Go refuses says why and lists the trash again', async () => {
    const f = fakeDisk([], ['Dusk']);
    const w = installWails({ ...f.impl, RestoreBuild: () => Promise.reject('restore build: restore workspace x: a workspace of that id exists') });
    render(Home);
    await flush();
    await fireEvent.click(screen.getByTestId('restore-build'));
    await flush();
    expect(w.bound.RestoreBuild).toHaveBeenCalledWith(f.idOf('Dusk'));
    expect(screen.getByTestId('error-box').textContent).toContain('a workspace of that id exists');
    expect(titlesOf('deleted-title')).toEqual(['Dusk']);
    expect(w.bound.DeletedBuilds).toHaveBeenCalledTimes(2);
  });

  it('words “Recently deleted” in German too', async () => {
    setLanguage('de');
    installWails(fakeDisk([], ['Dusk']).impl);
    render(Home);
    await flush();
    expect(screen.getByTestId('recently-deleted-toggle').textContent).toBe('Zuletzt gelöscht (1)');
    expect(screen.getByTestId('restore-build').textContent).toBe('Wiederherstellen');
    setLanguage('en');
  });

  it('renames and hides a session through Go', async () => {
    const w = installWails({ Sessions: () => ({ sessions, hint: '' }), Builds: () => [], DeletedBuilds: () => [], SearchStatus: () => idle, RenameSession: () => undefined, HideSession: () => undefined });
    render(Home);
    await flush();
    await fireEvent.click(screen.getAllByTestId('rename-session')[0]);
    const input = screen.getByTestId('session-name') as HTMLInputElement;
    await fireEvent.input(input, { target: { value: 'My harbour' } });
    await fireEvent.keyDown(input, { key: 'Enter' });
    await flush();
    expect(w.bound.RenameSession).toHaveBeenCalledWith('019a-1', 'My harbour');
    await fireEvent.click(screen.getAllByTestId('hide-session')[1]);
    await flush();
    expect(w.bound.HideSession).toHaveBeenCalledWith('019a-2', true);
  });

  it('words Go’s coded hint in the UI language, with the action that fixes it', async () => {
    setLanguage('de');
    installWails({ Sessions: () => ({ sessions: [], hint: 'No Codex home at /home/dev/.codex; run Codex once or set CODEX_HOME', hintCode: 'no_home', hintDir: '/home/dev/.codex' }), Builds: () => [], DeletedBuilds: () => [], SearchStatus: () => idle });
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
    const w = installWails({ Sessions: () => (fail ? Promise.reject('list sessions: permission denied') : { sessions, hint: '' }), Builds: () => [], DeletedBuilds: () => [], SearchStatus: () => idle });
    render(Home);
    await flush();
    const box = screen.getByTestId('error-box');
    expect(box.textContent).toContain('The saved sessions could not be listed');
    expect(box.textContent).toContain('permission denied');
    expect(box.querySelector('[data-testid=open-settings]')).toBeTruthy();
    fail = false;
    await fireEvent.click(screen.getByTestId('retry'));
    await flush();
    expect(w.bound.Sessions).toHaveBeenCalledTimes(2);
    expect(screen.queryByTestId('error-box')).toBeNull();
    expect(screen.getAllByTestId('session-row')).toHaveLength(sessions.length);
  });
});
