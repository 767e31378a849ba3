// Renders real terminal output (SGR escape sequences) through a theme's 16
// ANSI colours: the preview's terminal sample is a recording of real
// programs (scripts/record-terminal-sample.sh), not hand-picked spans.

/** A colour: an index into the 16 theme colours, or a fixed #rrggbb. */
export type AnsiColor = { index: number } | { hex: string } | null;

interface Style {
  fg: AnsiColor;
  bg: AnsiColor;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
  inverse: boolean;
}

/** A run of text in one style. */
export interface AnsiSegment extends Style {
  text: string;
}

const plain = (): Style => ({ fg: null, bg: null, bold: false, dim: false, italic: false, underline: false, inverse: false });

/** xterm's 256-colour palette beyond the first 16: the 6×6×6 cube, then greys. */
export function xterm256(n: number): string {
  const h = (v: number) => v.toString(16).padStart(2, '0');
  if (n >= 232) {
    const g = 8 + (n - 232) * 10;
    return '#' + h(g) + h(g) + h(g);
  }
  const i = n - 16;
  const step = (v: number) => (v === 0 ? 0 : 55 + v * 40);
  return '#' + h(step(Math.floor(i / 36))) + h(step(Math.floor(i / 6) % 6)) + h(step(i % 6));
}

function extended(params: number[], i: number): [AnsiColor, number] {
  if (params[i + 1] === 5 && i + 2 < params.length) {
    const n = params[i + 2];
    return [n < 16 ? { index: n } : { hex: xterm256(Math.min(255, n)) }, i + 2];
  }
  if (params[i + 1] === 2 && i + 4 < params.length) {
    const h = (v: number) => Math.max(0, Math.min(255, v)).toString(16).padStart(2, '0');
    return [{ hex: '#' + h(params[i + 2]) + h(params[i + 3]) + h(params[i + 4]) }, i + 4];
  }
  return [null, i];
}

function applySGR(s: Style, params: number[]): void {
  if (params.length === 0) params = [0];
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    if (p === 0) Object.assign(s, plain());
    else if (p === 1) s.bold = true;
    else if (p === 2) s.dim = true;
    else if (p === 3) s.italic = true;
    else if (p === 4) s.underline = true;
    else if (p === 7) s.inverse = true;
    else if (p === 22) s.bold = s.dim = false;
    else if (p === 23) s.italic = false;
    else if (p === 24) s.underline = false;
    else if (p === 27) s.inverse = false;
    else if (p >= 30 && p <= 37) s.fg = { index: p - 30 };
    else if (p === 38) [s.fg, i] = extended(params, i);
    else if (p === 39) s.fg = null;
    else if (p >= 40 && p <= 47) s.bg = { index: p - 40 };
    else if (p === 48) [s.bg, i] = extended(params, i);
    else if (p === 49) s.bg = null;
    else if (p >= 90 && p <= 97) s.fg = { index: p - 90 + 8 };
    else if (p >= 100 && p <= 107) s.bg = { index: p - 100 + 8 };
  }
}

// ECMA-48's escape forms, each dropped whole: CSI (parameters, then
// intermediates, then the final byte), the string controls OSC, DCS, SOS,
// PM and APC up to BEL or ST (or the end), and ESC with intermediates and a
// final byte (ESC ( B), or a lone ESC at the end.
const escape = /\x1b\[([0-?]*)[ -/]*([@-~])|\x1b[\]PX^_][\s\S]*?(?:\x07|\x1b\\|$)|\x1b[ -/]*[0-~]?/g;

/** Splits terminal output into lines of styled segments; other control sequences are dropped. */
export function parseANSI(input: string): AnsiSegment[][] {
  const lines: AnsiSegment[][] = [[]];
  const style = plain();
  const push = (text: string) => {
    const parts = text.replace(/\r/g, '').split('\n');
    parts.forEach((part, i) => {
      if (i > 0) lines.push([]);
      if (part) lines[lines.length - 1].push({ text: part, ...style });
    });
  };
  let last = 0;
  for (const m of input.matchAll(escape)) {
    push(input.slice(last, m.index));
    last = (m.index ?? 0) + m[0].length;
    // SGR only: a private CSI ending in m (ESC [ > 4 ; 2 m) sets no style.
    if (m[2] === 'm' && /^[0-9;:]*$/.test(m[1])) applySGR(style, m[1] === '' ? [] : m[1].split(/[;:]/).map((v) => Number(v) || 0));
  }
  push(input.slice(last));
  if (lines.length > 1 && lines[lines.length - 1].length === 0) lines.pop();
  return lines;
}

/** The CSS colour of an ANSI colour in the preview: theme colours by custom property. */
export function cssColor(c: AnsiColor, fallback: string): string {
  if (!c) return fallback;
  return 'index' in c ? `var(--ansi-${c.index})` : c.hex;
}

/** Inline style of a segment (colours resolved; inverse swaps them). */
export function segmentStyle(s: AnsiSegment): string {
  let fg = cssColor(s.fg, 'var(--ui-text)');
  let bg = cssColor(s.bg, '');
  if (s.inverse) [fg, bg] = [bg || 'var(--ui-background)', fg];
  const out = [`color: ${fg}`];
  if (bg) out.push(`background: ${bg}`);
  if (s.bold) out.push('font-weight: 700');
  if (s.dim) out.push('opacity: 0.7');
  if (s.italic) out.push('font-style: italic');
  if (s.underline) out.push('text-decoration: underline');
  return out.join('; ');
}
