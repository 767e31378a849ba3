// The build's theme beside the chat: the variant's preview and the
// editor's tabs show one theme at every moment, whatever order Go's answers
// and events arrive in.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import Chat from './Chat.svelte';
import { chat } from '../lib/stores/chat.svelte';
import { installWails } from '../test/wails';
import { Steps } from '../test/steps';
import example from '../test/fixtures/example.theme.json';
import type { EditorRole } from '../lib/types';

const light = { ...example, name: 'Harbour Day', appearance: 'light', ui: { ...example.ui, background: '#f1f5ff', text: '#1b2230' } };
const check = { fg: '#d8dee9', bg: '#161a24', fgRole: 'ui.text', bgRole: 'ui.background', ratio: 13.1, aa: true, aaa: true, aaLarge: true, apca: 80 };
const role = (path: string, color: string, companion = false): EditorRole =>
  ({ path: (companion ? 'companion.' : '') + path, label: path, group: 'ui', section: '', help: '', color, locked: false, derived: false, companion: companion || undefined }) as EditorRole;

// Go with one build whose last hand edit added the light variant.
function fakeGo(ws: string) {
  const steps = new Steps();
  const disk = { companion: true };
  const doc = () => (disk.companion ? { ...example, companion: light } : { ...example });
  const themeState = () => ({
    theme: doc(),
    error: '',
    checks: [check],
    roles: [],
    companion: disk.companion ? { theme: light, error: '', checks: [check], roles: [] } : undefined,
  });
  const editorState = () => ({
    roles: [role('ui.background', '#161a24'), role('ui.text', '#d8dee9'), ...(disk.companion ? [role('ui.background', '#f1f5ff', true), role('ui.text', '#1b2230', true)] : [])],
    changed: [],
    canUndo: disk.companion,
    canRedo: !disk.companion,
    undoLabel: disk.companion ? 'Add the light variant' : '',
    redoLabel: disk.companion ? '' : 'Add the light variant',
  });
  // A hand edit writes theme.json, which emits "theme" before the binding answers (Editor.handWrite).
  const write = (companion: boolean) => () => {
    disk.companion = companion;
    const st = themeState();
    steps.event('theme', () => w.emit('theme', { workspaceId: ws, ...st }));
    return editorState();
  };
  const w = installWails({
    Models: () => ({ current: '', source: 'cache', models: [] }),
    Workspaces: () => [],
    SessionBar: () => ({ agentId: 'codex', agentName: 'Codex', known: false, defaults: null, modes: null, options: [] }),
    CheckAgent: () => ({ ok: true, agentId: 'codex', agentName: 'Codex' }),
    Artifacts: () => [],
    Checkpoints: () => [],
    ExportFormats: () => [],
    TemplateFolders: () => [],
    ApplyTargets: () => [],
    UndoableApplies: () => [],
    Theme: steps.answer('Theme', () => themeState()),
    EditorState: steps.answer('EditorState', () => editorState()),
    TryColor: steps.answer('TryColor', (req: { path: string; hex: string }) => ({ path: req.path, hex: req.hex, oklch: { l: 0.5, c: 0.1, h: 250 }, pairs: [], theme: doc(), roles: [], companionRoles: disk.companion ? [] : undefined })),
    UndoEdit: steps.answer('UndoEdit', write(false)),
    RedoEdit: steps.answer('RedoEdit', write(true)),
  });
  return { w, steps };
}

// What the user sees of the variant, in the preview column and in the editor.
function seen() {
  return {
    variant: screen.getByTestId('variant').dataset.has === 'true',
    tabs: !!screen.queryByTestId('editor-tabs'),
    list: screen.getByTestId('role-list').dataset.doc,
    picker: screen.queryByTestId('role-editor')?.dataset.role ?? '',
  };
}

// Every way the two could disagree, named.
function disagreements(): string[] {
  const s = seen();
  const out: string[] = [];
  if (s.tabs !== s.variant) out.push(s.variant ? 'the preview shows the variant, the editor has no variant tab' : 'the editor has a variant tab, the preview has no variant');
  if (s.list === 'companion' && !s.variant) out.push('the editor lists the variant’s colours, the preview has none');
  if (s.picker.startsWith('companion.') && !s.variant) out.push('the picker edits a colour of a variant the preview dropped');
  return out;
}

let n = 0;

describe('Chat: the variant in the preview and in the editor', () => {
  it.each([
    ['in the order Go sent them', false],
    ['the latest first', true],
  ])('an undo that drops the variant, and its redo, agree at every step (answers and events %s)', async (_, latestFirst) => {
    const ws = `ws-variant-${++n}`;
    const { w, steps } = fakeGo(ws);
    chat.stop();
    chat.start();
    render(Chat, { props: { workspaceId: ws, cwd: '/home/dev/themes/v' } });
    await steps.drain();
    expect(seen()).toEqual({ variant: true, tabs: true, list: 'theme', picker: '' });

    // The designer opens the variant's tab and picks one of its colours.
    await fireEvent.click(screen.getAllByTestId('editor-tab').find((b) => b.dataset.doc === 'companion')!);
    await fireEvent.click(screen.getAllByTestId('role-item').find((b) => b.dataset.role === 'companion.ui.background')!);
    await steps.drain();
    expect(seen()).toEqual({ variant: true, tabs: true, list: 'companion', picker: 'companion.ui.background' });

    const problems: string[] = [];
    const look = (after: string) => problems.push(...disagreements().map((d) => `after ${after}: ${d}`));

    await fireEvent.click(screen.getByTestId('editor-undo'));
    expect(w.bound.UndoEdit).toHaveBeenCalledWith(ws);
    await steps.drain(look, latestFirst);
    expect(problems).toEqual([]);
    expect(seen()).toEqual({ variant: false, tabs: false, list: 'theme', picker: '' });

    await fireEvent.click(screen.getByTestId('editor-redo'));
    expect(w.bound.RedoEdit).toHaveBeenCalledWith(ws);
    await steps.drain(look, latestFirst);
    expect(problems).toEqual([]);
    expect(seen()).toMatchObject({ variant: true, tabs: true });
    expect(screen.getByTestId('variant-name').textContent).toBe('Harbour Day');
  }, 30_000); // the whole chat view, rendered after every step, on a shared 2-core machine
});
