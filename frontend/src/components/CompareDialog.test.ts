import { render, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import CompareDialog from './CompareDialog.svelte';
import example from '../test/fixtures/example.theme.json';
import { installWails } from '../test/wails';
import type { Check } from '../lib/types';

// A contrast check as core/theme Checks reports it (flags from the ratio).
const check = (fgRole: string, bgRole: string, ratio: number): Check => ({
  fg: '#cccccc',
  bg: '#1e1e1e',
  fgRole,
  bgRole,
  ratio,
  aa: ratio >= 4.5,
  aaa: ratio >= 7,
  aaLarge: ratio >= 3,
  apca: -60,
});

const after = { ...example, syntax: { ...example.syntax, comment: '#8a9199' } };
const version = (theme: unknown, checks: Check[] | null) => ({ checkpointId: 'c', label: 'l', created: '2026-12-02T10:10:10Z', theme, error: '', checks, roles: [] });

function open(before: Check[] | null, afterChecks: Check[] | null, beforeTheme: unknown = example) {
  installWails({
    VSCodeTheme: () => Promise.reject('not needed here'),
    CompareCheckpoint: () => ({ before: version(beforeTheme, before), after: version(after, afterChecks), changed: ['syntax.comment'] }),
  });
  render(CompareDialog, { props: { workspaceId: 'ws1', checkpointId: 'c', onclose: () => {} } });
  return waitFor(() => screen.getByTestId('compare-roles'));
}

const rows = () => screen.getAllByTestId('compare-pair');
const rowOf = (fg: string) => rows().find((r) => r.dataset.fgRole === fg);

describe('CompareDialog', () => {
  it('puts what changed first: the weakest pair, the roles and the ratios come before both previews', async () => {
    await open([check('ui.text', 'ui.background', 12), check('syntax.comment', 'ui.background', 3.1)], [check('ui.text', 'ui.background', 12), check('syntax.comment', 'ui.background', 4.6)]);
    const order = ['compare-weakest', 'compare-roles', 'compare-contrast', 'compare-preview-before', 'compare-preview-after'].map((id) => screen.getByTestId(id));
    for (let i = 1; i < order.length; i++) {
      expect(order[i - 1].compareDocumentPosition(order[i]) & Node.DOCUMENT_POSITION_FOLLOWING, `${order[i - 1].dataset.testid} before ${order[i].dataset.testid}`).toBeTruthy();
    }
  });

  it('names the weakest pair with its ratio before and after the turn', async () => {
    await open(
      [check('ui.text', 'ui.background', 12), check('syntax.comment', 'ui.background', 3.1), check('ansi.red', 'ui.background', 5.2)],
      [check('ui.text', 'ui.background', 12), check('syntax.comment', 'ui.background', 4.6), check('ansi.red', 'ui.background', 6)],
    );
    expect(screen.getByTestId('compare-weakest').textContent).toBe('Weakest contrast 3.10:1 → 4.60:1 (syntax.comment on ui.background)');
  });

  it('names both pairs when the weakest one moved', async () => {
    await open([check('syntax.comment', 'ui.background', 3.1), check('ui.accent', 'ui.background', 5)], [check('syntax.comment', 'ui.background', 4.6), check('ui.accent', 'ui.background', 4.2)]);
    expect(screen.getByTestId('compare-weakest').textContent).toBe('Weakest contrast 3.10:1 (syntax.comment on ui.background) → 4.20:1 (ui.accent on ui.background)');
  });

  it('lists only the pairs whose ratio changed, failures first, and marks a pair that now passes and one that now fails', async () => {
    await open(
      [check('ui.text', 'ui.background', 12), check('syntax.comment', 'ui.background', 3.1), check('ansi.red', 'ui.background', 5.2), check('ui.accent', 'ui.background', 5)],
      [check('ui.text', 'ui.background', 12), check('syntax.comment', 'ui.background', 4.6), check('ansi.red', 'ui.background', 6), check('ui.accent', 'ui.background', 4.2)],
    );
    // ui.text kept its ratio; the accent fails after the turn, the comment failed before it.
    expect(rows().map((r) => r.dataset.fgRole)).toEqual(['ui.accent', 'syntax.comment', 'ansi.red']);
    const fixed = rowOf('syntax.comment')!;
    expect(fixed.dataset.change).toBe('fixed');
    expect(fixed.querySelector('[data-testid="compare-pair-before"]')!.textContent).toBe('3.10:1');
    expect((fixed.querySelector('[data-testid="compare-pair-before"]') as HTMLElement).dataset.pass).toBe('false');
    expect((fixed.querySelector('[data-testid="compare-pair-after"]') as HTMLElement).dataset.pass).toBe('true');
    expect(fixed.querySelector('[data-testid="compare-pair-change"]')!.textContent).toBe('now passes AA');
    expect(fixed.textContent).toContain('fails');
    expect(fixed.textContent).toContain('passes');
    const broken = rowOf('ui.accent')!;
    expect(broken.dataset.change).toBe('broken');
    expect(broken.querySelector('[data-testid="compare-pair-change"]')!.textContent).toBe('now fails AA');
    expect(rowOf('ansi.red')!.dataset.change).toBe('');
    expect(rowOf('ansi.red')!.querySelector('[data-testid="compare-pair-change"]')).toBeNull();
  });

  it('on a first turn (no theme before) shows the after ratios against nothing', async () => {
    await open(null, [check('syntax.comment', 'ui.background', 4.6), check('ui.text', 'ui.background', 12)], null);
    expect(screen.getByTestId('compare-weakest').textContent).toBe('Weakest contrast – → 4.60:1 (syntax.comment on ui.background)');
    expect(rows().map((r) => r.dataset.fgRole)).toEqual(['syntax.comment', 'ui.text']);
    expect(rows()[0].querySelector('[data-testid="compare-pair-before"]')).toBeNull();
    expect(screen.getByTestId('compare-before-empty')).toBeTruthy();
  });
});
