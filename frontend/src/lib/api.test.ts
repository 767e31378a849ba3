import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import * as App from '../../wailsjs/go/app/App';
import * as api from './api';
import { installWails } from '../test/wails';

const apiSource = readFileSync(join(__dirname, 'api.ts'), 'utf8');
const dts = readFileSync(join(__dirname, '../../wailsjs/go/app/App.d.ts'), 'utf8');

describe('api.ts', () => {
  it('calls only bindings the generated wailsjs files export', () => {
    const used = [...new Set([...apiSource.matchAll(/\bApp\.(\w+)\(/g)].map((m) => m[1]))];
    expect(used.length).toBeGreaterThanOrEqual(20);
    const exported = Object.keys(App);
    expect(used.filter((n) => !exported.includes(n))).toEqual([]);
    expect(used.filter((n) => !dts.includes(`export function ${n}(`))).toEqual([]);
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
    expect(w.App.AnswerPermission).toHaveBeenCalledWith('t1', '"uuid"', '');
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
    w.emit('theme', { workspaceId: 'ws', theme: null, error: '', contrast: null });
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
