// OKLCH ↔ sRGB / Display P3 for painting the picker (its tracks, the
// lightness × chroma plane, the gamut edges): thousands of samples a
// frame, so done here rather than over the bridge. The colour a designer
// tries or writes is still measured and kept by Go (core/theme/oklch.go).
// Matrices: Björn Ottosson's OKLab, CSS Color 4 §18 (sRGB and Display P3
// share the D65 white and the sRGB transfer curve).

export interface Lch {
  l: number; // 0…1
  c: number; // 0…~0.4
  h: number; // degrees
}

type Vec = [number, number, number];

const mul = (m: number[][], v: Vec): Vec => [
  m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
  m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
  m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
];

const lmsToSRGB = [
  [4.0767416621, -3.3077115913, 0.2309699292],
  [-1.2684380046, 2.6097574011, -0.3413193965],
  [-0.0041960863, -0.7034186147, 1.707614701],
];
const srgbToLMS = [
  [0.4122214708, 0.5363325363, 0.0514459929],
  [0.2119034982, 0.6806995451, 0.1073969566],
  [0.0883024619, 0.2817188376, 0.6299787005],
];
const srgbToXYZ = [
  [0.41239079926595934, 0.357584339383878, 0.1804807884018343],
  [0.21263900587151027, 0.715168678767756, 0.07219231536073371],
  [0.01933081871559182, 0.11919477979462598, 0.9505321522496607],
];
const xyzToP3 = [
  [2.493496911941425, -0.9313836179191239, -0.40271078445071684],
  [-0.8294889695615747, 1.7626640603183463, 0.023624685841943577],
  [0.03584583024378447, -0.07617238926804182, 0.9568845240076872],
];

/** OKLCH → linear sRGB (unclamped: a channel outside 0…1 is outside sRGB). */
export function oklchToLinearSRGB({ l, c, h }: Lch): Vec {
  const r = (h * Math.PI) / 180;
  const a = c * Math.cos(r);
  const b = c * Math.sin(r);
  const l_ = l + 0.3963377774 * a + 0.2158037573 * b;
  const m_ = l - 0.1055613458 * a - 0.0638541728 * b;
  const s_ = l - 0.0894841775 * a - 1.291485548 * b;
  return mul(lmsToSRGB, [l_ ** 3, m_ ** 3, s_ ** 3]);
}

/** OKLCH → linear Display P3 (unclamped). */
export function oklchToLinearP3(c: Lch): Vec {
  return mul(xyzToP3, mul(srgbToXYZ, oklchToLinearSRGB(c)));
}

// A hair of tolerance: a colour written as 8-bit hex comes back a rounding off the edge.
const eps = 1e-4;
const inside = (v: Vec) => v.every((x) => x >= -eps && x <= 1 + eps);

export const inSRGB = (c: Lch): boolean => inside(oklchToLinearSRGB(c));
export const inP3 = (c: Lch): boolean => inside(oklchToLinearP3(c));

/** Which gamut a colour fits: the smallest of sRGB, Display P3, or none. */
export function gamutOf(c: Lch): 'srgb' | 'p3' | 'none' {
  return inSRGB(c) ? 'srgb' : inP3(c) ? 'p3' : 'none';
}

const encode = (x: number) => (x <= 0.0031308 ? 12.92 * x : 1.055 * x ** (1 / 2.4) - 0.055);
const decode = (x: number) => (x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** Gamma-encoded sRGB channels 0…255, each clamped into the gamut. */
export function oklchToRGB(c: Lch): Vec {
  return oklchToLinearSRGB(c).map((x) => Math.round(clamp01(encode(x)) * 255)) as Vec;
}

export function oklchToHex(c: Lch): string {
  return '#' + oklchToRGB(c).map((x) => x.toString(16).padStart(2, '0')).join('');
}

/** "#rrggbb" (or "#rgb", "#rrggbbaa": the alpha is dropped) → OKLCH; null when not a hex colour. */
export function hexToOklch(hex: string): Lch | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(hex.trim());
  if (!m) return null;
  let s = m[1];
  if (s.length === 3) s = [...s].map((ch) => ch + ch).join('');
  return rgbToOklch([0, 2, 4].map((i) => parseInt(s.slice(i, i + 2), 16)) as Vec);
}

