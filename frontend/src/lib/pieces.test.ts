// @vitest-environment node
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

describe('splitPieces at line ends', () => {
  it('ends a piece after a line break in its second half, and the cut does not move as the text grows', () => {
    const text = 'aaaaaa\nbbb\ncccccccccccc'; // breaks at 6 and 10
    const pieces = splitPieces(text, 8);
    expect(pieces[0]).toBe('aaaaaa\n');
    expect(pieces.join('')).toBe(text);
    expect(splitPieces(text + 'dddd', 8).slice(0, pieces.length - 1)).toEqual(pieces.slice(0, -1));
  });

  it('cuts at the size when the only break is in the first half', () => {
    expect(splitPieces('a\nbbbbbbbbbb', 8)[0]).toBe('a\nbbbbbb');
  });
});
