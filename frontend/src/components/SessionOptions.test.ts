import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import SessionOptions from './SessionOptions.svelte';
import type { ConfigOption } from '../lib/chatReducer';

const options: ConfigOption[] = [
  { id: 'fast-mode', name: 'Fast mode', description: 'Trade some quality for speed', category: 'model_config', type: 'boolean', currentValue: false },
  {
    id: 'palette_family', name: 'Palette family', category: '_theme', type: 'select', currentValue: 'midnight',
    options: [
      { group: 'dark', name: 'Dark', options: [{ value: 'midnight', name: 'Midnight' }, { value: 'ember', name: 'Ember' }] },
      { group: 'light', name: 'Light', options: [{ value: 'paper', name: 'Paper' }] },
    ],
  },
];

function option(id: string): HTMLElement {
  return screen.getAllByTestId('config-option').find((e) => e.dataset.configId === id)!;
}

describe('SessionOptions', () => {
  it('renders a boolean as a checkbox and reports the new value', async () => {
    const onchange = vi.fn();
    render(SessionOptions, { props: { options, onchange } });
    const box = option('fast-mode').querySelector('input[type="checkbox"]') as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(option('fast-mode').title).toBe('Trade some quality for speed');
    await fireEvent.click(box);
    expect(onchange).toHaveBeenCalledWith('fast-mode', true);
  });

  it('renders a grouped select with its groups and the current value', async () => {
    const onchange = vi.fn();
    render(SessionOptions, { props: { options, onchange } });
    const sel = option('palette_family').querySelector('select') as HTMLSelectElement;
    expect([...sel.querySelectorAll('optgroup')].map((g) => g.label)).toEqual(['Dark', 'Light']);
    expect(sel.value).toBe('midnight');
    await fireEvent.change(sel, { target: { value: 'paper' } });
    expect(onchange).toHaveBeenCalledWith('palette_family', 'paper');
    expect(screen.getByText('Agent settings')).toBeTruthy();
  });

  it('offers the modes of an agent without a mode option, and nothing while disabled', async () => {
    const onchange = vi.fn();
    render(SessionOptions, { props: { options: [], modes: { current: 'ask', available: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] }, disabled: true, onchange } });
    const sel = option('mode').querySelector('select') as HTMLSelectElement;
    expect(sel.value).toBe('ask');
    expect(sel.disabled).toBe(true);
  });

  it('shows nothing when the agent has no settings', () => {
    render(SessionOptions, { props: { options: [], onchange: () => {} } });
    expect(screen.queryByTestId('session-options')).toBeNull();
  });
});
