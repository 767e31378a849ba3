// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { themeVars } from './theme';

const doc = {
  name: 'T',
  appearance: 'dark',
  ui: { background: '#101010', text: '#eeeeee' },
  syntax: { keyword: { color: '#AA00FF', fontStyle: 'bold' }, string: '#00ff00', comment: 'red' },
  ansi: ['#000000'],
};

describe('themeVars', () => {
  it('reads syntax roles given as a colour or as {color, fontStyle}', () => {
    const v = themeVars(doc);
    expect(v['--syntax-keyword']).toBe('#aa00ff');
    expect(v['--syntax-string']).toBe('#00ff00');
    expect(v['--syntax-comment']).toBeUndefined();
  });

  it('adds every role Go resolved, and nothing that is not a role colour', () => {
    const v = themeVars(doc, [
      { path: 'editor.lineNumber', color: '#808080' },
      { path: 'diff.addedLine', color: '#00ff0024' },
      { path: 'x"; background: url(evil)', color: '#ffffff' },
      { path: 'editor.gutter', color: 'url(evil)' },
    ]);
    expect(v['--role-editor-lineNumber']).toBe('#808080');
    expect(v['--role-diff-addedLine']).toBe('#00ff0024');
    expect(Object.keys(v).filter((k) => k.includes('evil') || k === '--role-editor-gutter')).toEqual([]);
  });
});
