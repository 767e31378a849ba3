// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseANSI, segmentStyle, xterm256 } from './ansi';

const recorded = readFileSync(resolve(process.cwd(), 'src/lib/fixtures/terminal-sample.ansi'), 'utf8');

function find(lines: ReturnType<typeof parseANSI>, text: string) {
  for (const l of lines) for (const s of l) if (s.text.trim() === text) return s;
  throw new Error(`no segment ${JSON.stringify(text)}`);
}

describe('parseANSI on the recorded ls/git/grep output', () => {
  const lines = parseANSI(recorded);
  it('keeps the lines and drops every escape sequence', () => {
    expect(lines.length).toBe(recorded.trimEnd().split('\n').length);
    for (const l of lines) for (const s of l) expect(s.text).not.toMatch(/\x1b/);
  });
  it('maps SGR colours to the theme palette', () => {
    expect(find(lines, 'README.md')).toMatchObject({ fg: { index: 6 }, bold: true }); // a symlink: bold cyan
    expect(find(lines, 'build.sh')).toMatchObject({ fg: { index: 2 }, bold: true });
    expect(find(lines, 'NOTES.md')).toMatchObject({ fg: null, bold: false });
    expect(find(lines, '-export const accent = "#7fb4ff";')).toMatchObject({ fg: { index: 1 } });
    expect(find(lines, 'accent')).toMatchObject({ fg: { index: 1 }, bold: true }); // grep's match
    expect(find(lines, '1a2b3c4')).toMatchObject({ fg: { index: 3 } });
  });
});

describe('parseANSI', () => {
  it('reads 256-colour and truecolour, bright and background codes, and resets', () => {
    const [l] = parseANSI('\x1b[38;5;9ma\x1b[38;5;196mb\x1b[38;2;1;2;3;48;5;4mc\x1b[0;97;101md\x1b[39;49me\x1b[7mf');
    expect(l.map((s) => [s.text, s.fg, s.bg])).toEqual([
      ['a', { index: 9 }, null],
      ['b', { hex: '#ff0000' }, null],
      ['c', { hex: '#010203' }, { index: 4 }],
      ['d', { index: 15 }, { index: 9 }],
      ['e', null, null],
      ['f', null, null],
    ]);
    expect(segmentStyle(l[5])).toContain('background: var(--ui-text)');
    expect(segmentStyle(l[0])).toBe('color: var(--ansi-9)');
  });
  it('computes the xterm cube and grey ramp', () => {
    expect(xterm256(16)).toBe('#000000');
    expect(xterm256(231)).toBe('#ffffff');
    expect(xterm256(244)).toBe('#808080');
  });
});
