// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { color, styleText, syntaxColor, themeAppearance, themeName, themeVars } from './theme';

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

  it('paints a role naming a palette entry with the colour Go resolved for it', () => {
    const v3 = { ...doc, palette: { amber: '#3355ff' }, ui: { ...(doc.ui as object), accent: 'amber' }, syntax: { keyword: 'amber' } };
    const v = themeVars(v3, [{ path: 'ui.accent', color: '#3355ff' }, { path: 'syntax.keyword', color: '#3355ff' }]);
    expect(v['--ui-accent']).toBe('#3355ff');
    expect(v['--syntax-keyword']).toBe('#3355ff');
    // Without Go's colour the reference resolves in the document's own
    // palette, and a name no entry holds paints nothing rather than a name.
    expect(themeVars(v3)['--ui-accent']).toBe('#3355ff');
    expect(themeVars({ ...v3, ui: { ...(doc.ui as object), accent: 'nowhere' } })['--ui-accent']).toBeUndefined();
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

describe('a version 3 document whose roles name palette entries', () => {
  const v3 = {
    name: 'P',
    appearance: 'dark',
    palette: { ink: '#101010', fog: '#EEEEEE', blue: { base: '#3b82f6' }, bad: 'url(evil)' },
    ui: { background: 'ink', text: 'fog', accent: 'blue', selection: 'blue.800', border: 'bad' },
    syntax: { keyword: { color: 'blue', fontStyle: 'bold' }, string: 'fog', comment: 'nope' },
    ansi: ['ink', 'blue.600'],
  };

  it('resolves an entry, a ramp by its base, and leaves out unknown names, steps and unsafe entries', () => {
    const v = themeVars(v3);
    expect(v['--ui-background']).toBe('#101010');
    expect(v['--ui-text']).toBe('#eeeeee');
    expect(v['--ui-accent']).toBe('#3b82f6');
    expect(v['--syntax-keyword']).toBe('#3b82f6');
    expect(v['--syntax-string']).toBe('#eeeeee');
    expect(v['--ansi-0']).toBe('#101010');
    for (const k of ['--ui-selection', '--ui-border', '--syntax-comment', '--ansi-1']) expect(v[k]).toBeUndefined();
  });

  it('takes the colours Go resolved over the document, ramp steps included', () => {
    const v = themeVars(v3, [
      { path: 'ui.selection', color: '#1e3a8a' },
      { path: 'ui.accent', color: '#ff8800' },
      { path: 'ansi.red', color: '#2563eb' },
      { path: 'syntax.keyword', color: '#ff8800' },
    ]);
    expect(v['--ui-selection']).toBe('#1e3a8a');
    expect(v['--ui-accent']).toBe('#ff8800');
    expect(v['--ansi-1']).toBe('#2563eb');
    expect(v['--syntax-keyword']).toBe('#ff8800');
  });
});

describe('the preview colours of a theme document', () => {
  it('sets every ui role, syntax role and the first 16 ANSI colours it holds, trimmed and lower-cased', () => {
    const v = themeVars({
      ui: { background: ' #0A0B0C ', surface: '#111111', accent: '#22222280', warning: 'orange', error: 7 },
      syntax: { type: { color: '#333333' }, number: ['#444444'], operator: '#555555' },
      ansi: [...Array.from({ length: 16 }, (_, i) => `#0000${i.toString(16).padStart(2, '0')}`), '#ffffff'],
    });
    expect(v).toStrictEqual({
      '--ui-background': '#0a0b0c', '--ui-surface': '#111111', '--ui-accent': '#22222280',
      '--syntax-type': '#333333', '--syntax-operator': '#555555',
      ...Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`--ansi-${i}`, `#0000${i.toString(16).padStart(2, '0')}`])),
    });
  });

  it('skips an invalid ANSI colour without moving the others, and groups that are not objects', () => {
    expect(themeVars({ ansi: ['red', '#010101'], ui: ['#101010'], syntax: '#202020' })).toStrictEqual({ '--ansi-1': '#010101' });
    expect(themeVars({ ansi: '#010101' })).toStrictEqual({});
    expect(themeVars(null, [{ path: 'editor.lineNumber', color: '#808080' }])).toStrictEqual({});
    expect(themeVars(undefined)).toStrictEqual({});
  });

  it('takes a role only by a group.name path and a colour of 6 or 8 digits', () => {
    const v = themeVars({}, [
      { path: 'editor', color: '#808080' },
      { path: 'editor.line.number', color: '#808080' },
      { path: ' editor.x', color: '#808080' },
      { path: 'editor.x', color: '#8080' },
      { path: 'editor.y', color: '#1234567' },
      { path: 'editor.z', color: ' #ABCDEF ' },
    ]);
    expect(v).toStrictEqual({ '--role-editor-z': '#abcdef' });
  });

  it('accepts only #rrggbb and #rrggbbaa, and a syntax colour given either way', () => {
    expect(['#abcdef', '#ABCDEF12', ' #abcdef', 'x#abcdef', '#abcdefx', '#abc', 12, null].map(color)).toEqual([
      '#abcdef', '#abcdef12', '#abcdef', undefined, undefined, undefined, undefined, undefined,
    ]);
    expect([{ color: '#ABCDEF' }, '#abcdef', { colour: '#abcdef' }, ['#abcdef'], null].map(syntaxColor)).toEqual(['#abcdef', '#abcdef', undefined, undefined, undefined]);
  });

  it('writes no property for a colour it refused, so the preview keeps its own default there', () => {
    const style = styleText(themeVars({ ui: { text: 'red', background: '#101010' }, syntax: { keyword: 'blue' }, ansi: ['x'] }, [{ path: 'editor.x', color: 'y' }]));
    expect(style).toBe('--ui-background: #101010');
  });

  it('writes the properties as one style attribute', () => {
    expect(styleText({ '--ui-text': '#eeeeee', '--ansi-0': '#000000' })).toBe('--ui-text: #eeeeee; --ansi-0: #000000');
    expect(styleText({})).toBe('');
  });

  it('reads the name and the appearance, and nothing else for them', () => {
    expect(themeName({ name: 'Harbour' })).toBe('Harbour');
    expect([{ name: 3 }, null, undefined].map((d) => themeName(d as never))).toEqual(['', '', '']);
    expect([{ appearance: 'dark' }, { appearance: 'light' }, { appearance: 'Dark' }, null].map((d) => themeAppearance(d as never))).toEqual(['dark', 'light', '', '']);
  });
});
