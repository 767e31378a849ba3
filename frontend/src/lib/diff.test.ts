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

  it('falls back to delete-all/add-all for huge inputs instead of building a giant table', () => {
    const big = (p: string) => Array.from({ length: 3000 }, (_, i) => p + i).join('\n');
    const d = lineDiff(big('x'), big('y'));
    expect(d.filter((l) => l.op === 'del')).toHaveLength(3000);
    expect(d.filter((l) => l.op === 'add')).toHaveLength(3000);
  });
});
