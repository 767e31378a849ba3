// Colour-vision-deficiency simulation for the whole preview, as SVG
// feColorMatrix filters.
//
// Protanopia, deuteranopia and tritanopia: Machado, Oliveira & Fernandes,
// "A Physiologically-based Model for Simulation of Color Vision
// Deficiency", IEEE TVCG 15(6), 2009 — the severity 1.0 matrices of the
// paper's table (the ones Chrome and Firefox DevTools use). They act on
// linear RGB, which is the space an SVG filter computes in by default
// (color-interpolation-filters: linearRGB).
// Achromatopsia (rod monochromacy): every channel becomes the relative
// luminance Y = 0.2126 R + 0.7152 G + 0.0722 B (ITU-R BT.709 / sRGB).

export const cvdModes = ['none', 'protanopia', 'deuteranopia', 'tritanopia', 'achromatopsia'] as const;
export type CvdMode = (typeof cvdModes)[number];

type Matrix3 = readonly [number, number, number, number, number, number, number, number, number];

export const cvdMatrices: Record<Exclude<CvdMode, 'none'>, Matrix3> = {
  protanopia: [0.152286, 1.052583, -0.204868, 0.114503, 0.786281, 0.099216, -0.003882, -0.048116, 1.051998],
  deuteranopia: [0.367322, 0.860646, -0.227968, 0.280085, 0.672501, 0.047413, -0.01182, 0.04294, 0.968881],
  tritanopia: [1.255528, -0.076749, -0.178779, -0.078411, 0.930809, 0.147602, 0.004733, 0.691367, 0.3039],
  achromatopsia: [0.2126, 0.7152, 0.0722, 0.2126, 0.7152, 0.0722, 0.2126, 0.7152, 0.0722],
};

/** The 4×5 values attribute of an feColorMatrix for a 3×3 RGB matrix (alpha kept). */
export function feColorMatrixValues(m: Matrix3): string {
  const r = (i: number) => [m[i * 3], m[i * 3 + 1], m[i * 3 + 2], 0, 0].join(' ');
  return [r(0), r(1), r(2), '0 0 0 1 0'].join(' ');
}

const lin = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
const gam = (v: number) => (v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055);

/** How a colour (#rrggbb) looks under a deficiency, as the filter renders it. */
export function simulate(hex: string, mode: CvdMode): string {
  if (mode === 'none') return hex.toLowerCase();
  const m = cvdMatrices[mode];
  const c = [1, 3, 5].map((i) => lin(parseInt(hex.slice(i, i + 2), 16) / 255));
  const out = [0, 1, 2].map((row) => {
    const v = m[row * 3] * c[0] + m[row * 3 + 1] * c[1] + m[row * 3 + 2] * c[2];
    return Math.round(gam(Math.min(1, Math.max(0, v))) * 255);
  });
  return '#' + out.map((v) => v.toString(16).padStart(2, '0')).join('');
}
