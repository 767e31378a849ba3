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

describe('parseANSI attributes and their resets', () => {
  const flags = (s: ReturnType<typeof parseANSI>[number][number]) =>
    [s.bold && 'bold', s.dim && 'dim', s.italic && 'italic', s.underline && 'underline', s.inverse && 'inverse'].filter(Boolean).join(' ');

  it('turns each attribute on, and off with its own code', () => {
    const [l] = parseANSI('\x1b[1ma\x1b[22mb\x1b[2mc\x1b[22md\x1b[3me\x1b[23mf\x1b[4mg\x1b[24mh\x1b[7mi\x1b[27mj\x1b[1;2mk\x1b[22ml');
    expect(l.map((s) => `${s.text}:${flags(s)}`)).toEqual([
      'a:bold', 'b:', 'c:dim', 'd:', 'e:italic', 'f:', 'g:underline', 'h:', 'i:inverse', 'j:', 'k:bold dim', 'l:',
    ]);
  });

  it('resets everything on 0, on an empty SGR and on an empty parameter', () => {
    const [l] = parseANSI('\x1b[1;3;4;7;31;42ma\x1b[0mb\x1b[1;31mc\x1b[md\x1b[4;32me\x1b[;1mf');
    expect(l.map((s) => [s.text, flags(s), s.fg, s.bg])).toEqual([
      ['a', 'bold italic underline inverse', { index: 1 }, { index: 2 }],
      ['b', '', null, null],
      ['c', 'bold', { index: 1 }, null],
      ['d', '', null, null],
      ['e', 'underline', { index: 2 }, null],
      ['f', 'bold', null, null],
    ]);
  });

  it('maps the first and last code of each colour range, and ignores codes between them', () => {
    const codes = [30, 37, 40, 47, 90, 97, 100, 107];
    const got = codes.map((c) => parseANSI(`\x1b[${c}mx`)[0][0]);
    expect(got.map((s) => [s.fg, s.bg])).toEqual([
      [{ index: 0 }, null], [{ index: 7 }, null], [null, { index: 0 }], [null, { index: 7 }],
      [{ index: 8 }, null], [{ index: 15 }, null], [null, { index: 8 }], [null, { index: 15 }],
    ]);
    for (const c of [29, 38, 48, 50, 89, 98, 99, 108]) {
      const [s] = parseANSI(`\x1b[${c}mx`)[0];
      expect([c, s.fg, s.bg]).toEqual([c, null, null]);
    }
  });

  it('reads extended colours with colons, clamps them, and drops an incomplete one', () => {
    const [l] = parseANSI('\x1b[38:5:9ma\x1b[38;5;300mb\x1b[48;2;300;0;128mc\x1b[31;38;5md\x1b[32;38;2;1;2me\x1b[38;5;15;1mf');
    expect(l.map((s) => [s.text, s.fg, s.bg])).toEqual([
      ['a', { index: 9 }, null],
      ['b', { hex: '#eeeeee' }, null],
      ['c', { hex: '#eeeeee' }, { hex: '#ff0080' }],
      ['d', null, { hex: '#ff0080' }],
      ['e', null, { hex: '#ff0080' }],
      ['f', { index: 15 }, { hex: '#ff0080' }],
    ]);
    expect(l[5].bold).toBe(true); // the code after a complete colour is read
    expect(parseANSI('\x1b[38;5;15ma\x1b[38;5;16mb')[0].map((s) => s.fg)).toEqual([{ index: 15 }, { hex: '#000000' }]);
  });

  it('drops other escape sequences and carriage returns, and a final newline makes no empty line', () => {
    expect(parseANSI('\x1b[2Kab\x1b=c\r\nd\n').map((l) => l.map((s) => s.text))).toEqual([['ab', 'c'], ['d']]);
    expect(parseANSI('a\n\nb').map((l) => l.map((s) => s.text))).toEqual([['a'], [], ['b']]);
    expect(parseANSI('')).toEqual([[]]);
  });

  it('drops whole sequences of every form: charset designations, private CSI, window titles, a cut-off escape', () => {
    const text = (s: string) => parseANSI(s).map((l) => l.map((x) => x.text).join(''));
    expect(text('\x1b(Bab\x1b)0c\x1b#8d')).toEqual(['abcd']); // ESC ( B: nothing of it is left as text
    expect(text('\x1b[?25lab\x1b[?1049h\x1b[>4;2mc')).toEqual(['abc']);
    expect(parseANSI('\x1b[>4;2mc')[0][0]).toMatchObject({ text: 'c', dim: false }); // xterm's key mode, no style
    expect(text('\x1b]0;my title\x07ab\x1b]8;;https://x.test\x1b\\c\x1b]8;;\x1b\\d')).toEqual(['abcd']);
    expect(text('\x1bP+q544e\x1b\\ab')).toEqual(['ab']);
    expect(text('ab\x1b]0;never ended')).toEqual(['ab']);
    expect(text('ab\x1b')).toEqual(['ab']);
    // SGR still styles what follows a dropped sequence.
    const [[seg]] = parseANSI('\x1b(B\x1b[1mbold');
    expect(seg).toMatchObject({ text: 'bold', bold: true });
  });
});

describe('segmentStyle', () => {
  const seg = (over: Partial<ReturnType<typeof parseANSI>[number][number]>) => ({
    text: 'x', fg: null, bg: null, bold: false, dim: false, italic: false, underline: false, inverse: false, ...over,
  });
  it('says each attribute in CSS, the theme colours by custom property and fixed ones as they are', () => {
    expect(segmentStyle(seg({}))).toBe('color: var(--ui-text)');
    expect(segmentStyle(seg({ fg: { hex: '#010203' }, bg: { index: 4 }, bold: true, dim: true, italic: true, underline: true }))).toBe(
      'color: #010203; background: var(--ansi-4); font-weight: 700; opacity: 0.7; font-style: italic; text-decoration: underline',
    );
  });
  it('swaps the colours on inverse, the page background standing in for a missing one', () => {
    expect(segmentStyle(seg({ inverse: true }))).toBe('color: var(--ui-background); background: var(--ui-text)');
    expect(segmentStyle(seg({ inverse: true, fg: { index: 1 }, bg: { index: 2 } }))).toBe('color: var(--ansi-2); background: var(--ansi-1)');
  });
});

describe('xterm256', () => {
  it('walks the cube by blue, green, red, and the grey ramp from #080808 to #eeeeee', () => {
    expect([17, 21, 22, 52, 59, 196, 232, 255].map(xterm256)).toEqual(['#00005f', '#0000ff', '#005f00', '#5f0000', '#5f5f5f', '#ff0000', '#080808', '#eeeeee']);
  });
});
