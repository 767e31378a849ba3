import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import OklchPicker from './OklchPicker.svelte';
import { hexToOklch, maxChroma } from '../lib/oklch';

function mount(hex: string, extra: Record<string, unknown> = {}) {
  const ontry = vi.fn();
  const oncommit = vi.fn();
  const r = render(OklchPicker, { props: { value: hexToOklch(hex)!, ontry, oncommit, ...extra } });
  return { ontry, oncommit, ...r };
}

describe('OklchPicker', () => {
  it('paints each track with the colours its positions give', () => {
    mount('#ff0000');
    // The lightness track runs from black to white through the hue.
    const l = screen.getByTestId('picker-track-l').getAttribute('style')!;
    // The lightness track at red's chroma and hue: dark red, red at 62.5 %, then paler.
    expect(l).toContain('rgb(254, 0, 0) 62.50%');
    const reds = [...l.matchAll(/rgb\((\d+), (\d+), (\d+)\)/g)].map((m) => +m[1] + +m[2] + +m[3]);
    expect(reds).toHaveLength(49);
    expect(reds.every((v, i) => i === 0 || v >= reds[i - 1])).toBe(true);
    // The hue track at red's lightness and chroma passes red at 29.2° (8.33 % is 30°).
    const h = screen.getByTestId('picker-track-h').getAttribute('style')!;
    expect(h).toMatch(/rgb\(25[0-5], [0-9], [0-9]{1,2}\) 8\.33%/);
    expect(screen.getByTestId('picker-hex')).toHaveProperty('value', '#ff0000');
    expect(screen.getByTestId('picker-gamut').textContent).toContain('sRGB');
  });

  it('hatches the stretch of the chroma track outside sRGB, and outside P3 further out', () => {
    mount('#4caf50');
    const srgb = screen.getAllByTestId('picker-out-srgb-c');
    const p3 = screen.getAllByTestId('picker-out-p3-c');
    const c = hexToOklch('#4caf50')!;
    const edge = maxChroma(c.l, c.h) / 0.37;
    expect(Math.abs(Number(srgb[0].dataset.from) - edge)).toBeLessThan(0.03);
    expect(Number(p3[0].dataset.from)).toBeGreaterThan(Number(srgb[0].dataset.from));
    // A lightness track of a green leaves sRGB at both ends; a grey's never does.
    expect(screen.getAllByTestId('picker-out-srgb-l').length).toBeGreaterThan(0);
    cleanup();
    mount('#808080');
    expect(screen.queryAllByTestId('picker-out-srgb-l')).toHaveLength(0);
  });

  it('tries a colour as a track moves and writes it when let go', async () => {
    const { ontry, oncommit } = mount('#336699');
    const c = screen.getByTestId('picker-c');
    await fireEvent.input(c, { target: { value: '0.3' } });
    expect(ontry).toHaveBeenLastCalledWith(expect.objectContaining({ c: 0.3 }));
    expect(screen.getByTestId('oklch-picker').dataset.gamut).not.toBe('srgb');
    expect(screen.getByTestId('picker-gamut').textContent).toMatch(/P3/);
    await fireEvent.change(c);
    expect(oncommit).toHaveBeenCalledTimes(1);
    expect(oncommit.mock.calls[0][0]).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('reads hex, rgb() and oklch() as typed and writes the colour on Enter; refuses nonsense', async () => {
    const { oncommit } = mount('#336699');
    const rgb = screen.getByTestId('picker-rgb');
    await fireEvent.focus(rgb);
    await fireEvent.input(rgb, { target: { value: 'rgb(255, 0, 0)' } });
    await fireEvent.keyDown(rgb, { key: 'Enter' });
    expect(oncommit).toHaveBeenLastCalledWith('#ff0000');
    const ok = screen.getByTestId('picker-oklch');
    await fireEvent.focus(ok);
    await fireEvent.input(ok, { target: { value: 'oklch(45.2% 0.313 264.05)' } });
    await fireEvent.keyDown(ok, { key: 'Enter' });
    expect(oncommit).toHaveBeenLastCalledWith('#0000ff');
    const hex = screen.getByTestId('picker-hex');
    await fireEvent.focus(hex);
    await fireEvent.input(hex, { target: { value: '#12345' } });
    await fireEvent.keyDown(hex, { key: 'Enter' });
    expect(screen.getByTestId('picker-error').textContent).toContain('#12345');
    expect(oncommit).toHaveBeenCalledTimes(2);
  });

  it('draws both gamut edges on the lightness x chroma plane and moves with the arrows', async () => {
    const { ontry, oncommit } = mount('#336699');
    const srgb = screen.getByTestId('picker-srgb-edge').getAttribute('d')!;
    const p3 = screen.getByTestId('picker-p3-edge').getAttribute('d')!;
    expect(srgb).toMatch(/^M/);
    expect(srgb).not.toBe(p3);
    const plane = screen.getByTestId('picker-plane');
    const before = hexToOklch('#336699')!.l;
    await fireEvent.keyDown(plane, { key: 'ArrowUp' });
    expect(ontry.mock.calls.at(-1)![0].l).toBeCloseTo(before + 0.01, 5);
    expect(oncommit).toHaveBeenCalled();
  });

  it('offers the palette, marks the entry followed, and hands a chosen one over', async () => {
    const onswatch = vi.fn();
    mount('#e0a458', { palette: [{ name: 'amber', color: '#e0a458' }, { name: 'sky', color: '#7aa2f7' }], follows: 'amber', onswatch, oneyedropper: vi.fn() });
    const sw = screen.getAllByTestId('picker-palette');
    expect(sw.map((s) => s.dataset.name)).toEqual(['amber', 'sky']);
    expect(sw[0].classList.contains('followed')).toBe(true);
    expect(sw[1].classList.contains('followed')).toBe(false);
    await fireEvent.click(sw[1]);
    expect(onswatch).toHaveBeenCalledWith('sky');
    expect(screen.getByTestId('picker-eyedropper')).toBeTruthy();
  });
});
