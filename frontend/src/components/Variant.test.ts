import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import Variant from './Variant.svelte';
import { EditorStore } from '../lib/stores/editor.svelte';
import example from '../test/fixtures/example.theme.json';
import { flush, installWails } from '../test/wails';
import type { ThemeState } from '../lib/types';

const state = (over = {}) => ({ roles: [], changed: [], canUndo: false, canRedo: false, undoLabel: '', redoLabel: '', ...over });
const check = (ratio: number) => ({ fg: '#111111', bg: '#f4f4f4', fgRole: 'ui.text', bgRole: 'ui.background', ratio, aa: ratio >= 4.5, aaa: ratio >= 7, aaLarge: ratio >= 3, apca: 80 });
const light = { ...example, name: 'Harbour Night Light', appearance: 'light', ui: { ...example.ui, background: '#f1f5ff', text: '#1b2230' } };

async function mount(companion: ThemeState | null, impl = {}) {
  const w = installWails({ EditorState: () => state(), ...impl });
  const store = new EditorStore();
  await store.open('ws1');
  render(Variant, { props: { appearance: 'dark', companion, store } });
  await flush();
  return { w, store };
}

describe('Variant', () => {
  it('offers the other appearance and derives it in Go as an undoable edit', async () => {
    const { w, store } = await mount(null, { DeriveCompanion: () => state({ canUndo: true, undoLabel: 'Add the light variant' }) });
    expect(screen.getByTestId('variant').dataset.has).toBe('false');
    expect(screen.getByTestId('variant-add').textContent).toContain('light');
    await fireEvent.click(screen.getByTestId('variant-add'));
    await flush();
    expect(w.bound.DeriveCompanion).toHaveBeenCalledWith('ws1');
    expect(store.state.undoLabel).toBe('Add the light variant');
  });

  it('shows the variant beside the theme, painted from its own colours, with its contrast, and removes it', async () => {
    const { w } = await mount({ theme: light, error: '', checks: [check(12), check(3.1)], roles: [] } as ThemeState, { RemoveCompanion: () => state(), DeriveCompanion: () => { throw new Error('the agent is writing this theme'); } });
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
  });
});
