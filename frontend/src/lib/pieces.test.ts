import { describe, expect, it } from 'vitest';
import { splitPieces } from './pieces';

describe('splitPieces', () => {
  it('cuts a growing text so only the last piece changes, never inside a surrogate pair', () => {
    const base = 'ab😀'.repeat(10); // 40 units, a pair every 4
    const a = splitPieces(base, 7);
    const b = splitPieces(base + 'xyz', 7);
    expect(a.join('')).toBe(base);
    expect(b.join('')).toBe(base + 'xyz');
    expect(b.slice(0, a.length - 1)).toEqual(a.slice(0, -1));
    for (const p of b) {
      const last = p.charCodeAt(p.length - 1);
      expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
    }
  });
});
