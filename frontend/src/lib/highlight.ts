// Syntax highlighting with Shiki, loaded only when the first code block needs
// it: the core, the JavaScript regex engine (no WebAssembly, which the CSP
// would refuse), the two themes and each grammar are separate chunks fetched
// on first use. Nothing here runs at start-up.
//
// Agent text is untrusted. The HTML made here comes only from Shiki's tokens:
// every token's text is escaped, and the only attributes written are our own
// class names and colours that match a strict hex pattern, so nothing the
// agent writes can become markup, a class or a style.
import type { HighlighterCore, ThemedTokenWithVariants } from 'shiki/core';

type Loader = () => Promise<unknown>;

/** The grammars offered, by every name a fence may use. Each import is its own chunk. */
const grammars: Record<string, Loader> = {
  json: () => import('shiki/langs/json.mjs'),
  jsonc: () => import('shiki/langs/jsonc.mjs'),
  css: () => import('shiki/langs/css.mjs'),
  scss: () => import('shiki/langs/scss.mjs'),
  js: () => import('shiki/langs/javascript.mjs'),
  javascript: () => import('shiki/langs/javascript.mjs'),
  ts: () => import('shiki/langs/typescript.mjs'),
  typescript: () => import('shiki/langs/typescript.mjs'),
  html: () => import('shiki/langs/html.mjs'),
  toml: () => import('shiki/langs/toml.mjs'),
  yaml: () => import('shiki/langs/yaml.mjs'),
  yml: () => import('shiki/langs/yaml.mjs'),
  sh: () => import('shiki/langs/shellscript.mjs'),
  bash: () => import('shiki/langs/shellscript.mjs'),
  shell: () => import('shiki/langs/shellscript.mjs'),
  zsh: () => import('shiki/langs/shellscript.mjs'),
  lua: () => import('shiki/langs/lua.mjs'),
  vim: () => import('shiki/langs/viml.mjs'),
  python: () => import('shiki/langs/python.mjs'),
  py: () => import('shiki/langs/python.mjs'),
  go: () => import('shiki/langs/go.mjs'),
  rust: () => import('shiki/langs/rust.mjs'),
  rs: () => import('shiki/langs/rust.mjs'),
  diff: () => import('shiki/langs/diff.mjs'),
  ini: () => import('shiki/langs/ini.mjs'),
  conf: () => import('shiki/langs/ini.mjs'),
  xml: () => import('shiki/langs/xml.mjs'),
  plist: () => import('shiki/langs/xml.mjs'),
  md: () => import('shiki/langs/markdown.mjs'),
  markdown: () => import('shiki/langs/markdown.mjs'),
};

/** Shiki's own name for each loader's grammar, to ask loadLanguage once. */
const ids: Record<string, string> = {
  js: 'javascript', ts: 'typescript', yml: 'yaml', sh: 'shellscript', bash: 'shellscript', shell: 'shellscript',
  zsh: 'shellscript', vim: 'viml', py: 'python', rs: 'rust', conf: 'ini', plist: 'xml', md: 'markdown',
};

/** The grammars by their Shiki name, for a language picker: one entry each, sorted. */
export const languages: string[] = [...new Set(Object.keys(grammars).map((k) => ids[k] ?? k))].sort();

/** The loader of a grammar by any of its names, or null when it is not offered. */
export function grammar(lang: string): Loader | null {
  const key = lang.trim().toLowerCase();
  if (Object.hasOwn(grammars, key)) return grammars[key];
  const alias = Object.keys(ids).find((k) => ids[k] === key);
  return alias ? grammars[alias] : null;
}

/** The Shiki name of a grammar offered by any of its names ("sh" → "shellscript"), or null. */
export function grammarId(lang: string): string | null {
  const key = lang.trim().toLowerCase();
  if (!grammar(key)) return null;
  return ids[key] ?? key;
}

/** Code longer than this is shown plain: tokenizing it would stall the UI for little gain. */
export const highlightLimit = 50_000;

