// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { relPath } from './paths';

// What a tool card shows for a path the agent touched: inside the
// workspace, relative to it; anywhere else, the path as the agent gave it.
describe('relPath', () => {
  it.each([
    ['a file inside the workspace', '/w/harbour/src/theme.json', '/w/harbour', 'src/theme.json'],
    ['the workspace given with a trailing slash', '/w/harbour/src/theme.json', '/w/harbour/', 'src/theme.json'],
    ['the workspace given with several trailing slashes', '/w/harbour/a.json', '/w/harbour//', 'a.json'],
    ['Windows separators', 'C:\\w\\harbour\\src\\theme.json', 'C:\\w\\harbour', 'src\\theme.json'],
    ['a Windows workspace with a trailing backslash', 'C:\\w\\harbour\\a.json', 'C:\\w\\harbour\\', 'a.json'],
    ['the workspace itself', '/w/harbour', '/w/harbour', '.'],
    ['the workspace itself, given with a trailing slash', '/w/harbour', '/w/harbour/', '.'],
    ['a sibling whose name starts like the workspace', '/w/harbourside/a.json', '/w/harbour', '/w/harbourside/a.json'],
    ['a file outside the workspace', '/etc/hosts', '/w/harbour', '/etc/hosts'],
    ['the parent of the workspace', '/w', '/w/harbour', '/w'],
    ['no workspace known', '/w/harbour/a.json', '', '/w/harbour/a.json'],
    ['no path', '', '/w/harbour', ''],
  ])('%s', (_name, path, dir, want) => {
    expect(relPath(path, dir)).toBe(want);
  });
});
