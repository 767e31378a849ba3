import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import Variant from './Variant.svelte';
import { BuildTheme } from '../lib/stores/buildtheme.svelte';
import example from '../test/fixtures/example.theme.json';
import { flush, installWails } from '../test/wails';
import type { ThemeState } from '../lib/types';

const state = (over = {}) => ({ roles: [], changed: [], canUndo: false, canRedo: false, undoLabel: '', redoLabel: '', ...over });
const check = (ratio: number) => ({ fg: '#111111', bg: '#f4f4f4', fgRole: 'ui.text', bgRole: 'ui.background', ratio, aa: ratio >= 4.5, aaa: ratio >= 7, aaLarge: ratio >= 3, apca: 80 });
const light = { ...example, name: 'Harbour Night Light', appearance: 'light', ui: { ...example.ui, background: '#f1f5ff', text: '#1b2230' } };

// Go with one build of the dark theme, its companion as given; impl replaces bindings.
async function mount(companion: ThemeState | null, impl = {}, onpick?: (path: string) => void) {
  const go = { companion, editor: state() };
  const w = installWails({
    Theme: () => ({ theme: { ...example, companion: go.companion?.theme }, error: '', checks: [], roles: [], companion: go.companion ?? undefined }),
    EditorState: () => go.editor,
    ...impl,
  });
  const store = new BuildTheme('ws1');
  await store.sync();
  render(Variant, { props: { store, onpick } });
  await flush();
  return { w, store, go };
}

describe('Variant', () => {
  it('offers the other appearance and derives it in Go as an undoable edit', async () => {
    const { w, store, go } = await mount(null, {
      DeriveCompanion: () => {
        go.companion = { theme: light, error: '', checks: [check(12)], roles: [] } as ThemeState;
        go.editor = state({ canUndo: true, undoLabel: 'Add the light variant' });
        return go.editor;
      },
    });
    expect(screen.getByTestId('variant').dataset.has).toBe('false');
    expect(screen.getByTestId('variant-add').textContent).toContain('light');
    await fireEvent.click(screen.getByTestId('variant-add'));
    await flush();
    expect(w.bound.DeriveCompanion).toHaveBeenCalledWith('ws1');
    expect(store.state.undoLabel).toBe('Add the light variant');
    expect(screen.getByTestId('variant-name').textContent).toBe('Harbour Night Light');
  });

  it('shows the variant beside the theme, painted from its own colours, with its contrast, and removes it', async () => {
    const { w, go } = await mount({ theme: light, error: '', checks: [check(12), check(3.1)], roles: [] } as ThemeState, {
      RemoveCompanion: () => {
        go.companion = null;
        return go.editor;
      },
      DeriveCompanion: () => {
        throw new Error('the agent is writing this theme');
      },
    });
    expect(screen.getByTestId('variant-name').textContent).toBe('Harbour Night Light');
    const preview = screen.getByTestId('variant-preview');
    expect(preview.dataset.appearance).toBe('light');
    expect(preview.getAttribute('style')).toContain('#f1f5ff');
    expect(screen.getByTestId('variant-contrast').dataset.failing).toBe('1');
    expect(screen.getByTestId('variant-contrast').textContent).toContain('1 of 2');
    await fireEvent.click(screen.getByTestId('variant-derive'));
    await flush();
    expect(screen.getByTestId('variant-error').textContent).toContain('the agent is writing');
    await fireEvent.click(screen.getByTestId('variant-remove'));
    await flush();
    expect(w.bound.RemoveCompanion).toHaveBeenCalledWith('ws1');
    expect(screen.getByTestId('variant').dataset.has).toBe('false');
  });

  it('a click on the variant’s preview picks the companion’s role, by the path Go takes', async () => {
    const onpick = vi.fn();
    await mount({ theme: light, error: '', checks: [check(12)], roles: [] } as ThemeState, {}, onpick);
    await fireEvent.click(screen.getByTestId('variant-preview').querySelector('[data-testid="preview-accent-button"]')!);
    expect(onpick).toHaveBeenCalledWith('companion.ui.accent');
    await fireEvent.click(screen.getByTestId('variant-preview').querySelector('[data-testid="preview-muted"]')!);
    expect(onpick).toHaveBeenLastCalledWith('companion.ui.mutedText');
  });

  it('without onpick the variant’s preview is not clickable', async () => {
    await mount({ theme: light, error: '', checks: [], roles: [] } as ThemeState);
    expect(screen.getByTestId('variant-preview').querySelector('[data-role]')).toBeNull();
  });

  it('a trial of a companion colour paints the variant before it is written', async () => {
    const roles = [{ path: 'companion.ui.background', label: 'Background', group: 'ui', color: '#f1f5ff', locked: false, companion: true }];
    const tried = { ...light, ui: { ...light.ui, background: '#ffffff' } };
    const stored = { theme: light, error: '', checks: [check(12)], roles: [] } as ThemeState;
    const { w, store } = await mount(stored, {
      EditorState: () => state({ roles }),
      TryColor: (req: { path: string; hex: string }) => ({ path: req.path, hex: '#ffffff', oklch: { l: 1, c: 0, h: 0 }, pairs: [], theme: { ...example, companion: tried }, roles: [], companionRoles: [{ path: 'ui.background', color: '#ffffff', set: true, custom: false }] }),
    });
    expect(screen.getByTestId('variant-preview').getAttribute('style')).toContain('#f1f5ff');
    await store.select('companion.ui.background');
    await flush();
    expect(w.bound.TryColor).toHaveBeenCalledWith({ workspaceId: 'ws1', path: 'companion.ui.background', hex: '#f1f5ff', oklch: undefined });
    expect(store.shown).toBe('companion');
    expect(screen.getByTestId('variant-preview').getAttribute('style')).toContain('#ffffff');
    expect(store.preview.companion?.roles).toEqual([{ path: 'ui.background', color: '#ffffff', set: true, custom: false }]);
    expect(store.preview.companion?.checks).toEqual(stored.checks);
    store.deselect();
    await flush();
    expect(screen.getByTestId('variant-preview').getAttribute('style')).toContain('#f1f5ff');
  });
});
