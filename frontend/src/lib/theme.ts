// Reads a theme document (core/theme: name, appearance, ui{10 roles},
// syntax{9 roles}, ansi[16]) into CSS custom properties for the preview.
import type { ThemeDocument } from './types';

export const uiRoles = ['background', 'surface', 'text', 'mutedText', 'accent', 'border', 'selection', 'error', 'warning', 'success'] as const;
export const syntaxRoles = ['keyword', 'string', 'comment', 'function', 'type', 'number', 'constant', 'variable', 'operator'] as const;
export const ansiNames = [
  'black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white',
  'brightBlack', 'brightRed', 'brightGreen', 'brightYellow', 'brightBlue', 'brightMagenta', 'brightCyan', 'brightWhite',
] as const;

const hex = /^#(?:[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** A colour safe to place in a style attribute, or undefined. */
export function color(v: unknown): string | undefined {
  return typeof v === 'string' && hex.test(v.trim()) ? v.trim().toLowerCase() : undefined;
}

function group(doc: ThemeDocument, key: string): Record<string, unknown> {
  const g = doc[key];
  return g && typeof g === 'object' && !Array.isArray(g) ? (g as Record<string, unknown>) : {};
}

/** CSS custom properties: --ui-<role>, --syntax-<role>, --ansi-0 … --ansi-15. Invalid colours are left out. */
export function themeVars(doc: ThemeDocument | null | undefined): Record<string, string> {
  const vars: Record<string, string> = {};
  if (!doc) return vars;
  const ui = group(doc, 'ui');
  for (const r of uiRoles) {
    const c = color(ui[r]);
    if (c) vars[`--ui-${r}`] = c;
  }
  const syntax = group(doc, 'syntax');
  for (const r of syntaxRoles) {
    const c = color(syntax[r]);
    if (c) vars[`--syntax-${r}`] = c;
  }
  const ansi = Array.isArray(doc.ansi) ? doc.ansi : [];
  ansi.slice(0, 16).forEach((v, i) => {
    const c = color(v);
    if (c) vars[`--ansi-${i}`] = c;
  });
  return vars;
}

export function styleText(vars: Record<string, string>): string {
  return Object.entries(vars)
    .map(([k, v]) => `${k}: ${v}`)
    .join('; ');
}

export function themeName(doc: ThemeDocument | null | undefined): string {
  return doc && typeof doc.name === 'string' ? doc.name : '';
}

export function themeAppearance(doc: ThemeDocument | null | undefined): 'dark' | 'light' | '' {
  const a = doc?.appearance;
  return a === 'dark' || a === 'light' ? a : '';
}
