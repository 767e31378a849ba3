// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { safeColor, snippetParts } from './snippet';

describe('snippetParts', () => {
  it.each([
    ['one mark', 'Are you still there?', [{ start: 8, end: 13 }], ['Are you ', '[still]', ' there?']],
    ['two marks', 'say hello, hello', [{ start: 4, end: 9 }, { start: 11, end: 16 }], ['say ', '[hello]', ', ', '[hello]']],
    ['code points, not UTF-16 units', '🎨 crème brûlée', [{ start: 2, end: 7 }], ['🎨 ', '[crème]', ' brûlée']],
    ['out of range and reversed spans are dropped', 'abc', [{ start: 2, end: 99 }, { start: 3, end: 1 }, { start: -5, end: 1 }], ['[a]', 'b', '[c]']],
    ['overlaps: the first wins', 'abcdef', [{ start: 0, end: 3 }, { start: 2, end: 5 }], ['[abc]', 'def']],
    ['no marks', 'plain', null, ['plain']],
    ['markup stays text', '<img src=x onerror=alert(1)>', [{ start: 1, end: 4 }], ['<', '[img]', ' src=x onerror=alert(1)>']],
    ['spans given out of order', 'say hello, hello', [{ start: 11, end: 16 }, { start: 4, end: 9 }], ['say ', '[hello]', ', ', '[hello]']],
    ['spans that touch', 'abcd', [{ start: 0, end: 2 }, { start: 2, end: 4 }], ['[ab]', '[cd]']],
    ['empty and fractional spans are dropped', 'abcd', [{ start: 1, end: 1 }, { start: 0.5, end: 2 }, { start: 1, end: 2.5 }], ['abcd']],
    ['a span starting at the end', 'abc', [{ start: 3, end: 5 }], ['abc']],
  ])('%s', (_name, text, marks, want) => {
    expect(snippetParts(text, marks).map((p) => (p.hit ? `[${p.text}]` : p.text))).toEqual(want);
  });
});

describe('snippetParts without text', () => {
  it('makes no parts', () => {
    expect(snippetParts(null as unknown as string, [{ start: 0, end: 1 }])).toEqual([]);
  });
  it('skips missing marks', () => {
    expect(snippetParts('abc', [null, undefined, { start: 0, end: 1 }] as never)).toEqual([{ text: 'a', hit: true }, { text: 'bc', hit: false }]);
  });
});

describe('safeColor', () => {
  it('lets only #rrggbb through', () => {
    expect(safeColor('#1a2B3c')).toBe('#1a2B3c');
    for (const bad of ['red', 'x#123456', '#fff', 'url(x)', '#123456;background:url(x)', '']) expect(safeColor(bad)).toBeNull();
  });
});
