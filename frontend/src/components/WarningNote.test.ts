import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import MessageList from './MessageList.svelte';
import { applyEvent, beginTurn, newChatState } from '../lib/chatReducer';
import { flush, installWails } from '../test/wails';

describe('a warning with its one-click undo', () => {
  it('offers to drop the variant the app kept after the agent left it out', async () => {
    const w = installWails({ RemoveCompanion: () => ({}) });
    const chat = newChatState({ workspaceId: 'ws1', cwd: '/w' });
    beginTurn(chat, 't', 'refine');
    applyEvent(chat, 't', { type: 'warning', text: "Kept the light variant the agent's rewrite left out.", action: 'drop-companion' });
    applyEvent(chat, 't', { type: 'warning', text: 'MCP server failed' });
    render(MessageList, { props: { chat } });
    const notes = screen.getAllByTestId('message').filter((m) => m.dataset.role === 'warning');
    expect(notes).toHaveLength(2);
    expect(notes[0].textContent).toContain('Kept the light variant');
    // Only the warning that carries the action offers it.
    expect(screen.getAllByTestId('warning-action')).toHaveLength(1);
    await fireEvent.click(screen.getByTestId('warning-action'));
    await flush();
    expect(w.bound.RemoveCompanion).toHaveBeenCalledWith('ws1');
    expect(screen.getByTestId('warning-done').textContent).toContain('Dropped');
    expect(screen.queryByTestId('warning-action')).toBeNull();
  });
});
