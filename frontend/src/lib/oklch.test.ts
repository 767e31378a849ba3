import { describe, expect, it } from 'vitest';
import {
  formatOklch,
  formatRGB,
  gamutOf,
  hexToOklch,
  inP3,
  inSRGB,
  maxChroma,
  oklchToHex,
  oklchToLinearP3,
  oklchToLinearSRGB,
  outside,
  parseOklch,
  parseRGB,
  track,
} from './oklch';

// The sRGB primaries in OKLCH as CSS Color 4's sample code and oklch.com give them.
const primaries = [
  { hex: '#ff0000', l: 0.62796, c: 0.25768, h: 29.2339 },
  { hex: '#00ff00', l: 0.86644, c: 0.29483, h: 142.4953 },
  { hex: '#0000ff', l: 0.45201, c: 0.31321, h: 264.052 },
  { hex: '#ffffff', l: 1, c: 0, h: 0 },
];

describe('oklch', () => {
  it('measures the sRGB primaries as the spec does', () => {
    for (const p of primaries) {
      const got = hexToOklch(p.hex)!;
      expect(got.l).toBeCloseTo(p.l, 4);
      expect(got.c).toBeCloseTo(p.c, 4);
      if (p.c) expect(got.h).toBeCloseTo(p.h, 2);
    }
  });

  it('paints them back to the same hex', () => {
    for (const p of primaries) expect(oklchToHex(p)).toBe(p.hex);
    expect(oklchToHex(hexToOklch('#7aa2f7')!)).toBe('#7aa2f7');
  });

  it('puts sRGB red at the corners of linear sRGB and inside P3 at CSS Color 4 values', () => {
    const [r, g, b] = oklchToLinearSRGB(primaries[0]);
    expect(r).toBeCloseTo(1, 3);
    expect(g).toBeCloseTo(0, 3);
    expect(b).toBeCloseTo(0, 3);
    // color(srgb 1 0 0) is color(display-p3 0.9175 0.2003 0.1386) (gamma encoded); linear:
    const p3 = oklchToLinearP3(primaries[0]);
    expect(p3[0]).toBeCloseTo(0.8225, 3);
    expect(p3[1]).toBeCloseTo(0.0332, 3);
    expect(p3[2]).toBeCloseTo(0.0171, 3);
  });

  it('tells sRGB, P3 and beyond apart', () => {
    expect(gamutOf({ l: 0.6, c: 0.1, h: 250 })).toBe('srgb');
    // P3's green primary is oklch(0.8465 0.3680 145.6) (oklch.com): out of sRGB, in P3.
    const p3green = { l: 0.8465, c: 0.3, h: 145.6 };
    expect(inSRGB(p3green)).toBe(false);
    expect(inP3(p3green)).toBe(true);
    expect(gamutOf({ l: 0.5, c: 0.4, h: 145 })).toBe('none');
    expect(inSRGB(primaries[2])).toBe(true);
  });

  it('finds the chroma edge of sRGB at a primary', () => {
    expect(maxChroma(primaries[0].l, primaries[0].h)).toBeCloseTo(primaries[0].c, 3);
    expect(maxChroma(0.7, 145, inP3)).toBeGreaterThan(maxChroma(0.7, 145, inSRGB));
    expect(maxChroma(1, 30)).toBeLessThan(0.001);
  });

  it('parses rgb() and oklch() as typed, and refuses what is not', () => {
    expect(oklchToHex(parseRGB('rgb(255, 0, 0)')!)).toBe('#ff0000');
    expect(oklchToHex(parseRGB('rgb(0 0 255)')!)).toBe('#0000ff');
    expect(parseRGB('rgb(300 0 0)')).toBeNull();
    expect(oklchToHex(parseOklch('oklch(62.8% 0.2577 29.23)')!)).toBe('#ff0000');
    expect(parseOklch('oklch(0.452 0.3132 264.05)')!.l).toBeCloseTo(0.452, 5);
    expect(parseOklch('oklch(red)')).toBeNull();
    expect(formatRGB(primaries[1])).toBe('rgb(0 255 0)');
    expect(formatOklch(primaries[0])).toBe('oklch(62.8% 0.258 29.2)');
  });

  it('marks where a chroma track leaves sRGB and where it leaves P3', () => {
    const stops = track('c', { l: 0.7, c: 0.1, h: 145 });
    const srgbOut = outside(stops, 'srgb');
    const p3Out = outside(stops, 'p3');
    expect(srgbOut).toHaveLength(1);
    expect(srgbOut[0][1]).toBe(1);
    // P3 reaches further: its run starts later.
    expect(p3Out[0][0]).toBeGreaterThan(srgbOut[0][0]);
    // The first sample outside sRGB is just past the edge the bisection finds.
    const edge = maxChroma(0.7, 145) / 0.37;
    expect(Math.abs(srgbOut[0][0] - edge)).toBeLessThan(1 / 48);
  });
});
