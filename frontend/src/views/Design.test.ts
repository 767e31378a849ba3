import { cleanup, fireEvent, render, screen, within as inside } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import Design from './Design.svelte';
import { BuildThemes } from '../lib/stores/buildtheme.svelte';
import example from '../test/fixtures/example.theme.json';
import { flush, installWails } from '../test/wails';
import type { EditorRole, ThemeState } from '../lib/types';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

// A small Go stand-in: the theme's roles with ui.accent following the palette entry "tide".
function fakeGo() {
  const colours: Record<string, string> = { 'palette.tide': '#7fb4ff', 'palette.kelp': '#8fd694', 'ui.background': '#161a24', 'ui.text': '#d8dee9', 'ui.mutedText': '#4a5263', 'ui.accent': '#7fb4ff', 'syntax.keyword': '#c792ea', 'diff.added': '#8fd694' };
  const follows: Record<string, string> = { 'ui.accent': 'tide' };
  const meta: Record<string, [string, string]> = {
    'palette.tide': ['palette', 'tide'], 'palette.kelp': ['palette', 'kelp'], 'ui.background': ['ui', 'Background'], 'ui.text': ['ui', 'Text'], 'ui.mutedText': ['ui', 'Muted text'],
    'ui.accent': ['ui', 'Accent'], 'syntax.keyword': ['syntax', 'Keywords'], 'diff.added': ['diff', 'Added'],
  };
  const roles = (): EditorRole[] =>
    Object.keys(meta).map((path) => ({
      path, group: meta[path][0], label: meta[path][1], section: '', help: '', color: colours[path], locked: false, derived: false,
      follows: follows[path], users: path.startsWith('palette.') ? Object.keys(follows).filter((r) => follows[r] === path.slice(8)) : undefined,
    }) as EditorRole);
  const state = () => ({ roles: roles(), changed: [], canUndo: false, canRedo: false, undoLabel: '', redoLabel: '' });
  const checks = () => [
    { fg: colours['ui.mutedText'], bg: colours['ui.background'], fgRole: 'ui.mutedText', bgRole: 'ui.background', ratio: 2.1, aa: false, aaa: false, aaLarge: false, apca: -20 },
    { fg: colours['ui.accent'], bg: colours['ui.background'], fgRole: 'ui.accent', bgRole: 'ui.background', ratio: colours['ui.accent'] === '#7fb4ff' ? 8.1 : 2.4, aa: colours['ui.accent'] === '#7fb4ff', aaa: false, aaLarge: true, apca: -60 },
  ];
  const themeState = (): ThemeState => ({ theme: { ...example, ui: { ...example.ui, accent: colours['ui.accent'], mutedText: colours['ui.mutedText'] } }, error: '', checks: checks(), roles: Object.entries(colours).filter(([p]) => !p.startsWith('palette.')).map(([path, color]) => ({ path, color })) }) as unknown as ThemeState;
  const trial = (path: string, hex: string) => ({ path, hex, oklch: { l: 0.7, c: 0.1, h: 250 }, pairs: [], theme: null, roles: null });
  let w: ReturnType<typeof installWails>;
  const changed = () => w.emit('theme', { workspaceId: 'ws1', ...themeState() });
  w = installWails({
    EditorState: () => state(),
    TryColor: (req: { path: string; hex: string }) => trial(req.path, req.hex || colours[req.path]),
    Theme: () => themeState(),
    VSCodeTheme: () => JSON.stringify({ type: 'dark', colors: { 'editor.background': '#161a24' }, tokenColors: [] }),
    EditColor: (req: { path: string; hex: string }) => {
      colours[req.path] = req.hex;
      // Go moves every role following an entry with it.
      if (req.path.startsWith('palette.')) for (const [r, e] of Object.entries(follows)) if (e === req.path.slice(8)) colours[r] = req.hex;
      else delete follows[req.path];
      queueMicrotask(changed);
      return state();
    },
    // A palette entry goes to Go by its own binding (the Editor's palette API).
    SetPaletteEntry: (req: { name: string; hex: string }) => {
      colours['palette.' + req.name] = req.hex;
      for (const [r, e] of Object.entries(follows)) if (e === req.name) colours[r] = req.hex;
      queueMicrotask(changed);
      return state();
    },
    AttachRole: (_ws: string, path: string, ref: string) => {
      follows[path] = ref;
      colours[path] = colours['palette.' + ref];
      queueMicrotask(changed);
      return state();
    },
  });
  return { w, colours };
}

async function mount() {
  const go = fakeGo();
  const build = new BuildThemes().show('ws1')!;
  await flush();
  render(Design, { props: { build } });
  await flush();
  return { ...go, build };
}

const items = () => screen.queryAllByTestId('design-role-item').map((b) => b.dataset.role);

