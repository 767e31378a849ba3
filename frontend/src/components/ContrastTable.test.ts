import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import ContrastTable from './ContrastTable.svelte';
import type { Check } from '../lib/types';

const pairs: Check[] = [
  { fg: '#d8dee9', bg: '#161a24', fgRole: 'ui.text', bgRole: 'ui.background', ratio: 13.08, aa: true, aaa: true, aaLarge: true, apca: -93 },
  { fg: '#8b96aa', bg: '#1f2430', fgRole: 'syntax.comment', bgRole: 'ui.surface', ratio: 4.499, aa: false, aaa: false, aaLarge: true, apca: -52 },
  { fg: '#9aa5b8', bg: '#161a24', fgRole: 'ui.mutedText', bgRole: 'ui.background', ratio: 6.2, aa: true, aaa: false, aaLarge: true, apca: -64 },
  { fg: '#323a4c', bg: '#161a24', fgRole: 'ui.border', bgRole: 'ui.background', ratio: 1.6, aa: false, aaa: false, aaLarge: false, apca: -12 },
];

describe('ContrastTable', () => {
  it('marks failing pairs and shows ratios without rounding a failure up to a pass', () => {
    render(ContrastTable, { props: { pairs } });
    const rows = screen.getAllByTestId('contrast-row');
    // Failures first, the worst on top; then the passing pairs in Go's order.
    expect(rows.map((r) => r.dataset.fgRole)).toEqual(['ui.border', 'syntax.comment', 'ui.text', 'ui.mutedText']);
    expect(rows.map((r) => r.dataset.pass)).toEqual(['false', 'false', 'true', 'true']);
    expect(rows[1].classList.contains('fail')).toBe(true);
    expect(rows[2].classList.contains('fail')).toBe(false);
    expect(rows[1].textContent).toContain('4.49:1');
    expect(rows[0].textContent).toContain('1.60:1');
    expect(rows[1].textContent).toContain('syntax.comment');
    const marks = (r: HTMLElement) => Array.from(r.querySelectorAll('td.mark')).map((td) => (td.classList.contains('ok') ? 'ok' : 'bad'));
    expect(marks(rows[3])).toEqual(['ok', 'bad', 'ok']);
    expect(marks(rows[0])).toEqual(['bad', 'bad', 'bad']);
    expect(screen.getByTestId('contrast-summary').textContent).toContain('2 of 4 below AA');
  });

  it('can show only the failures', async () => {
    render(ContrastTable, { props: { pairs } });
    await fireEvent.click(screen.getByTestId('contrast-only-failures'));
    expect(screen.getAllByTestId('contrast-row').map((r) => r.dataset.fgRole)).toEqual(['syntax.comment', 'ui.border']);
  });

  it('Fix with agent hands over exactly the failing pairs', async () => {
    const onfix = vi.fn();
    render(ContrastTable, { props: { pairs, onfix } });
    await fireEvent.click(screen.getByTestId('fix-contrast'));
    expect(onfix).toHaveBeenCalledWith([pairs[1], pairs[3]]);
  });

  it.each([
    { name: 'nothing fails', list: [pairs[0]], disabled: false },
    { name: 'a turn is running', list: pairs, disabled: true },
  ])('Fix with agent is disabled when $name', ({ list, disabled }) => {
    render(ContrastTable, { props: { pairs: list, onfix: vi.fn(), fixDisabled: disabled } });
    expect((screen.getByTestId('fix-contrast') as HTMLButtonElement).disabled).toBe(true);
  });
  it('shows APCA Lc beside the WCAG ratio, with the level it reaches and the thresholds explained', () => {
    const withLc = pairs.map((p, i) => ({ ...p, apca: [-85.04, -47.3, 63.06, -12] [i] }));
    render(ContrastTable, { props: { pairs: withLc } });
    const cells = screen.getAllByTestId('contrast-apca');
    // Rows: border (fails worst), comment (fails), text, mutedText.
    expect(cells.map((c) => c.dataset.level)).toEqual(['low', '45', '75', '60']);
    expect(cells[2].textContent).toContain('−85.0');
    expect(cells[3].textContent).toContain('63.0');
    expect(cells[2].getAttribute('title')).toBe('minimum for body text');
    const help = screen.getByTestId('contrast-help');
    for (const l of ['Lc 90', 'Lc 75', 'Lc 60', 'Lc 45', 'Lc 30', 'Lc 15', '4.5:1', 'APCA-W3 0.0.98G']) expect(help.textContent).toContain(l);
  });

  it('breaks a role name only at its dot and between its words, never inside a word', () => {
    render(ContrastTable, { props: { pairs } });
    const name = screen.getAllByTestId('contrast-row')[3].querySelector('.fg .name') as HTMLElement;
    expect(name.textContent).toBe('ui.mutedText');
    // The break opportunities are the <wbr>s after "ui." and before "Text"; each word is one unbroken text node.
    expect(name.innerHTML.replace(/<!---->/g, '')).toBe('ui.<wbr>muted<wbr>Text');
  });

  it('opens the editor on a role when its name is clicked', async () => {
    const onpick = vi.fn();
    render(ContrastTable, { props: { pairs, onpick } });
    const picks = screen.getAllByTestId('contrast-pick');
    await fireEvent.click(picks.find((b) => b.dataset.role === 'syntax.comment')!);
    expect(onpick).toHaveBeenCalledWith('syntax.comment');
  });

  it('names the palette entry a role follows, and a click on it picks the entry', async () => {
    const onpick = vi.fn();
    const follow: Check[] = [{ ...pairs[3], fgFollows: 'slate.700', bgFollows: 'ink' }, pairs[0]];
    render(ContrastTable, { props: { pairs: follow, onpick } });
    const row = screen.getAllByTestId('contrast-row')[0];
    const refs = Array.from(row.querySelectorAll<HTMLElement>('[data-testid="contrast-follows"]'));
    expect(refs.map((r) => r.textContent)).toEqual(['[slate.700]', '[ink]']);
    expect(screen.getAllByTestId('contrast-row')[1].querySelector('[data-testid="contrast-follows"]')).toBeNull();
    await fireEvent.click(refs[0]);
    expect(onpick).toHaveBeenCalledWith('palette.slate');
  });
});
