import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import TurnCheckpoint from './TurnCheckpoint.svelte';
import DialogHost from './DialogHost.svelte';
import MessageList from './MessageList.svelte';
import { applyEvent, beginTurn, newChatState } from '../lib/chatReducer';
import { dialogs } from '../lib/stores/dialogs.svelte';
import example from '../test/fixtures/example.theme.json';
import { checkpointStore } from '../lib/stores/checkpoints.svelte';
import { flush, installWails } from '../test/wails';

const cp = { id: '20261202T101010.000000000-abcdef', kind: 'turn', turnId: 't-1', label: 'make it warmer', created: '2026-12-02T10:10:10Z', files: 2, skipped: 0, size: 900 };
const undo = { ...cp, id: '20261202T101111.000000000-123456', kind: 'restore', turnId: '', restoredTo: cp.id };
const after = { ...example, ui: { ...example.ui, accent: '#ff7a59' }, ansi: example.ansi.map((c, i) => (i === 1 ? '#ee0000' : c)) };

afterEach(() => {
  checkpointStore.close();
  dialogs.closeAll();
});

describe('TurnCheckpoint', () => {
  it('restores the workspace to before the turn, and the restore can be undone', async () => {
    const w = installWails({ Checkpoints: () => [cp], RestoreCheckpoint: (_ws: string, id: string) => (id === cp.id ? undo : { ...undo, id: 'x' }) });
    checkpointStore.open('ws1');
    render(TurnCheckpoint, { props: { turnId: 't-1' } });
    await waitFor(() => screen.getByTestId('turn-checkpoint'));
    await fireEvent.click(screen.getByTestId('restore-checkpoint'));
    await flush();
    expect(w.bound.RestoreCheckpoint).toHaveBeenCalledWith('ws1', cp.id);
    expect(screen.getByTestId('restored')).toBeTruthy();
    await fireEvent.click(screen.getByTestId('undo-restore'));
    await flush();
    expect(w.bound.RestoreCheckpoint).toHaveBeenLastCalledWith('ws1', undo.id);
    expect(screen.queryByTestId('restored')).toBeNull();
  });

  it('is not offered for a turn without a checkpoint, and restore waits for a running turn', async () => {
    installWails({ Checkpoints: () => [cp] });
    checkpointStore.open('ws1');
    const { unmount } = render(TurnCheckpoint, { props: { turnId: 't-other' } });
    await flush();
    expect(screen.queryByTestId('turn-checkpoint')).toBeNull();
    unmount();
    render(TurnCheckpoint, { props: { turnId: 't-1', running: true } });
    await waitFor(() => screen.getByTestId('turn-checkpoint'));
    expect((screen.getByTestId('restore-checkpoint') as HTMLButtonElement).disabled).toBe(true);
  });

  it('reports a failed restore', async () => {
    installWails({ Checkpoints: () => [cp], RestoreCheckpoint: () => Promise.reject('restore: 1 files could not be restored') });
    checkpointStore.open('ws1');
    render(TurnCheckpoint, { props: { turnId: 't-1' } });
    await waitFor(() => screen.getByTestId('turn-checkpoint'));
    await fireEvent.click(screen.getByTestId('restore-checkpoint'));
    await flush();
    expect(screen.getByTestId('checkpoint-error').textContent).toContain('could not be restored');
  });

  it('compares the theme before and after the turn, listing the changed roles', async () => {
    const w = installWails({
      Checkpoints: () => [cp],
      VSCodeTheme: () => Promise.reject('not needed here'),
      CompareCheckpoint: () => ({
        before: { checkpointId: cp.id, label: cp.label, created: cp.created, theme: example, error: '', checks: [] },
        after: { checkpointId: '', label: '', created: cp.created, theme: after, error: '', checks: [] },
        changed: ['ui.accent', 'ansi.red'],
      }),
    });
    checkpointStore.open('ws1');
    render(DialogHost);
    render(TurnCheckpoint, { props: { turnId: 't-1' } });
    await waitFor(() => screen.getByTestId('turn-checkpoint'));
    await fireEvent.click(screen.getByTestId('compare-checkpoint'));
    await waitFor(() => screen.getByTestId('compare-roles'));
    expect(w.bound.CompareCheckpoint).toHaveBeenCalledWith('ws1', cp.id);
    expect(screen.getByTestId('compare-preview-before')).toBeTruthy();
    expect(screen.getByTestId('compare-preview-after')).toBeTruthy();
    const rows = screen.getAllByTestId('compare-role');
    expect(rows.map((r) => r.dataset.role)).toEqual(['ui.accent', 'ansi.red']);
    expect(rows[0].textContent).toContain(example.ui.accent);
    expect(rows[0].textContent).toContain('#ff7a59');
    expect(rows[1].textContent).toContain('#ee0000');
    // Both previews mark the changed ANSI colour.
    const marked = document.querySelectorAll('[data-testid="preview-ansi-1"][data-changed="true"]');
    expect(marked.length).toBe(2);
    expect(screen.getByTestId('compare-summary').textContent).toContain('2 roles changed');
    await fireEvent.click(screen.getByTestId('compare-close'));
    expect(screen.queryByTestId('compare-dialog')).toBeNull();
  });

  it("opens Compare from an older, settled turn at the app's root, never inside the chat's rows", async () => {
    // A settled row has content-visibility: auto, which makes it the
    // containing block of a position: fixed dialog: drawn inside it, the
    // dialog was clipped to the row's ~70 px strip.
    const cps = ['t-1', 't-2', 't-3', 't-4', 't-5'].map((turnId, i) => ({ ...cp, id: `${cp.id}${i}`, turnId, label: `turn ${i + 1}` }));
    const w = installWails({
      Checkpoints: () => cps,
      VSCodeTheme: () => Promise.reject('not needed here'),
      CompareCheckpoint: () => ({
        before: { checkpointId: cps[0].id, label: 'turn 1', created: cp.created, theme: example, error: '', checks: [] },
        after: { checkpointId: '', label: '', created: cp.created, theme: after, error: '', checks: [] },
        changed: ['ui.accent'],
      }),
    });
    checkpointStore.open('ws1');
    const chat = newChatState({ workspaceId: 'ws1', cwd: '/w' });
    for (const c of cps) {
      beginTurn(chat, c.turnId, c.label);
      applyEvent(chat, c.turnId, { type: 'text', text: 'done ' + c.label });
      applyEvent(chat, c.turnId, { type: 'done', sessionId: 's', stopReason: 'end_turn' });
    }
    render(DialogHost);
    render(MessageList, { props: { chat } });
    await waitFor(() => expect(screen.getAllByTestId('compare-checkpoint')).toHaveLength(5));
    const oldest = screen.getAllByTestId('compare-checkpoint')[0];
    expect(oldest.closest('.settled')).not.toBeNull(); // the case the designer hit
    await fireEvent.click(oldest);
    await waitFor(() => screen.getByTestId('compare-roles'));
    expect(w.bound.CompareCheckpoint).toHaveBeenCalledWith('ws1', cps[0].id);
    const dialog = screen.getByTestId('compare-dialog');
    expect(dialog.closest('[data-testid="message-list"]')).toBeNull();
    expect(dialog.closest('[data-testid="dialog-host"]')).not.toBeNull();
    await fireEvent.click(screen.getByTestId('compare-close'));
    expect(screen.queryByTestId('compare-dialog')).toBeNull();
  });
});
