import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import AgentPicker from './AgentPicker.svelte';
import { flush, installWails } from '../test/wails';

const list = {
  default: 'claude',
  agents: [
    { id: 'codex', name: 'Codex', kind: 'codex' },
    { id: 'claude', name: 'Claude Code', kind: 'claude' },
  ],
  mcpServers: [],
};

describe('AgentPicker', () => {
  it('shows the agent for new builds and remembers a new choice', async () => {
    const w = installWails({ Agents: () => list, SetBuildAgent: () => undefined });
    render(AgentPicker);
    await flush();
    const sel = screen.getByTestId('agent-picker') as HTMLSelectElement;
    expect(sel.value).toBe('claude');
    await fireEvent.change(sel, { target: { value: 'codex' } });
    await flush();
    expect(w.bound.SetBuildAgent).toHaveBeenCalledWith('codex');
  });

  it('goes back to the previous choice when Go refuses', async () => {
    installWails({
      Agents: () => list,
      SetBuildAgent: () => {
        throw 'choose agent codex: write failed';
      },
    });
    render(AgentPicker);
    await flush();
    const sel = screen.getByTestId('agent-picker') as HTMLSelectElement;
    await fireEvent.change(sel, { target: { value: 'codex' } });
    await flush();
    expect(sel.value).toBe('claude');
    expect(screen.getByRole('alert').textContent).toContain('write failed');
  });

  it('is hidden with only one agent', async () => {
    installWails({ Agents: () => ({ ...list, agents: [list.agents[0]] }) });
    render(AgentPicker);
    await flush();
    expect(screen.queryByTestId('agent-picker')).toBeNull();
  });
});
