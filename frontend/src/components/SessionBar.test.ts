import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import SessionBar from './SessionBar.svelte';
import { flush } from '../test/wails';
import type { ConfigOption } from '../lib/chatReducer';

// As codex-acp 2.6.0 reports them.
const codex = (): ConfigOption[] => [
  { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'agent', options: [{ value: 'read-only', name: 'Read-only' }, { value: 'agent', name: 'Auto review' }, { value: 'agent-full-access', name: 'Full access' }] },
  { id: 'collaboration_mode', name: 'Collaboration mode', category: 'collaboration_mode', type: 'select', currentValue: 'default', options: [{ value: 'default', name: 'Default' }, { value: 'plan', name: 'Plan' }] },
  { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'gpt-5.5', options: [{ value: 'gpt-5.5', name: 'GPT-5.5' }, { value: 'gpt-6.1-sol', name: '6.1 Sol' }] },
  { id: 'reasoning_effort', name: 'Reasoning effort', category: 'thought_level', type: 'select', currentValue: 'xhigh', options: [{ value: 'medium', name: 'medium' }, { value: 'xhigh', name: 'xhigh' }, { value: 'max', name: 'max' }, { value: 'ultra', name: 'ultra' }] },
  { id: 'fast-mode', name: 'Fast mode', category: 'model_config', type: 'select', currentValue: 'off', options: [{ value: 'off', name: 'Off' }, { value: 'on', name: 'On' }] },
];

const sel = (id: string) => screen.getByTestId('session-bar').querySelector<HTMLSelectElement>(`[data-config-id="${id}"] select`)!;

describe('SessionBar', () => {
  it('names Codex\'s options plainly, in order, with one map of efforts', () => {
    render(SessionBar, { props: { agentName: 'Codex', options: codex(), onchange: () => {} } });
    const labels = [...screen.getAllByTestId('bar-option')].map((o) => o.querySelector('.lbl')?.textContent);
    expect(labels).toEqual(['Mode', 'Model', 'Reasoning', 'Fast mode', 'Collaboration']);
    expect([...sel('reasoning_effort').options].map((o) => o.textContent)).toEqual(['Medium', 'Extra high', 'Max', 'Ultra']);
    expect(sel('collaboration_mode').selectedOptions[0].textContent).toBe('Get to work');
    expect(screen.getByTestId('bar-agent').textContent).toContain('Codex');
  });

  it('a change shows only once the state holds it: one the agent refused snaps back', async () => {
    const onchange = vi.fn();
    const { rerender } = render(SessionBar, { props: { agentName: 'Codex', options: codex(), onchange } });
    await fireEvent.change(sel('model'), { target: { value: 'gpt-6.1-sol' } });
    await flush();
    expect(onchange).toHaveBeenCalledWith('model', 'gpt-6.1-sol');
    expect(sel('model').value).toBe('gpt-5.5');
    await rerender({ refusal: { configId: 'model', name: 'Model', value: 'gpt-6.1-sol', current: 'gpt-5.5', reason: 'Invalid params' } });
    expect(screen.getByTestId('bar-refused').textContent).toContain('did not accept Model “6.1 Sol” and still runs “GPT-5.5”');
    expect(screen.getByTestId('bar-refused').textContent).toContain('Invalid params');
    const taken = codex();
    taken[2].currentValue = 'gpt-6.1-sol';
    await rerender({ options: taken, refusal: null });
    expect(sel('model').value).toBe('gpt-6.1-sol');
  });

  it('marks values waiting for the next message and locks while the agent works', async () => {
    const { rerender } = render(SessionBar, { props: { options: codex(), pending: { mode: 'read-only' }, onchange: () => {} } });
    expect(sel('mode').value).toBe('read-only');
    expect(screen.getByTestId('bar-note').textContent).toContain('next message');
    await rerender({ pending: {}, disabled: true, busy: 'running' });
    expect(sel('mode').disabled).toBe(true);
    expect(screen.getByTestId('bar-note').textContent).toContain('while the agent works');
  });
});
