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

describe("the app's note in a replayed prompt", () => {
  it("shows the user's words as the message and the hand-edit note as the app's", () => {
    const chat = newChatState({ workspaceId: 'ws1', cwd: '/w' });
    beginTurn(chat, 't', 'Make it warmer\n<hand-edits>\nThese colours are LOCKED by the user.\n- ui.accent = #3355ff\n</hand-edits>');
    render(MessageList, { props: { chat } });
    const user = screen.getAllByTestId('message').find((m) => m.dataset.role === 'user')!;
    expect(user.querySelector('.bubble')!.textContent).toBe('Make it warmer');
    expect(screen.getByTestId('app-note').textContent).toContain('Note from the app');
    expect(screen.getByTestId('app-note').textContent).toContain('ui.accent = #3355ff');
  });
});
