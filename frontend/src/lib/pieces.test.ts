// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { plainPiece, splitPieces } from './pieces';

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

describe('splitPieces, the edges', () => {
  it('keeps a text that fits as one piece, even with a line break in it', () => {
    expect(splitPieces('aaaa\nbb', 8)).toEqual(['aaaa\nbb']);
    expect(splitPieces('', 8)).toEqual([]);
  });

  it('ends a piece at a line break exactly half way, and never makes a piece longer than the size', () => {
    expect(splitPieces('aaaa\nbbbbbbbbb', 8)).toEqual(['aaaa\n', 'bbbbbbbb', 'b']);
    const p = splitPieces('aaaaaaaa\nbb', 8);
    expect(p).toEqual(['aaaaaaaa', '\nbb']);
  });

  it('keeps the first and the last astral code points whole at a cut', () => {
    expect(splitPieces('aaa\u{10000}b', 4)).toEqual(['aaa', '\u{10000}b']);
    expect(splitPieces('aaa\u{10ffff}b', 4)).toEqual(['aaa', '\u{10ffff}b']);
  });

  it('cuts by the default size of 64 Ki units', () => {
    const text = 'x'.repeat(plainPiece + 1);
    expect(splitPieces(text).map((p) => p.length)).toEqual([plainPiece, 1]);
  });
});
