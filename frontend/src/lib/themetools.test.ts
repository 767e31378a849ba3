// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { themeTool, themeToolName } from './themetools';

// What codex-acp 2.6.0 reported for the calls in the end-to-end test.
const checkInput = { server: 'cdxtheme', tool: 'theme_check', arguments: {} };
const failing = {
  result: {
    content: [{ type: 'text', text: '1 of 44 contrast pairs…' }],
    structuredContent: {
      file: 'theme.json', valid: true, passes: false, target: 4.5, checked: 44, problems: [],
      failing: [{ foreground: { role: 'syntax.comment', color: '#41465a', follows: '' }, background: { role: 'ui.background', color: '#161a24', follows: '' }, ratio: 1.86, apcaLc: -9.4, target: 4.5, fix: { role: 'syntax.comment', color: '#8891a7', ratio: 4.52 } }],
      locked: [{ role: 'ui.accent', color: '#7aa2f7', current: '#7aa2f7', kept: true }, { role: 'syntax.string', color: '#123456', current: '#9ece6a', kept: false }],
      handEdits: [], warnings: [],
    },
  },
  error: null,
};

describe('themeTool', () => {
  it('reads a check: its failing pairs with their fix, and the locks it broke', () => {
    const v = themeTool(checkInput, failing, 'mcp.cdxtheme.theme_check');
    expect(v?.tool).toBe('theme_check');
    expect(v?.check?.passes).toBe(false);
    expect(v?.check?.failing).toEqual([{ fg: 'syntax.comment', fgColor: '#41465a', bg: 'ui.background', bgColor: '#161a24', ratio: 1.86, fix: { role: 'syntax.comment', color: '#8891a7', ratio: 4.52 } }]);
    expect(v?.check?.lockedChanged).toEqual(['syntax.string']);
  });

  it('reads a render: the PNG as a data URL, nothing else', () => {
    const out = { result: { content: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }, { type: 'text', text: 'rendered' }] } };
    expect(themeTool({ server: 'cdxtheme', tool: 'theme_render' }, out, '')?.image).toBe('data:image/png;base64,iVBORw0KGgo=');
    for (const bad of [
      { type: 'image', data: 'x" onerror="alert(1)', mimeType: 'image/png' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/svg+xml' },
      { type: 'image', data: 'A'.repeat((2 << 20) + 4), mimeType: 'image/png' },
    ]) {
      expect(themeTool({ server: 'cdxtheme', tool: 'theme_render' }, { result: { content: [bad] } }, '')?.image).toBeUndefined();
    }
  });

  it('knows the tools by raw input or by title, and nothing else', () => {
    expect(themeToolName({ server: 'other', tool: 'theme_check' }, 'run')).toBeNull();
    expect(themeToolName({ command: 'ls' }, 'ls -la')).toBeNull();
    expect(themeToolName(undefined, 'mcp__cdxtheme__theme_render')).toBe('theme_render');
    expect(themeToolName(undefined, 'mycdxtheme.theme_check')).toBeNull();
    expect(themeTool({ command: 'ls' }, failing, 'ls')).toBeNull();
  });

  it('drops what is not a colour or not a number from hostile output', () => {
    const hostile = { result: { structuredContent: { passes: 'yes', failing: [{ foreground: { role: 'x'.repeat(500), color: 'red; background:url(x)' }, ratio: '9' }, 5, null] } } };
    const v = themeTool(checkInput, hostile, '');
    expect(v?.check?.passes).toBe(false);
    expect(v?.check?.failing).toHaveLength(1);
    expect(v?.check?.failing[0].fgColor).toBe('');
    expect(v?.check?.failing[0].fg.length).toBe(80);
    expect(v?.check?.failing[0].ratio).toBe(0);
  });
});
