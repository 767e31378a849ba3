// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { cvdMatrices, feColorMatrixValues, simulate } from './cvd';

describe('colour-vision-deficiency simulation', () => {
  it('keeps white, black and neutral greys (every matrix row sums to 1)', () => {
    for (const m of Object.values(cvdMatrices)) {
      for (let r = 0; r < 3; r++) expect(m[r * 3] + m[r * 3 + 1] + m[r * 3 + 2]).toBeCloseTo(1, 3);
    }
    for (const mode of ['protanopia', 'deuteranopia', 'tritanopia', 'achromatopsia'] as const) {
      expect(simulate('#ffffff', mode)).toBe('#ffffff');
      expect(simulate('#000000', mode)).toBe('#000000');
      for (const grey of ['#050505', '#808080', '#c0c0c0']) expect(simulate(grey, mode)).toBe(grey);
    }
  });
  it('makes red and green hard to tell apart for red-green deficiencies, and greys for achromatopsia', () => {
    const dist = (a: string, b: string) => Math.hypot(...[1, 3, 5].map((i) => parseInt(a.slice(i, i + 2), 16) - parseInt(b.slice(i, i + 2), 16)));
    const [red, green] = ['#d03030', '#30a030'];
    expect(dist(simulate(red, 'deuteranopia'), simulate(green, 'deuteranopia'))).toBeLessThan(dist(red, green) / 2);
    expect(dist(simulate(red, 'protanopia'), simulate(green, 'protanopia'))).toBeLessThan(dist(red, green) / 2);
    const g = simulate('#3366cc', 'achromatopsia');
    expect(g.slice(1, 3)).toBe(g.slice(3, 5));
    expect(g.slice(3, 5)).toBe(g.slice(5, 7));
    expect(simulate('#7fb4ff', 'none')).toBe('#7fb4ff');
  });
  it('writes a 4×5 feColorMatrix that keeps alpha', () => {
    const v = feColorMatrixValues(cvdMatrices.protanopia).split(' ').map(Number);
    expect(v).toHaveLength(20);
    expect(v.slice(15)).toEqual([0, 0, 0, 1, 0]);
    expect(v.slice(0, 3)).toEqual([0.152286, 1.052583, -0.204868]);
    expect(v.slice(5, 8)).toEqual([0.114503, 0.786281, 0.099216]);
    expect(v.slice(10, 13)).toEqual([-0.003882, -0.048116, 1.051998]);
    expect([3, 4, 8, 9, 13, 14].map((i) => v[i])).toEqual([0, 0, 0, 0, 0, 0]);
  });
});
