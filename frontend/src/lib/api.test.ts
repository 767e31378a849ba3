import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import * as api from './api';
import { installWails, services } from '../test/wails';

const apiSource = readFileSync(join(__dirname, 'api.ts'), 'utf8');
const dts = (service: string) => readFileSync(join(__dirname, `../../wailsjs/go/app/${service}.d.ts`), 'utf8');

describe('api.ts', () => {
  it('calls only bindings the generated wailsjs files export, and the fake binds the same', () => {
    const used = [...new Set([...apiSource.matchAll(/\b([A-Z]\w*)\.([A-Z]\w*)\(/g)].filter((m) => m[1] in services).map((m) => `${m[1]}.${m[2]}`))];
    expect(used.length).toBeGreaterThanOrEqual(40);
    expect(used.filter((c) => { const [s, m] = c.split('.'); return !dts(s).includes(`export function ${m}(`); })).toEqual([]);
    const faked = Object.entries(services).flatMap(([s, ms]) => ms.map((m) => `${s}.${m}`));
    expect([...faked].sort()).toEqual([...used].sort());
  });

  it('wraps every binding of the contract', () => {
    for (const n of ['models', 'sessions', 'transcriptPage', 'exportTranscript', 'newBuild', 'send', 'cancel', 'answerPermission', 'getSettings', 'saveSettings', 'workspaces', 'openWorkspaceFolder', 'theme', 'exportTheme', 'applyTheme', 'openLink', 'openPath', 'onTurn', 'onTheme']) {
      expect(typeof (api as Record<string, unknown>)[n], n).toBe('function');
    }
  });

  it('passes arguments through to window.go in order and returns Go’s answer', async () => {
    const w = installWails({ TranscriptPage: (id: string, o: number, l: number) => ({ id, offset: o, nextOffset: o + l }), AnswerPermission: () => undefined });
    expect(await api.transcriptPage('s1', 50, 25)).toEqual({ id: 's1', offset: 50, nextOffset: 75 });
    await api.answerPermission('t1', '"uuid"', '');
    expect(w.bound.AnswerPermission).toHaveBeenCalledWith('t1', '"uuid"', '');
  });

  it('event helpers deliver well-formed payloads and drop malformed ones', () => {
    const w = installWails();
    const turns: unknown[] = [];
    const themes: unknown[] = [];
    const off = api.onTurn((b) => turns.push(b.turnId));
    api.onTheme((e) => themes.push(e.workspaceId));
    w.emit('turn', { turnId: 't1', events: [] });
    w.emit('turn', { turnId: 't2' });
    w.emit('turn', null);
    w.emit('theme', { workspaceId: 'ws', theme: null, error: '', checks: null });
    w.emit('theme', 'nonsense');
    off();
    w.emit('turn', { turnId: 't3', events: [] });
    expect(turns).toEqual(['t1']);
    expect(themes).toEqual(['ws']);
  });

  it('delivers each turn’s batches in Go’s order even when they arrive out of order', async () => {
    vi.useFakeTimers();
    try {
      const w = installWails();
      const got: string[] = [];
      const off = api.onTurn((b) => got.push(`${b.turnId}#${b.seq}`));
      w.emit('turn', { turnId: 'a', seq: 2, events: [] });
      w.emit('turn', { turnId: 'b', seq: 1, events: [] });
      expect(got).toEqual(['b#1']);
      w.emit('turn', { turnId: 'a', seq: 1, events: [] });
      w.emit('turn', { turnId: 'a', seq: 3, events: [] });
      expect(got).toEqual(['b#1', 'a#1', 'a#2', 'a#3']);
      // A batch that never comes does not freeze the turn.
      w.emit('turn', { turnId: 'a', seq: 5, events: [] });
      expect(got.at(-1)).toBe('a#3');
      vi.advanceTimersByTime(api.reorderWaitMs + 1);
      expect(got.at(-1)).toBe('a#5');
      off();
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    ['a Go error string', 'theme.json: unknown field', 'theme.json: unknown field'],
    ['an Error', new Error('boom'), 'boom'],
    ['an object', { code: 1 }, '{"code":1}'],
  ])('errorMessage of %s', (_n, err, want) => {
    expect(api.errorMessage(err)).toBe(want);
  });
});

describe('selfTest', () => {
  it('stops asking Go for a plan once the view that asked is gone', async () => {
    vi.useFakeTimers();
    try {
      const w = installWails({});
      const asking = new AbortController();
      const plan = api.selfTest(asking.signal);
      vi.advanceTimersByTime(450);
      const asked = w.sent.filter((e) => e[0] === 'selftest:ask').length;
      expect(asked).toBe(3); // at once, then every 200 ms
      asking.abort();
      await expect(plan).resolves.toBeNull();
      vi.advanceTimersByTime(api.selfTestWaitMs);
      expect(w.sent.filter((e) => e[0] === 'selftest:ask').length).toBe(asked);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops asking once a plan came back at once, inside the first ask', async () => {
    vi.useFakeTimers();
    try {
      const w = installWails({});
      w.answer('selftest:ask', () => w.emit('selftest:plan', { active: true, prompt: '' }));
      await expect(api.selfTest()).resolves.toEqual({ active: true, prompt: '' });
      vi.advanceTimersByTime(api.selfTestWaitMs);
      expect(w.sent.filter((e) => e[0] === 'selftest:ask').length).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
