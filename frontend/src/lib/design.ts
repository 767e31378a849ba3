// The Design view's reading of Go's roles: where each shows (the groups a
// designer looks for, taken from the catalogue's group and path), which
// fail contrast, the search over them, and the designer's own code kept
// between openings with its language guessed.
import type { Check, EditorRole } from './types';

/** Where a role shows, in the order the Design view lists them. */
export const designGroups = ['editor', 'syntax', 'terminal', 'chrome', 'diff', 'diagnostics', 'git'] as const;
export type DesignGroup = (typeof designGroups)[number];

// diff.added/removed/changed paint the gutter signs and file lists (git
// decorations); the rest of the diff group paints diff and merge views.
const gitRoles = new Set(['diff.added', 'diff.removed', 'diff.changed']);

/** The group a role is listed under; null for palette entries (the strip shows them). */
export function designGroup(r: Pick<EditorRole, 'path' | 'group'>): DesignGroup | null {
  const path = r.path.startsWith('companion.') ? r.path.slice('companion.'.length) : r.path;
  switch (r.group) {
    case 'palette':
      return null;
    case 'ui':
      return 'chrome';
    case 'editor':
      return 'editor';
    case 'syntax':
      return 'syntax';
    case 'terminal':
    case 'ansi':
      return 'terminal';
    case 'diagnostic':
      return 'diagnostics';
    case 'diff':
      return gitRoles.has(path) ? 'git' : 'diff';
    default:
      return 'chrome';
  }
}

/** Each role failing WCAG AA in some pair, with the worst ratio it takes part in. */
export function failingRoles(checks: Check[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of checks) {
    if (c.aa) continue;
    for (const r of [c.fgRole, c.bgRole]) out.set(r, Math.min(out.get(r) ?? Infinity, c.ratio));
  }
  return out;
}

/** The roles of each group matching a search (path, label or help) and, on request, only the failing ones. */
export function groupRoles(roles: EditorRole[], query: string, onlyFailing: boolean, failing: Map<string, number>): { group: DesignGroup; roles: EditorRole[] }[] {
  const q = query.trim().toLowerCase();
  const match = (r: EditorRole) => !q || r.path.toLowerCase().includes(q) || r.label.toLowerCase().includes(q) || r.help.toLowerCase().includes(q) || (r.follows ?? '').toLowerCase().includes(q);
  return designGroups
    .map((g) => ({ group: g, roles: roles.filter((r) => designGroup(r) === g && match(r) && (!onlyFailing || failing.has(r.path))) }))
    .filter((g) => g.roles.length);
}

/** The text roles failing WCAG AA (the foreground of a failing pair), with their worst ratio: what the preview marks. */
export function failingText(checks: Check[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of checks) if (!c.aa) out.set(c.fgRole, Math.min(out.get(c.fgRole) ?? Infinity, c.ratio));
  return out;
}

/** What the Design view's large preview shows. */
export type PreviewMode = 'sample' | 'code' | 'terminal' | 'workbench' | 'zed';
export const previewModes: PreviewMode[] = ['zed', 'code', 'terminal', 'workbench', 'sample'];

/** A role path safe to put in a CSS attribute selector (the catalogue's shape). */
export const safeRole = (p: string): boolean => /^[a-z]+\.[A-Za-z0-9]+$/.test(p);

/** The VS Code colour ids of the workbench mock-up and the role each comes from (core/export/vscode). */
export const vscodeRoles: Record<string, string> = {
  'titleBar.activeBackground': 'ui.surface',
  'activityBar.background': 'ui.surface',
  'activityBarBadge.background': 'ui.accent',
  'sideBar.background': 'ui.surface',
  'list.activeSelectionBackground': 'ui.selection',
  'editorGroupHeader.tabsBackground': 'ui.surface',
  'tab.activeBackground': 'ui.background',
  'tab.inactiveBackground': 'ui.surface',
  'editor.background': 'ui.background',
  'editor.foreground': 'ui.text',
  'editorLineNumber.foreground': ['editor', 'lineNumber'].join('.'),
  'diffEditor.insertedLineBackground': 'diff.addedLine',
  'diffEditor.removedLineBackground': 'diff.removedLine',
  'diffEditor.insertedTextBackground': 'diff.addedText',
  'diffEditor.removedTextBackground': 'diff.removedText',
  'panel.background': 'ui.background',
  'terminal.background': 'ui.background',
  'terminal.foreground': 'ui.text',
  'statusBar.background': 'ui.surface',
};

// Signs of a language, strongest first; the first to match names it.
const signs: [string, RegExp][] = [
  ['json', /^\s*[[{]\s*"[^"]*"\s*:/],
  ['html', /^\s*<(!doctype|html|div|head|body|span|p)\b/i],
  ['rust', /\bfn\s+\w+\s*(<[^>]*>)?\s*\(|\blet\s+mut\b|\bimpl\b|println!/],
  ['go', /^\s*package\s+\w+\s*$|\bfunc\s+(\(\w+\s+\*?\w+\)\s*)?\w+\(|:=/m],
  ['python', /^\s*def\s+\w+\(.*\)\s*(->\s*[^:]+)?:\s*$|^\s*(from\s+\w+\s+)?import\s+\w+\s*$|^\s*class\s+\w+(\(.*\))?:\s*$/m],
  ['typescript', /\binterface\s+\w+\s*{|:\s*(string|number|boolean)\b|\bexport\s+type\b|\bas\s+const\b/],
  ['javascript', /\b(const|let|var)\s+\w+\s*=|=>|\bfunction\s*\w*\s*\(|console\.log/],
  ['shellscript', /^#!.*\b(ba|z)?sh\b|^\s*(echo|export|if \[)\s/m],
  ['css', /^[.#]?[\w-]+\s*{\s*$|^\s*[\w-]+\s*:\s*[^;]+;\s*$/m],
  ['c', /^#include\s*[<"]/m],
  ['yaml', /^\w[\w-]*:\s*(\S.*)?$/m],
  ['markdown', /^#{1,6}\s+\S|^\s*[-*]\s+\S/m],
];

/** The language the code most likely is, among those offered; "" when nothing tells. */
export function guessLanguage(code: string, offered: string[]): string {
  const head = code.slice(0, 4000);
  for (const [lang, re] of signs) if (offered.includes(lang) && re.test(head)) return lang;
  return '';
}

/** Own code kept between openings: bounded, never more than the highlighter takes. */
export const ownCodeLimit = 50_000;
const codeKey = 'cdxtheme.design.code';
const modeKey = 'cdxtheme.design.mode';

export function loadMode(): PreviewMode {
  try {
    const m = localStorage.getItem(modeKey);
    return previewModes.find((x) => x === m) ?? 'zed';
  } catch {
    return 'zed';
  }
}

export function saveMode(m: PreviewMode): void {
  try {
    localStorage.setItem(modeKey, m);
  } catch {
    // Only the choice is lost.
  }
}
const langKey = 'cdxtheme.design.lang';

export function loadOwnCode(): { code: string; lang: string } | null {
  try {
    const code = localStorage.getItem(codeKey);
    if (!code) return null;
    return { code: code.slice(0, ownCodeLimit), lang: localStorage.getItem(langKey) ?? '' };
  } catch {
    return null;
  }
}

export function saveOwnCode(code: string, lang: string): void {
  try {
    localStorage.setItem(codeKey, code.slice(0, ownCodeLimit));
    localStorage.setItem(langKey, lang);
  } catch {
    // A full or refused storage only loses the code between openings.
  }
}
