import { describe, expect, it } from 'vitest';
import { designGroup, failingRoles, groupRoles, guessLanguage, loadOwnCode, saveOwnCode } from './design';
import type { Check, EditorRole } from './types';

const role = (path: string, group: string, extra: Partial<EditorRole> = {}): EditorRole =>
  ({ path, group, label: path, section: '', help: '', color: '#000000', locked: false, derived: false, ...extra }) as EditorRole;

const check = (fgRole: string, bgRole: string, ratio: number): Check => ({ fg: '#000000', bg: '#ffffff', fgRole, bgRole, ratio, aa: ratio >= 4.5, aaa: ratio >= 7, aaLarge: ratio >= 3, apca: 0 }) as Check;

describe('design groups', () => {
  it('files roles where they show: git signs apart from diff views, ANSI with the terminal', () => {
    expect(designGroup(role('diff.added', 'diff'))).toBe('git');
    expect(designGroup(role('diff.addedLine', 'diff'))).toBe('diff');
    expect(designGroup(role('ansi.red', 'ansi'))).toBe('terminal');
    expect(designGroup(role('ui.accent', 'ui'))).toBe('chrome');
    expect(designGroup(role('diagnostic.error', 'diagnostic'))).toBe('diagnostics');
    expect(designGroup(role('companion.diff.changed', 'diff'))).toBe('git');
    expect(designGroup(role('palette.amber', 'palette'))).toBeNull();
  });

  it('searches and keeps only the failing roles on request', () => {
    const roles = [role('ui.accent', 'ui', { label: 'Accent' }), role('ui.mutedText', 'ui', { label: 'Muted text' }), role('syntax.comment', 'syntax', { label: 'Comments', follows: 'ash' })];
    const failing = failingRoles([check('ui.mutedText', 'ui.background', 2.9), check('ui.text', 'ui.background', 12)]);
    expect([...failing.keys()].sort()).toEqual(['ui.background', 'ui.mutedText']);
    expect(groupRoles(roles, '', true, failing)).toEqual([{ group: 'chrome', roles: [roles[1]] }]);
    expect(groupRoles(roles, 'ash', false, failing)).toEqual([{ group: 'syntax', roles: [roles[2]] }]);
    expect(groupRoles(roles, 'muted', false, failing).flatMap((g) => g.roles.map((r) => r.path))).toEqual(['ui.mutedText']);
    expect(groupRoles(roles, '', false, failing).map((g) => g.group)).toEqual(['syntax', 'chrome']);
  });
});

describe('own code', () => {
  const offered = ['go', 'python', 'rust', 'typescript', 'javascript', 'json', 'shellscript'];
  it('guesses the language from the code itself', () => {
    expect(guessLanguage('package main\n\nfunc main() {\n\tx := 1\n}\n', offered)).toBe('go');
    expect(guessLanguage('def add(a, b):\n    return a + b\n', offered)).toBe('python');
    expect(guessLanguage('fn main() {\n    let mut x = 1;\n}\n', offered)).toBe('rust');
    expect(guessLanguage('interface A {\n  b: string;\n}\n', offered)).toBe('typescript');
    expect(guessLanguage('{"a": 1}', offered)).toBe('json');
    expect(guessLanguage('#!/bin/bash\necho hi\n', offered)).toBe('shellscript');
    expect(guessLanguage('just words', offered)).toBe('');
  });

  it('keeps the code and its language between openings, bounded', () => {
    saveOwnCode('x'.repeat(60_000), 'go');
    const got = loadOwnCode()!;
    expect(got.lang).toBe('go');
    expect(got.code.length).toBe(50_000);
  });
});
