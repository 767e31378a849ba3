import { describe, expect, it } from 'vitest';
import { BuildTheme, BuildThemes } from './buildtheme.svelte';
import { flush, installWails } from '../../test/wails';
import { Steps } from '../../test/steps';
import example from '../../test/fixtures/example.theme.json';

const contrast = [
  { fg: '#d8dee9', bg: '#161a24', fgRole: 'ui.text', bgRole: 'ui.background', ratio: 13.1, aa: true, aaa: true, aaLarge: true },
  { fg: '#8b96aa', bg: '#1f2430', fgRole: 'syntax.comment', bgRole: 'ui.surface', ratio: 4.2, aa: false, aaa: false, aaLarge: true },
];
const editor = (over = {}) => ({ roles: [{ path: 'ui.accent', label: 'Accent', group: 'ui', color: '#7fb4ff', locked: false }], changed: [], canUndo: false, canRedo: false, undoLabel: '', redoLabel: '', ...over });

describe('build theme store', () => {
  it('loads the theme and the editor together and keeps the last valid theme while the file is broken', async () => {
    let now: Record<string, unknown> = { theme: example, error: '', checks: contrast };
    const w = installWails({ Theme: () => now, EditorState: () => editor() });
    const themes = new BuildThemes();
    const b = themes.show('ws1')!;
    await flush();
    expect(w.bound.Theme).toHaveBeenCalledWith('ws1');
    expect(w.bound.EditorState).toHaveBeenCalledWith('ws1');
    expect([b.theme?.name, b.failures.map((f) => f.fgRole), b.rolesOf().map((r) => r.path)]).toEqual(['Harbour Night', ['syntax.comment'], ['ui.accent']]);

    now = { theme: null, error: 'ui.accent: "#12" is not a colour', checks: null };
    w.emit('theme', { workspaceId: 'ws1', ...now });
    await flush();
    expect([b.broken, b.theme?.name, b.checks.length, b.rolesOf().length]).toEqual(['ui.accent: "#12" is not a colour', 'Harbour Night', 2, 1]);

    // Another build's event is not this one's.
    w.emit('theme', { workspaceId: 'other', theme: { ...example, name: 'Not mine' }, error: '', checks: [] });
    now = { theme: { ...example, name: 'Fixed' }, error: '', checks: [contrast[0]] };
    w.emit('theme', { workspaceId: 'ws1', ...now });
    await flush();
    expect([b.theme?.name, b.broken, b.failures.length]).toEqual(['Fixed', '', 0]);
    themes.hide();
    expect(w.listeners.get('theme')).toEqual([]);
  });

  it('ends on what Go reports last when answers arrive out of order', async () => {
    const steps = new Steps();
    let name = 'Step 1';
    installWails({ Theme: steps.answer('Theme', () => ({ theme: { ...example, name }, error: '', checks: contrast })), EditorState: steps.answer('EditorState', () => editor()) });
    const b = new BuildTheme('ws1');
    void b.sync();
    name = 'Step 2';
    void b.sync();
    // The second asking's answers arrive first, then the first's.
    expect(await steps.drain(() => {}, true)).toEqual(['EditorState', 'Theme', 'EditorState', 'Theme']);
    expect(b.theme?.name).toBe('Step 2');
  });

  it('keeps the theme of every open chat’s build, asks a hidden one again when shown, and drops a closed one', async () => {
    const names: Record<string, string> = { a: 'A', b: 'B' };
    const w = installWails({ Theme: (ws: string) => ({ theme: { ...example, name: names[ws] }, error: '', checks: [] }), EditorState: () => editor() });
    const themes = new BuildThemes();
    const a = themes.show('a')!;
    await flush();
    const b = themes.show('b', ['a'])!;
    await flush();
    expect(themes.current).toBe(b);
    // A's theme changes while B is shown: a notice about it waits, A is asked when shown.
    names.a = 'A2';
    w.emit('theme', { workspaceId: 'a', theme: null, error: '', checks: [] });
    w.emit('editor', { workspaceId: 'a', notice: 'Put back 1 locked colour' });
    await flush();
    expect(a.theme?.name).toBe('A');
    expect(themes.show('a', ['b'])).toBe(a);
    await flush();
    expect([a.theme?.name, a.notice]).toEqual(['A2', 'Put back 1 locked colour']);
    // B's chat closed: its theme is not kept.
    themes.show('a', []);
    expect(themes.get('b')).toBeUndefined();
    themes.hide();
  });

  it('paints a tried colour only on the theme it was measured on', async () => {
    const steps = new Steps();
    let accent = '#7fb4ff';
    installWails({
      Theme: steps.answer('Theme', () => ({ theme: { ...example, ui: { ...example.ui, accent } }, error: '', checks: [] })),
      EditorState: steps.answer('EditorState', () => editor({ roles: [{ path: 'ui.accent', label: 'Accent', group: 'ui', color: accent, locked: false }] })),
      TryColor: steps.answer('TryColor', (req: { hex: string }) => ({ path: 'ui.accent', hex: req.hex, oklch: { l: 0.5, c: 0.1, h: 250 }, pairs: [], theme: { ...example, ui: { ...example.ui, accent: req.hex } }, roles: [] })),
    });
    const b = new BuildTheme('ws1');
    void b.sync();
    await steps.drain();
    void b.select('ui.accent');
    await steps.drain();
    void b.try({ hex: '#ff0000' });
    await steps.drain();
    expect((b.preview.theme as typeof example).ui.accent).toBe('#ff0000');
    // Someone else changed the theme: the previews show Go's new theme as
    // soon as it is in, and the picker measures its role as it now is.
    accent = '#00ff00';
    void b.sync();
    const seen: string[] = [];
    await steps.drain((after) => seen.push(`${after}: ${(b.preview.theme as typeof example).ui.accent}`));
    expect(seen).toEqual(['Theme: #ff0000', 'EditorState: #00ff00', 'TryColor: #00ff00']);
  });
});