/**
 * A line longer than this is one plain token: the TextMate tokenizer is
 * superlinear on long lines (a 50,000-character minified line took minutes),
 * and such a line is rarely worth colouring.
 */
export const lineLimit = 1000;

const themes = { light: 'github-light', dark: 'github-dark' } as const;

let core: Promise<HighlighterCore> | null = null;
const loaded = new Map<string, Promise<void>>();

function highlighter(): Promise<HighlighterCore> {
  core ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }] = await Promise.all([import('shiki/core'), import('shiki/engine/javascript')]);
    return createHighlighterCore({
      themes: [import('shiki/themes/github-light.mjs'), import('shiki/themes/github-dark.mjs')],
      langs: [],
      // forgiving: a grammar pattern the JS engine cannot express is skipped, not fatal.
      engine: createJavaScriptRegexEngine({ forgiving: true }),
    });
  })();
  core.catch(() => (core = null));
  return core;
}

/** The grammar name for a fence's language ("TS", "language-ts" → "typescript"; Shiki's own "shellscript" too), or "" when none is offered. */
export function languageOf(lang: string | null | undefined): string {
  const l = (lang ?? '').trim().toLowerCase().replace(/^language-/, '');
  if (Object.hasOwn(grammars, l)) return ids[l] ?? l;
  return Object.values(ids).includes(l) ? l : '';
}

async function ready(lang: string): Promise<HighlighterCore | null> {
  const key = (lang ?? '').trim().toLowerCase().replace(/^language-/, '');
  const id = languageOf(key);
  if (!id) return null;
  const h = await highlighter();
  let p = loaded.get(id);
  if (!p) {
    p = grammar(key)!().then((m) => h.loadLanguage((m as { default: Parameters<HighlighterCore['loadLanguage']>[0] }).default));
    loaded.set(id, p);
    p.catch(() => loaded.delete(id));
  }
  await p;
  return h;
}

/** One token: its text and its colour in the light and the dark theme (validated #rrggbb[aa]). */
export interface Token {
  content: string;
  light: string;
  dark: string;
  italic: boolean;
  bold: boolean;
}

const hex = /^#[0-9a-f]{3,8}$/i;
const safeColor = (c: string | undefined) => (c && hex.test(c) ? c : '');

/** Shiki's token as ours, dropping any colour that is not plain hex (exported for its test). */
export function token(t: ThemedTokenWithVariants): Token {
  const light = t.variants.light ?? {};
  const style = light.fontStyle ?? 0;
  return { content: t.content, light: safeColor(light.color), dark: safeColor(t.variants.dark?.color), italic: (style & 1) !== 0, bold: (style & 2) !== 0 };
}

/** Lines of tokens for code in lang; null when lang is not offered or the code is too long. */
export async function tokenize(code: string, lang: string): Promise<Token[][] | null> {
  if (code.length > highlightLimit) return null;
  const h = await ready(lang);
  if (!h) return null;
  return h.codeToTokensWithThemes(code, { lang: languageOf(lang), themes, tokenizeMaxLineLength: lineLimit }).map((line) => line.map(token));
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHTML = (s: string) => s.replace(/[&<>"']/g, (c) => escapes[c]);

/**
 * Highlighted HTML for code: one <span class="shk"> per token with the two
 * theme colours as --hl-light / --hl-dark (app.css picks one), lines joined
 * by "\n" for a <pre>. null when lang is not offered or the code too long.
 */
export async function highlight(code: string, lang: string): Promise<string | null> {
  const lines = await tokenize(code, lang);
  if (!lines) return null;
  return lines
    .map((line) =>
      line
        .map((t) => {
          const vars = (t.light ? `--hl-light:${t.light};` : '') + (t.dark ? `--hl-dark:${t.dark};` : '');
          const cls = 'shk' + (t.italic ? ' shk-i' : '') + (t.bold ? ' shk-b' : '');
          return `<span class="${cls}"${vars ? ` style="${vars}"` : ''}>${escapeHTML(t.content)}</span>`;
        })
        .join(''),
    )
    .join('\n');
}
