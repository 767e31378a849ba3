import { describe, expect, it } from 'vitest';
import { lineDiff } from './diff';

const render = (old: string | null, next: string | null) =>
  lineDiff(old, next).map((l) => (l.op === 'add' ? '+' : l.op === 'del' ? '-' : ' ') + l.text);

describe('lineDiff', () => {
  it.each([
    { name: 'new file', old: null, next: 'a\nb\n', want: ['+a', '+b'] },
    { name: 'deleted file', old: 'a\nb\n', next: '', want: ['-a', '-b'] },
    { name: 'unchanged', old: 'a\nb', next: 'a\nb', want: [' a', ' b'] },
    { name: 'changed middle line', old: 'a\nb\nc\n', next: 'a\nB\nc\n', want: [' a', '-b', '+B', ' c'] },
    { name: 'insert', old: 'a\nc', next: 'a\nb\nc', want: [' a', '+b', ' c'] },
    {
      name: 'theme edit',
      old: '{\n  "text": "#d8dee9",\n  "accent": "#7fb4ff"\n}\n',
      next: '{\n  "text": "#e6e9ef",\n  "accent": "#7fb4ff",\n  "border": "#323a4c"\n}\n',
      want: ['{', '-  "text": "#d8dee9",', '-  "accent": "#7fb4ff"', '+  "text": "#e6e9ef",', '+  "accent": "#7fb4ff",', '+  "border": "#323a4c"', '}'].map((l) => (l === '{' || l === '}' ? ' ' + l : l)),
    },
  ])('$name', ({ old, next, want }) => {
    expect(render(old, next)).toEqual(want);
  });

  it('numbers old and new lines', () => {
    const d = lineDiff('a\nb\nc', 'a\nc\nd');
    expect(d.map((l) => [l.op, l.oldNo, l.newNo])).toEqual([
      ['same', 1, 1],
      ['del', 2, undefined],
      ['same', 3, 2],
      ['add', undefined, 3],
    ]);
  });

  it('two files with nothing in common: every old line removed, every new one added', () => {
    const big = (p: string) => Array.from({ length: 400 }, (_, i) => p + i).join('\n');
    const d = lineDiff(big('x'), big('y'));
    expect(d.filter((l) => l.op === 'del')).toHaveLength(400);
    expect(d.filter((l) => l.op === 'add')).toHaveLength(400);
  });

  it('two files too different to diff within the edit limit: every old line removed, then every new one added', () => {
    const old = Array.from({ length: 600 }, (_, i) => 'x' + i);
    const next = Array.from({ length: 600 }, (_, i) => 'y' + i);
    const d = lineDiff(old.join('\n'), next.join('\n'));
    expect(d.map((l) => [l.op, l.text, l.oldNo, l.newNo])).toEqual([
      ...old.map((text, i) => ['del', text, i + 1, undefined]),
      ...next.map((text, i) => ['add', text, undefined, i + 1]),
    ]);
  });

  it('a 100,000-line file with 400 scattered edits shows exactly those', () => {
    const old = Array.from({ length: 100_000 }, (_, i) => `line ${i}`);
    const next = old.map((l, i) => (i % 250 === 0 ? `changed ${i}` : l));
    const d = lineDiff(old.join('\n'), next.join('\n'));
    expect(d.filter((l) => l.op === 'del').map((l) => l.oldNo)).toEqual(Array.from({ length: 400 }, (_, k) => k * 250 + 1));
    expect(d.filter((l) => l.op === 'add').map((l) => l.text)).toEqual(Array.from({ length: 400 }, (_, k) => `changed ${k * 250}`));
  });

  it('a large file with edits near both ends shows just those edits', () => {
    // 5,000 lines, changed at line 10 and line 4,990: the changed middle is
    // 4,981 × 4,981 lines, past the old table's 4M cells, which then showed
    // all of it as removed and added again.
    const lines = Array.from({ length: 5000 }, (_, i) => `  "token.${i}": "#${(i * 2654435761 >>> 8).toString(16).padStart(6, '0').slice(0, 6)}",`);
    const next = [...lines];
    next[9] = '  "token.9": "#ff8800",';
    next.splice(4989, 1, '  "token.4989": "#00ff88",', '  "token.extra": "#123456",');
    const d = lineDiff(lines.join('\n') + '\n', next.join('\n') + '\n');
    const changed = d.filter((l) => l.op !== 'same');
    expect(changed.map((l) => [l.op, l.oldNo, l.newNo, l.text])).toEqual([
      ['del', 10, undefined, lines[9]],
      ['add', undefined, 10, '  "token.9": "#ff8800",'],
      ['del', 4990, undefined, lines[4989]],
      ['add', undefined, 4990, '  "token.4989": "#00ff88",'],
      ['add', undefined, 4991, '  "token.extra": "#123456",'],
    ]);
    expect(d.filter((l) => l.op === 'same')).toHaveLength(4998);
    const last = d[d.length - 1];
    expect([last.op, last.oldNo, last.newNo]).toEqual(['same', 5000, 5001]);
  });

  it('past its work bound shows the whole file replaced rather than freezing', () => {
    // 40,000 lines that share nothing: 40,000 edits, past the 1,000 looked for.
    const big = (p: string) => Array.from({ length: 20000 }, (_, i) => p + i).join('\n');
    const d = lineDiff(big('x'), big('y'));
    expect(d.slice(0, 20000).every((l, i) => l.op === 'del' && l.oldNo === i + 1)).toBe(true);
    expect(d.slice(20000).every((l, i) => l.op === 'add' && l.newNo === i + 1)).toBe(true);
  });
});
