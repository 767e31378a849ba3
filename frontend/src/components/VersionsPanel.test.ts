import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import VersionsPanel from './VersionsPanel.svelte';
import example from '../test/fixtures/example.theme.json';
import { flush, installWails } from '../test/wails';

// The accent names the palette entry tide (theme version 3): its colour is Go's resolved one.
const state = (accent: string) => ({ theme: { ...example, ui: { ...example.ui, accent: 'tide' } }, error: '', checks: [], roles: [{ path: 'ui.accent', color: accent }] });

describe('VersionsPanel', () => {
  it('saves a named version and compares it, a turn or another build, in the Compare dialog', async () => {
    const saved: { id: string; name: string; created: string }[] = [];
    const w = installWails({
      Versions: () => [...saved].reverse(),
      SaveVersion: (_ws: string, name: string) => {
        const v = { id: `2026120${saved.length}-000000000`, name: name.trim(), created: '2026-12-07T13:00:00Z' };
        saved.push(v);
        return v;
      },
      Checkpoints: () => [{ id: 'cp1', kind: 'turn', label: 'make it warmer', created: '2026-12-07T12:00:00Z', files: 1 }],
      Workspaces: () => [{ id: 'ws1', title: 'Dusk' }, { id: 'ws2', title: 'Harbour' }],
      CompareThemes: () => ({ before: state('#7fb4ff'), after: state('#ff8800'), changed: ['ui.accent', 'palette.tide'] }),
    });
    render(VersionsPanel, { props: { workspaceId: 'ws1' } });
    await flush();
    await fireEvent.input(screen.getByTestId('version-name'), { target: { value: '  Calm blue ' } });
    await fireEvent.click(screen.getByTestId('version-save'));
    await flush();
    expect(w.bound.SaveVersion).toHaveBeenCalledWith('ws1', '  Calm blue ');
    expect(screen.getByTestId('version-note').textContent).toContain('Calm blue');
    // Every kind of side is offered: now, the version, before the turn, the other build.
    const a = screen.getByTestId('compare-side-a') as HTMLSelectElement;
    expect([...a.options].map((o) => o.textContent)).toEqual(['This build now', 'Calm blue', 'Before: make it warmer', 'Harbour']);
    expect(a.value).toBe('v:20261200-000000000');
    await fireEvent.click(screen.getByTestId('compare-sides'));
    await flush();
    expect(w.bound.CompareThemes).toHaveBeenLastCalledWith({ workspaceId: 'ws1', versionId: '20261200-000000000', checkpointId: '' }, { workspaceId: 'ws1', versionId: '', checkpointId: '' });
    // The role table shows each side's colour, Go's resolved one for a role naming the palette.
    const row = screen.getAllByTestId('compare-role').find((r) => r.dataset.role === 'ui.accent')!;
    expect(row.textContent).toContain('#7fb4ff');
    expect(row.textContent).toContain('#ff8800');
    expect(screen.getByTestId('compare-preview-before')).toBeTruthy();
    expect(screen.getByTestId('compare-preview-after')).toBeTruthy();
    await fireEvent.keyDown(screen.getByTestId('compare-dialog'), { key: 'Escape' });
    expect(screen.queryByTestId('compare-dialog')).toBeNull();
    await fireEvent.change(a, { target: { value: 'b:ws2' } });
    await fireEvent.change(screen.getByTestId('compare-side-b'), { target: { value: 'c:cp1' } });
    await fireEvent.click(screen.getByTestId('compare-sides'));
    await flush();
    expect(w.bound.CompareThemes).toHaveBeenLastCalledWith({ workspaceId: 'ws2', versionId: '', checkpointId: '' }, { workspaceId: 'ws1', versionId: '', checkpointId: 'cp1' });
  });
});
