import { describe, expect, it } from 'vitest';
import { SessionsStore, pageSize } from './sessions.svelte';
import { installWails } from '../../test/wails';
import type { search } from '../types';

const all: search.Result[] = [
  { id: 'a', title: 'Harbour night theme', updatedAt: '2026-12-01T10:00:00Z', cwd: '/home/dev/themes/a', path: '/x/a.jsonl', archived: false, snippet: '', message: -1 },
  { id: 'b', title: 'Solarized tweak', updatedAt: '2026-11-30T10:00:00Z', cwd: '/home/dev/themes/b', path: '/x/b.jsonl', archived: false, snippet: '', message: -1 },
  { id: 'c', title: 'Night owl port', updatedAt: '2026-11-29T10:00:00Z', cwd: '/home/dev/themes/c', path: '/x/c.jsonl', archived: false, snippet: '', message: -1 },
];

/** A Sessions binding that filters like the Go side (case-insensitive title match). */
function backend(list = all) {
  return ({ search, limit }: { search: string; limit: number }) => ({
    sessions: list.filter((s) => s.title.toLowerCase().includes(search.toLowerCase())).slice(0, limit),
    hint: '',
  });
}

describe('sessions store', () => {
  it('searches with the trimmed query and shows the matches', async () => {
    const w = installWails({ Sessions: backend() });
    const s = new SessionsStore();
    await s.search('  night ', 0);
    expect(w.bound.Sessions).toHaveBeenLastCalledWith({ search: 'night', limit: pageSize, showInternal: false, showHidden: false });
    expect(s.list.map((x) => x.id)).toEqual(['a', 'c']);
    expect(s.more).toBe(false);
  });

  it('debounces typing into one request, and the replaced searches settle', async () => {
    const w = installWails({ Sessions: backend() });
    const s = new SessionsStore();
    const replaced = [s.search('n', 20), s.search('ni', 20)];
    await s.search('nig', 20);
    await Promise.all(replaced); // would hang if a replaced search never settled
    expect(w.bound.Sessions).toHaveBeenCalledTimes(1);
    expect(w.bound.Sessions).toHaveBeenLastCalledWith({ search: 'nig', limit: pageSize, showInternal: false, showHidden: false });
  });

  it('ignores an older answer that arrives after a newer one', async () => {
    const resolvers: ((v: unknown) => void)[] = [];
    installWails({ Sessions: () => new Promise((r) => resolvers.push(r)) });
    const s = new SessionsStore();
    const first = s.search('old', 0);
    const second = s.search('new', 0);
    resolvers[1]({ sessions: [all[1]], hint: '' });
    await second;
    resolvers[0]({ sessions: [all[0]], hint: '' });
    await first;
    expect(s.list.map((x) => x.id)).toEqual(['b']);
    expect(s.loading).toBe(false);
  });

  it('pages by raising the limit', async () => {
    const many = Array.from({ length: pageSize + 5 }, (_, i) => ({ ...all[0], id: `s${i}`, title: `Theme ${i}` }));
    const w = installWails({ Sessions: backend(many) });
    const s = new SessionsStore();
    await s.load();
    expect(s.list).toHaveLength(pageSize);
    expect(s.more).toBe(true);
    await s.loadMore();
    expect(w.bound.Sessions).toHaveBeenLastCalledWith({ search: '', limit: pageSize * 2, showInternal: false, showHidden: false });
    expect(s.list).toHaveLength(pageSize + 5);
    expect(s.more).toBe(false);
  });

  it('keeps the list and reports the error when loading fails', async () => {
    let fail = false;
    installWails({ Sessions: (q: { search: string; limit: number }) => (fail ? Promise.reject('read session index: permission denied') : backend()(q)) });
    const s = new SessionsStore();
    await s.load();
    fail = true;
    await s.load();
    expect(s.error).toBe('read session index: permission denied');
    expect(s.list).toHaveLength(3);
  });

  it('runs a search in view again when the index changed, not when nothing is searched', async () => {
    const w = installWails({ Sessions: backend() });
    const s = new SessionsStore();
    await s.load();
    await s.indexed({ building: false, first: false, done: 0, total: 0, changed: true });
    expect(w.bound.Sessions).toHaveBeenCalledTimes(1);
    await s.search('night', 0);
    await s.indexed({ building: true, first: true, done: 1, total: 9, changed: false });
    expect(w.bound.Sessions).toHaveBeenCalledTimes(2);
    await s.indexed({ building: false, first: false, done: 0, total: 0, changed: false });
    expect(w.bound.Sessions).toHaveBeenCalledTimes(3); // the first build ended: its answer may differ
    await s.setFilter({ showHidden: true });
    expect(w.bound.Sessions).toHaveBeenLastCalledWith({ search: 'night', limit: pageSize, showInternal: false, showHidden: true });
  });
});