describe('Design', () => {
  it('keeps the palette in view and lists the roles by where they show, with search and only failing', async () => {
    await mount();
    expect(screen.getAllByTestId('palette-entry').map((e) => e.dataset.name)).toEqual(['tide', 'kelp']);
    expect(screen.getAllByTestId('design-group').map((g) => g.dataset.group)).toEqual(['syntax', 'chrome', 'git']);
    await fireEvent.input(screen.getByTestId('design-search'), { target: { value: 'tide' } });
    expect(items()).toEqual(['ui.accent']);
    await fireEvent.input(screen.getByTestId('design-search'), { target: { value: '' } });
    await fireEvent.click(screen.getByTestId('design-only-failing'));
    expect(items()).toEqual(['ui.background', 'ui.mutedText']);
  });

  it('picks the role under a click on the preview and says which palette entry it follows', async () => {
    const { w } = await mount();
    await fireEvent.click(screen.getByTestId('zed-keyword'));
    await flush();
    expect(w.bound.TryColor).toHaveBeenLastCalledWith(expect.objectContaining({ path: 'syntax.keyword' }));
    expect(screen.getByTestId('design-role').dataset.role).toBe('syntax.keyword');
    expect(screen.getByTestId('design-own')).toBeTruthy();
    // The accent in the status bar follows "tide": the strip marks that entry.
    const accent = inside(screen.getByTestId('design-zed')).getAllByText('main').find((e) => e.dataset.role === 'ui.accent')!;
    await fireEvent.click(accent);
    await flush();
    expect(screen.getByTestId('design-role').dataset.role).toBe('ui.accent');
    expect(screen.getByTestId('design-follows').textContent).toContain('tide');
    expect(screen.getAllByTestId('palette-entry').find((e) => e.dataset.name === 'tide')!.classList.contains('followed')).toBe(true);
  });

  it('marks the text failing contrast on the preview itself', async () => {
    await mount();
    const marks = document.querySelector('[data-testid="design-fail-marks"]')!;
    expect(marks.textContent).toContain('[data-role="ui.mutedText"]');
    expect(marks.textContent).not.toContain('[data-role="ui.accent"]');
    // The rule reaches painted parts of the preview.
    const rule = marks.textContent!.split('{')[0];
    expect(screen.getByTestId('design-preview').querySelectorAll(rule).length).toBeGreaterThan(0);
  });

  it('writes a palette edit through Go and the preview and the contrast table follow', async () => {
    const { w } = await mount();
    const preview = screen.getByTestId('design-preview');
    expect(preview.getAttribute('style')).toContain('--ui-accent: #7fb4ff');
    const tide = screen.getAllByTestId('palette-entry').find((e) => e.dataset.name === 'tide')!;
    await fireEvent.click(tide);
    await flush();
    const hex = screen.getByTestId('picker-hex');
    await fireEvent.focus(hex);
    await fireEvent.input(hex, { target: { value: '#3355ff' } });
    await fireEvent.keyDown(hex, { key: 'Enter' });
    await flush();
    expect(w.bound.SetPaletteEntry).toHaveBeenCalledWith({ workspaceId: 'ws1', name: 'tide', hex: '#3355ff' });
    expect(screen.getByTestId('design-preview').getAttribute('style')).toContain('--ui-accent: #3355ff');
    const row = document.querySelector('[data-testid="contrast-row"][data-fg-role="ui.accent"]')!;
    expect(row.textContent).toContain('2.40');
  });

  it('makes a role follow a palette swatch, and the eyedropper takes a colour from the preview', async () => {
    const { w } = await mount();
    await fireEvent.click(screen.getAllByTestId('design-role-item').find((b) => b.dataset.role === 'ui.mutedText')!);
    await flush();
    await fireEvent.click(screen.getAllByTestId('picker-palette').find((s) => s.dataset.name === 'kelp')!);
    await flush();
    expect(w.bound.AttachRole).toHaveBeenCalledWith('ws1', 'ui.mutedText', 'kelp');
    expect(screen.getByTestId('design-follows').textContent).toContain('kelp');
    await fireEvent.click(screen.getByTestId('picker-eyedropper'));
    await fireEvent.click(screen.getByTestId('zed-keyword'));
    await flush();
    expect(w.bound.EditColor).toHaveBeenLastCalledWith({ workspaceId: 'ws1', path: 'ui.mutedText', hex: '#c792ea' });
    // The eyedropper is used once; the next click picks a role again.
    expect(screen.getByTestId('picker-eyedropper').getAttribute('aria-pressed')).toBe('false');
  });

  it('keeps the preview mode between openings', async () => {
    await mount();
    await fireEvent.click(screen.getByTestId('design-mode-terminal'));
    expect(screen.getByTestId('design-terminal')).toBeTruthy();
    cleanup();
    await mount();
    expect(screen.getByTestId('design-preview').dataset.mode).toBe('terminal');
  });
});