/** Gamma-encoded sRGB 0…255 → OKLCH (the hue is 0 for greys). */
export function rgbToOklch(rgb: Vec): Lch {
  const lin = rgb.map((x) => decode(x / 255)) as Vec;
  const [l, m, s] = mul(srgbToLMS, lin).map(Math.cbrt);
  const L = 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s;
  const a = 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s;
  const b = 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s;
  const c = Math.hypot(a, b);
  let h = c < 1e-5 ? 0 : (Math.atan2(b, a) * 180) / Math.PI;
  if (h < 0) h += 360;
  return { l: L, c: c < 1e-5 ? 0 : c, h };
}

/** The most chroma a lightness and hue keep inside a gamut (bisection; 0.4 bounds every display gamut). */
export function maxChroma(l: number, h: number, fits: (c: Lch) => boolean = inSRGB): number {
  let lo = 0;
  let hi = 0.4;
  if (!fits({ l, c: 0, h })) return 0;
  for (let i = 0; i < 24; i++) {
    const mid = (lo + hi) / 2;
    if (fits({ l, c: mid, h })) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** "rgb(255 0 0)", "rgb(255, 0, 0)" → OKLCH; null when not that. */
export function parseRGB(s: string): Lch | null {
  const m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)\s*(?:[,/]\s*[\d.]+%?\s*)?\)$/i.exec(s.trim());
  if (!m) return null;
  const v = [m[1], m[2], m[3]].map(Number);
  if (v.some((x) => !Number.isFinite(x) || x > 255)) return null;
  return rgbToOklch(v as Vec);
}

/** "oklch(62.8% 0.258 29.2)" or "oklch(0.628 0.258 29.2)" → OKLCH; null when not that. */
export function parseOklch(s: string): Lch | null {
  const m = /^oklch\(\s*([\d.]+)(%?)\s+([\d.]+)\s+([\d.]+)(?:deg)?\s*(?:\/\s*[\d.]+%?\s*)?\)$/i.exec(s.trim());
  if (!m) return null;
  const l = Number(m[1]) / (m[2] ? 100 : 1);
  const c = Number(m[3]);
  const h = Number(m[4]) % 360;
  if (![l, c, h].every(Number.isFinite) || l > 1 || c > 0.5) return null;
  return { l, c, h };
}

export const formatRGB = (c: Lch): string => `rgb(${oklchToRGB(c).join(' ')})`;
export const formatOklch = (c: Lch): string => `oklch(${(c.l * 100).toFixed(1)}% ${c.c.toFixed(3)} ${c.h.toFixed(1)})`;

/** One position of a track: where it is (0…1), the colour it paints and whether that fits sRGB and P3. */
export interface Stop {
  at: number;
  hex: string;
  srgb: boolean;
  p3: boolean;
}

export const trackRange = { l: 1, c: 0.37, h: 360 } as const;

/** n+1 evenly spaced samples of one channel, the other two held at c's. */
export function track(channel: keyof Lch, c: Lch, n = 48): Stop[] {
  const out: Stop[] = [];
  for (let i = 0; i <= n; i++) {
    const at = i / n;
    const s = { ...c, [channel]: at * trackRange[channel] };
    out.push({ at, hex: oklchToHex(s), srgb: inSRGB(s), p3: inP3(s) });
  }
  return out;
}

/** The runs of a track outside a gamut, as [from, to] fractions, for marking on it. */
export function outside(stops: Stop[], gamut: 'srgb' | 'p3'): [number, number][] {
  const runs: [number, number][] = [];
  const step = stops.length > 1 ? stops[1].at - stops[0].at : 1;
  for (const s of stops) {
    if (s[gamut]) continue;
    const from = Math.max(0, s.at - step / 2);
    const to = Math.min(1, s.at + step / 2);
    const last = runs.at(-1);
    if (last && Math.abs(last[1] - from) < 1e-9) last[1] = to;
    else runs.push([from, to]);
  }
  return runs;
}

/** A CSS gradient painting a track's stops. */
export const gradient = (stops: Stop[]): string => `linear-gradient(to right, ${stops.map((s) => `${s.hex} ${(s.at * 100).toFixed(2)}%`).join(', ')})`;
