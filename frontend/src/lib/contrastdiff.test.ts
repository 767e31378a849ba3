// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { changedPairs, fmtRatio, pairKey, weakest } from './contrastdiff';
import type { Check } from './types';

const chk = (fgRole: string, bgRole: string, ratio: number, aa = ratio >= 4.5): Check => ({ fgRole, bgRole, ratio, aa }) as unknown as Check;

describe('fmtRatio', () => {
  it('truncates so a failing 4.499 never reads as a passing 4.50', () => {
    expect(fmtRatio(4.499)).toBe('4.49:1');
    expect(fmtRatio(4.5)).toBe('4.50:1');
    expect(fmtRatio(21)).toBe('21.00:1');
    expect(fmtRatio(undefined)).toBe('–');
  });
});

describe('changedPairs', () => {
  it('keeps only pairs that moved or one side lacks, failures first, worst first', () => {
    const before = [chk('fg', 'bg', 7), chk('muted', 'bg', 3), chk('link', 'bg', 5), chk('same', 'bg', 8), chk('gone', 'bg', 6)];
    const after = [chk('fg', 'bg', 6), chk('muted', 'bg', 4.6), chk('link', 'bg', 4), chk('same', 'bg', 8), chk('new', 'bg', 2)];
    const got = changedPairs(before, after);
    expect(got.map((p) => [p.key, p.change])).toEqual([
      ['new|bg', ''],
      ['link|bg', 'broken'],
      ['muted|bg', 'fixed'],
      ['fg|bg', ''],
      ['gone|bg', ''],
    ]);
    expect(got.find((p) => p.key === 'gone|bg')?.after).toBeUndefined();
    expect(got.find((p) => p.key === 'new|bg')?.before).toBeUndefined();
  });

  it('treats a missing side as no checks', () => {
    expect(changedPairs(null, undefined)).toEqual([]);
    expect(changedPairs(undefined, [chk('a', 'b', 3)]).map((p) => p.key)).toEqual(['a|b']);
  });
});

describe('weakest', () => {
  it('names the lowest ratio, the first on a tie unless prefer names another', () => {
    const list = [chk('a', 'bg', 5), chk('b', 'bg', 3), chk('c', 'bg', 3)];
    expect(pairKey(weakest(list)!)).toBe('b|bg');
    expect(pairKey(weakest(list, 'c|bg')!)).toBe('c|bg');
    expect(pairKey(weakest(list, 'a|bg')!)).toBe('b|bg');
    expect(weakest(null)).toBeUndefined();
  });
});
