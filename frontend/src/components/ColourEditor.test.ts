import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import ColourEditor from './ColourEditor.svelte';
import { BuildThemes } from '../lib/stores/buildtheme.svelte';
import example from '../test/fixtures/example.theme.json';
import type { EditorState } from '../lib/types';
import { setLanguage } from '../lib/i18n.svelte';
import { flush, installWails } from '../test/wails';

const roles = [
  { path: 'palette.ink', label: 'ink', group: 'palette', color: '#161a24', locked: false, users: ['ui.background'] },
  { path: 'ui.background', label: 'Background', group: 'ui', color: '#161a24', locked: false, follows: 'ink' },
  { path: 'ui.mutedText', label: 'Muted text', group: 'ui', color: '#303848', locked: false },
];
const state = (over = {}) => ({ roles, changed: [], canUndo: false, canRedo: false, undoLabel: '', redoLabel: '', ...over }) as unknown as EditorState;
const pair = (fg: string, ratio: number) => ({ fg, bg: '#161a24', fgRole: 'ui.mutedText', bgRole: 'ui.background', ratio, aa: ratio >= 4.5, aaa: ratio >= 7, aaLarge: ratio >= 3, apca: -20 });
const trial = (hex: string, ratio: number, l = 0.3) => ({ path: 'ui.mutedText', hex, oklch: { l, c: 0.02, h: 260 }, pairs: [pair(hex, ratio)], theme: { name: 'x' } });

// Go: the editor state the last edit left (every binding answers with it),
// and the theme it belongs to (with a companion when Go lists its roles).
function fakeGo(first: EditorState, impl: Record<string, (...args: any[]) => unknown>) {
  const go = { editor: first };
  const keep = (f: (...args: any[]) => unknown) => (...args: any[]) => {
    const out = f(...args);
    if (out && typeof out === 'object' && 'canUndo' in out) go.editor = out as EditorState;
    return out;
  };
  const light = { ...example, name: 'Light', appearance: 'light' };
  const companion = () => go.editor.roles.some((r) => r.companion);
  const w = installWails({
    ...Object.fromEntries(Object.entries(impl).map(([k, f]) => [k, keep(f)])),
    EditorState: () => go.editor,
    Theme: () => ({ theme: { ...example, companion: companion() ? light : undefined }, error: '', checks: [], roles: [], companion: companion() ? { theme: light, error: '', checks: [], roles: [] } : undefined }),
  });
  return { w, go };
}

async function show() {
  const store = new BuildThemes().show('ws1')!;
  await flush();
  render(ColourEditor, { props: { store } });
  await flush();
  return store;
}

async function open() {
  const { w, go } = fakeGo(state(), {
    TryColor: (req: { hex: string; oklch?: { l: number } }) => (req.hex ? trial(req.hex, 1.6) : trial('#5a6478', 3.2, req.oklch!.l)),
    MakePass: () => trial('#8a93a8', 4.61, 0.66),
    EditColor: (req: { hex: string }) => state({ canUndo: true, undoLabel: `Set ui.mutedText to ${req.hex}`, changed: ['ui.mutedText'] }),
    SetLock: (_ws: string, path: string, locked: boolean) => state({ roles: roles.map((r) => (r.path === path ? { ...r, locked } : r)) }),
    UndoEdit: () => state({ canRedo: true }),
    DetachRole: () => state(),
    AttachRole: () => state(),
    SetPaletteEntry: () => state({ canUndo: true }),
    SetPaletteRamp: () => state(),
  });
  return { w, go, store: await show() };
}

