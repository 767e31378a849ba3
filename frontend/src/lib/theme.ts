// Reads a theme document (core/theme: name, appearance, ui{10 roles},
// syntax{…}, ansi[16]) into CSS custom properties for the preview, plus
// every role of the catalogue as Go resolved it (ThemeState.roles: set or
// derived by the document's rules), so the preview holds no rules itself.
import type { ThemeDocument } from './types';

/** One role as the theme paints it (core/theme RoleValue). */
export interface RoleColor {
  path: string;
  color: string;
}

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

/** A syntax value: a colour, or {color, fontStyle}. */
export function syntaxColor(v: unknown): string | undefined {
  if (v && typeof v === 'object' && !Array.isArray(v)) return color((v as Record<string, unknown>).color);
  return color(v);
}

/**
 * A role's value in the document as a colour: a hex, or (version 3) the
 * name of a palette entry, resolved through the document's palette (a
 * ramp entry's name is its base). A ramp step ("blue.600") is generated in
 * Go; it comes resolved in the roles Go sends.
 */
export function valueColor(doc: ThemeDocument, v: unknown): string | undefined {
  const c = color(v);
  if (c || typeof v !== 'string') return c;
  const entry = group(doc, 'palette')[v];
  if (entry && typeof entry === 'object' && !Array.isArray(entry)) return color((entry as Record<string, unknown>).base);
  return color(entry);
}

/**
 * CSS custom properties: --ui-<role>, --syntax-<role>, --ansi-0 … --ansi-15
 * and --role-<group>-<name> for every resolved role. The roles Go resolved
 * win over the document (its values may name palette entries). Invalid
 * colours are left out.
 */
export function themeVars(doc: ThemeDocument | null | undefined, roles: RoleColor[] = []): Record<string, string> {
  const vars: Record<string, string> = {};
  if (!doc) return vars;
  const resolved = new Map<string, string>();
  for (const r of roles) {
    const c = color(r?.color);
    if (c && typeof r.path === 'string' && /^[a-z]+\.[A-Za-z0-9]+$/.test(r.path)) {
      vars[`--role-${r.path.replace('.', '-')}`] = c;
      resolved.set(r.path, c);
    }
  }
  // A role naming a palette entry (theme version 3: "accent": "amber") has
  // no colour in the document; Go's resolved colour paints it.
  const ui = group(doc, 'ui');
  for (const r of uiRoles) {
    const c = resolved.get(`ui.${r}`) ?? valueColor(doc, ui[r]);
    if (c) vars[`--ui-${r}`] = c;
  }
  const syntax = group(doc, 'syntax');
  for (const r of syntaxRoles) {
    const v = syntax[r];
    const c = resolved.get(`syntax.${r}`) ?? valueColor(doc, v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>).color : v);
    if (c) vars[`--syntax-${r}`] = c;
  }
  const ansi = Array.isArray(doc.ansi) ? doc.ansi : [];
  ansi.slice(0, 16).forEach((v, i) => {
    const c = resolved.get(`ansi.${ansiNames[i]}`) ?? valueColor(doc, v);
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
