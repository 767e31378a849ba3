import { describe, expect, it } from 'vitest';
import { ThemeStore } from './theme.svelte';
import { flush, installWails } from '../../test/wails';
import example from '../../test/fixtures/example.theme.json';

const contrast = [
  { fg: '#d8dee9', bg: '#161a24', fgRole: 'ui.text', bgRole: 'ui.background', ratio: 13.1, aa: true, aaa: true, aaLarge: true },
  { fg: '#8b96aa', bg: '#1f2430', fgRole: 'syntax.comment', bgRole: 'ui.surface', ratio: 4.2, aa: false, aaa: false, aaLarge: true },
];

describe('theme store', () => {
  it('loads the workspace theme and keeps the last valid one while the file is broken', async () => {
    const w = installWails({ Theme: () => ({ theme: example, error: '', checks: contrast }) });
    const s = new ThemeStore();
    await s.open('ws1');
    expect(w.bound.Theme).toHaveBeenCalledWith('ws1');
    expect(s.theme?.name).toBe('Harbour Night');
    expect(s.failures.map((f) => f.fgRole)).toEqual(['syntax.comment']);

    w.emit('theme', { workspaceId: 'ws1', theme: null, error: 'ui.accent: "#12" is not a colour', checks: null });
    expect(s.error).toBe('ui.accent: "#12" is not a colour');
    expect(s.theme?.name).toBe('Harbour Night');
    expect(s.checks).toHaveLength(2);

    w.emit('theme', { workspaceId: 'other', theme: { ...example, name: 'Not mine' }, error: '', checks: [] });
    expect(s.theme?.name).toBe('Harbour Night');

    w.emit('theme', { workspaceId: 'ws1', theme: { ...example, name: 'Fixed' }, error: '', checks: [contrast[0]] });
    expect([s.theme?.name, s.error, s.failures.length]).toEqual(['Fixed', '', 0]);
    s.close();
    expect(w.listeners.get('theme')).toEqual([]);
  });

  it('ends on what Go reports now when events arrive out of order', async () => {
    let now = { theme: { ...example, name: 'Step 2' }, error: '', checks: contrast };
    const w = installWails({ Theme: () => now });
    const s = new ThemeStore();
    await s.open('ws1');
    // The second write's event overtook the first's.
    w.emit('theme', { workspaceId: 'ws1', theme: { ...example, name: 'Step 2' }, error: '', checks: contrast });
    w.emit('theme', { workspaceId: 'ws1', theme: { ...example, name: 'Step 1' }, error: '', checks: contrast });
    expect(s.theme?.name).toBe('Step 1');
    await flush();
    expect(s.theme?.name).toBe('Step 2');
    now = { ...now, theme: { ...example, name: 'Step 3' } };
    w.emit('theme', { workspaceId: 'ws1', theme: { ...example, name: 'Step 3' }, error: '', checks: contrast });
    await flush();
    expect(s.theme?.name).toBe('Step 3');
    s.close();
  });
});