describe('ColourEditor', () => {
  it('lists the roles Go sends, grouped, and opens the picker with the live contrast of the role', async () => {
    const { w } = await open();
    expect(screen.getAllByTestId('role-item').map((b) => b.dataset.role)).toEqual(['ui.background', 'ui.mutedText']);
    expect(screen.getAllByTestId('palette-swatch').map((b) => b.dataset.role)).toEqual(['palette.ink']);
    await fireEvent.click(screen.getAllByTestId('role-item')[1]);
    await flush();
    expect(w.bound.TryColor).toHaveBeenCalledWith({ workspaceId: 'ws1', path: 'ui.mutedText', hex: '#303848', oklch: undefined });
    expect(screen.getByTestId('role-editor').dataset.role).toBe('ui.mutedText');
    const p = screen.getByTestId('editor-pair');
    expect(p.textContent).toContain('1.60:1');
    expect(p.classList.contains('fail')).toBe(true);
    // A palette entry names the roles it changes.
    await fireEvent.click(screen.getAllByTestId('palette-swatch')[0]);
    await flush();
    expect(screen.getByTestId('editor-users').textContent).toContain('ui.background');
  });

  it('a palette swatch edits the entry; a role says what it follows, detaches and attaches again', async () => {
    const { w } = await open();
    await fireEvent.click(screen.getAllByTestId('palette-swatch')[0]);
    await flush();
    expect(screen.getByTestId('role-editor').dataset.role).toBe('palette.ink');
    const hex = screen.getByTestId('editor-hex') as HTMLInputElement;
    await fireEvent.input(hex, { target: { value: '#202838' } });
    await fireEvent.keyDown(hex, { key: 'Enter' });
    await flush();
    expect(w.bound.SetPaletteEntry).toHaveBeenCalledWith({ workspaceId: 'ws1', name: 'ink', hex: '#202838' });
    // The entry can become a ramp.
    await fireEvent.click(screen.getByTestId('editor-ramp'));
    await flush();
    expect(w.bound.SetPaletteRamp).toHaveBeenCalledWith({ workspaceId: 'ws1', name: 'ink', ramp: {} });
    // The background follows ink: it says so and can be given its own colour.
    await fireEvent.click(screen.getAllByTestId('role-item')[0]);
    await flush();
    expect(screen.getByTestId('editor-follows').dataset.ref).toBe('ink');
    await fireEvent.click(screen.getByTestId('editor-detach'));
    await flush();
    expect(w.bound.DetachRole).toHaveBeenCalledWith('ws1', 'ui.background');
    // Muted text has its own colour: it can be made to follow an entry.
    await fireEvent.click(screen.getAllByTestId('role-item')[1]);
    await flush();
    expect(screen.queryByTestId('editor-follows')).toBeNull();
    const sel = screen.getByTestId('editor-attach') as HTMLSelectElement;
    await fireEvent.change(sel, { target: { value: 'ink' } });
    await flush();
    expect(w.bound.AttachRole).toHaveBeenCalledWith('ws1', 'ui.mutedText', 'ink');
  });

  it('a slider tries the colour in OKLCH and letting go writes it; the ratio follows', async () => {
    const { w, store } = await open();
    await fireEvent.click(screen.getAllByTestId('role-item')[1]);
    await flush();
    const l = screen.getByTestId('editor-l') as HTMLInputElement;
    l.value = '0.55';
    await fireEvent.input(l);
    await flush();
    expect(w.bound.TryColor).toHaveBeenLastCalledWith({ workspaceId: 'ws1', path: 'ui.mutedText', hex: '', oklch: { l: 0.55, c: 0.02, h: 260 } });
    expect(screen.getByTestId('editor-pair').textContent).toContain('3.20:1');
    expect(store.preview.theme).toEqual({ name: 'x' });
    expect(w.bound.EditColor).not.toHaveBeenCalled();
    await fireEvent.change(l);
    await flush();
    expect(w.bound.EditColor).toHaveBeenCalledWith({ workspaceId: 'ws1', path: 'ui.mutedText', hex: '#5a6478' });
    expect((screen.getByTestId('editor-undo') as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getAllByTestId('role-item')[1].dataset.changed).toBe('true');
  });

  it('make it pass writes the colour Go found for the chosen target', async () => {
    const { w } = await open();
    await fireEvent.click(screen.getAllByTestId('role-item')[1]);
    await flush();
    await fireEvent.click(screen.getByTestId('editor-make-pass'));
    await flush();
    expect(w.bound.MakePass).toHaveBeenCalledWith('ws1', 'ui.mutedText', 4.5);
    expect(w.bound.EditColor).toHaveBeenCalledWith({ workspaceId: 'ws1', path: 'ui.mutedText', hex: '#8a93a8' });
  });

  it('the hex field refuses a non-colour and writes a colour; the lock goes to Go', async () => {
    const { w } = await open();
    await fireEvent.click(screen.getAllByTestId('role-item')[1]);
    await flush();
    const hex = screen.getByTestId('editor-hex') as HTMLInputElement;
    await fireEvent.input(hex, { target: { value: 'teal' } });
    await fireEvent.keyDown(hex, { key: 'Enter' });
    await flush();
    expect(screen.getByTestId('editor-error').textContent).toContain('teal');
    expect(w.bound.EditColor).not.toHaveBeenCalled();
    await fireEvent.input(hex, { target: { value: '#A0B0C0' } });
    await fireEvent.keyDown(hex, { key: 'Enter' });
    await flush();
    expect(w.bound.EditColor).toHaveBeenCalledWith({ workspaceId: 'ws1', path: 'ui.mutedText', hex: '#a0b0c0' });
    await fireEvent.click(screen.getByTestId('editor-lock'));
    await flush();
    expect(w.bound.SetLock).toHaveBeenCalledWith('ws1', 'ui.mutedText', true);
    expect(screen.getAllByTestId('role-item')[1].dataset.locked).toBe('true');
  });

  it('Undo and Ctrl+Z undo the last hand edit', async () => {
    const { w } = await open();
    expect((screen.getByTestId('editor-undo') as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.click(screen.getAllByTestId('role-item')[1]);
    await flush();
    await fireEvent.input(screen.getByTestId('editor-hex'), { target: { value: '#a0b0c0' } });
    await fireEvent.keyDown(screen.getByTestId('editor-hex'), { key: 'Enter' });
    await flush();
    expect(screen.getByTestId('editor-undo').getAttribute('title')).toContain('Set ui.mutedText to #a0b0c0');
    await fireEvent.keyDown(screen.getByTestId('editor-l'), { key: 'z', ctrlKey: true });
    await flush();
    expect(w.bound.UndoEdit).toHaveBeenCalledWith('ws1');
    expect((screen.getByTestId('editor-redo') as HTMLButtonElement).disabled).toBe(false);
  });
});

// A theme with a companion: Go lists the companion's roles too, marked and
// under "companion." paths.
const familyRoles = [
  ...roles,
  { path: 'companion.ui.background', label: 'Background', group: 'ui', color: '#f4f1ea', locked: false, companion: true },
  { path: 'companion.ui.mutedText', label: 'Muted text', group: 'ui', color: '#c8c4bc', locked: false, companion: true },
];
const companionPair = (fg: string, ratio: number) => ({ fg, bg: '#f4f1ea', fgRole: 'companion.ui.mutedText', bgRole: 'companion.ui.background', ratio, aa: ratio >= 4.5, aaa: ratio >= 7, aaLarge: ratio >= 3, apca: 20 });

async function openFamily() {
  const { w, go } = fakeGo(state({ roles: familyRoles }), {
    TryColor: (req: { path: string; hex: string }) =>
      req.path.startsWith('companion.')
        ? { path: req.path, hex: req.hex, oklch: { l: 0.8, c: 0.01, h: 80 }, pairs: [companionPair(req.hex, 1.5)], theme: { name: 'x' } }
        : trial(req.hex, 1.6),
    MakePass: (_ws: string, path: string) => ({ path, hex: '#6b675f', oklch: { l: 0.5, c: 0.01, h: 80 }, pairs: [companionPair('#6b675f', 4.6)], theme: { name: 'x' } }),
    EditColor: (req: { path: string; hex: string }) => state({ roles: familyRoles, changed: [req.path], canUndo: true }),
  });
  return { w, go, store: await show() };
}

const listed = () => [...screen.queryAllByTestId('palette-swatch'), ...screen.getAllByTestId('role-item')].map((b) => b.dataset.role);

describe('ColourEditor with a variant', () => {
  afterEach(() => setLanguage('en'));

  it('has no tabs when the theme has no companion', async () => {
    await open();
    expect(screen.queryByTestId('editor-tabs')).toBeNull();
  });

  it('shows two tabs, this theme first; the Variant tab lists the companion’s roles', async () => {
    const { store } = await openFamily();
    const tabs = screen.getAllByTestId('editor-tab');
    expect(tabs.map((b) => b.textContent?.trim())).toEqual(['This theme', 'Variant']);
    expect(tabs[0].getAttribute('aria-selected')).toBe('true');
    expect(listed()).toEqual(['palette.ink', 'ui.background', 'ui.mutedText']);
    await fireEvent.click(tabs[1]);
    await flush();
    expect(store.shown).toBe('companion');
    expect(screen.getAllByTestId('editor-tab')[1].getAttribute('aria-selected')).toBe('true');
    expect(listed()).toEqual(['companion.ui.background', 'companion.ui.mutedText']);
    expect(screen.getByTestId('role-list').dataset.doc).toBe('companion');
  });

  it('the tabs are in German too', async () => {
    setLanguage('de');
    await openFamily();
    expect(screen.getAllByTestId('editor-tab').map((b) => b.textContent?.trim())).toEqual(['Dieses Theme', 'Variante']);
  });

  it('an edit on the Variant tab goes to Go with a companion. path, its pairs measured live', async () => {
    const { w, store } = await openFamily();
    await fireEvent.click(screen.getAllByTestId('editor-tab')[1]);
    await flush();
    await fireEvent.click(screen.getAllByTestId('role-item')[1]);
    await flush();
    expect(w.bound.TryColor).toHaveBeenLastCalledWith({ workspaceId: 'ws1', path: 'companion.ui.mutedText', hex: '#c8c4bc', oklch: undefined });
    expect(screen.getByTestId('role-editor').dataset.role).toBe('companion.ui.mutedText');
    const p = screen.getByTestId('editor-pair');
    expect(p.textContent).toContain('1.50:1');
    // The pair names its other role as the variant does.
    expect(p.querySelector('.pn')?.textContent).toBe('ui.background');
    const hex = screen.getByTestId('editor-hex') as HTMLInputElement;
    await fireEvent.input(hex, { target: { value: '#8a867e' } });
    await fireEvent.keyDown(hex, { key: 'Enter' });
    await flush();
    expect(w.bound.EditColor).toHaveBeenCalledWith({ workspaceId: 'ws1', path: 'companion.ui.mutedText', hex: '#8a867e' });
    expect(screen.getAllByTestId('role-item')[1].dataset.changed).toBe('true');
    await fireEvent.click(screen.getByTestId('editor-make-pass'));
    await flush();
    expect(w.bound.MakePass).toHaveBeenCalledWith('ws1', 'companion.ui.mutedText', 4.5);
    expect(w.bound.EditColor).toHaveBeenLastCalledWith({ workspaceId: 'ws1', path: 'companion.ui.mutedText', hex: '#6b675f' });
    // Back on this theme the variant's picker closes; the theme's roles are listed.
    await fireEvent.click(screen.getAllByTestId('editor-tab')[0]);
    await flush();
    expect(screen.queryByTestId('role-editor')).toBeNull();
    expect(store.selected).toBe('');
    expect(listed()).toEqual(['palette.ink', 'ui.background', 'ui.mutedText']);
  });

  it('picking a companion role from elsewhere shows the Variant tab', async () => {
    const { store } = await openFamily();
    await store.select('companion.ui.background');
    await flush();
    expect(store.shown).toBe('companion');
    expect(screen.getAllByTestId('editor-tab')[1].getAttribute('aria-selected')).toBe('true');
    expect(screen.getByTestId('role-editor').dataset.role).toBe('companion.ui.background');
    await store.select('ui.background');
    await flush();
    expect(screen.getAllByTestId('editor-tab')[0].getAttribute('aria-selected')).toBe('true');
  });

  it('when the variant goes (removed, undone) its picker closes and the tabs go', async () => {
    const { w, go, store } = await openFamily();
    await store.select('companion.ui.mutedText');
    await flush();
    expect(screen.getByTestId('role-editor').dataset.role).toBe('companion.ui.mutedText');
    go.editor = state();
    w.emit('editor', { workspaceId: 'ws1' });
    await flush();
    expect(screen.queryByTestId('role-editor')).toBeNull();
    expect(store.trial).toBeNull();
    expect(screen.queryByTestId('editor-tabs')).toBeNull();
    expect(listed()).toEqual(['palette.ink', 'ui.background', 'ui.mutedText']);
  });
  it('says when Go put back a locked colour someone rewrote, and re-reads the roles', async () => {
    const { w } = await open();
    const asked = w.bound.EditorState.mock.calls.length;
    w.emit('editor', { workspaceId: 'other', notice: 'not this build' });
    await flush();
    expect(screen.queryByTestId('editor-notice')).toBeNull();
    w.emit('editor', { workspaceId: 'ws1', notice: 'Locked colours were changed in theme.json; they were restored: ui.background (#ff0000 was written, #161a24 kept)' });
    await flush();
    expect(screen.getByTestId('editor-notice').textContent).toContain('ui.background (#ff0000 was written, #161a24 kept)');
    expect(w.bound.EditorState.mock.calls.length).toBeGreaterThan(asked);
    await fireEvent.click(screen.getByTestId('editor-notice-dismiss'));
    expect(screen.queryByTestId('editor-notice')).toBeNull();
  });
});

