// Highlights the preview's code samples with Shiki (a real TextMate
// highlighter, the engine VS Code uses) and the theme's own VS Code export
// as the Shiki theme, so the preview paints what VS Code will paint.
// Everything is imported lazily and fine-grained: the core, the JavaScript
// regex engine (no WebAssembly, which the CSP does not allow) and four
// grammars, on first use.
import type { HighlighterCore, ThemeRegistrationRaw } from 'shiki/core';
import { grammar, grammarId } from './highlight';

export const previewLangs = ['typescript', 'python', 'rust', 'go'] as const;
export type PreviewLang = (typeof previewLangs)[number];

export interface Token {
  text: string;
  color?: string;
  italic: boolean;
  bold: boolean;
  underline: boolean;
}

let highlighter: Promise<HighlighterCore> | null = null;
const loaded = new Map<string, string>(); // theme JSON → registered name
const maxThemes = 32; // an agent rewrites theme.json often: start afresh past this

async function create(): Promise<HighlighterCore> {
  const [{ createHighlighterCore }, { createJavaScriptRegexEngine }] = await Promise.all([import('shiki/core'), import('shiki/engine/javascript')]);
  return createHighlighterCore({
    themes: [],
    langs: [import('shiki/langs/typescript.mjs'), import('shiki/langs/python.mjs'), import('shiki/langs/rust.mjs'), import('shiki/langs/go.mjs')],
    engine: createJavaScriptRegexEngine(),
  });
}

/** Registers a VS Code colour theme (JSON text) once and returns its name. */
async function themeName(h: HighlighterCore, vscodeTheme: string): Promise<string> {
  const known = loaded.get(vscodeTheme);
  if (known) return known;
  const raw = JSON.parse(vscodeTheme) as ThemeRegistrationRaw;
  // Unique within one highlighter: loaded is cleared whenever the highlighter is replaced.
  const name = `cdx-${loaded.size}`;
  await h.loadTheme({ ...raw, name });
  loaded.set(vscodeTheme, name);
  return name;
}

const langsLoaded = new WeakMap<HighlighterCore, Set<string>>();

/** Loads a grammar of highlight.ts's list into the preview's highlighter once. */
async function ensureLang(h: HighlighterCore, lang: string): Promise<void> {
  const have = langsLoaded.get(h) ?? new Set<string>(previewLangs);
  langsLoaded.set(h, have);
  if (have.has(lang)) return;
  const load = grammar(lang);
  if (!load) throw new Error(`no grammar for ${lang}`);
  const m = (await load()) as { default: Parameters<HighlighterCore['loadLanguage']>[0] };
  await h.loadLanguage(m.default);
  have.add(lang);
}

/** At most this many fence grammars are loaded for one Markdown document. */
const maxFenceLangs = 8;

/**
 * The grammars a Markdown document's fenced blocks name (```json, ~~~yaml),
 * by Shiki name, among highlight.ts's: Shiki's Markdown grammar paints a
 * block it knows (json, yaml, shell; not toml) with the block's own grammar
 * only once that grammar is loaded, and VS Code, which has them all, paints
 * it so.
 */
export function fenceLangs(code: string): string[] {
  const out = new Set<string>();
  for (const m of code.matchAll(/^ {0,3}(?:`{3,}|~{3,})[ \t]*([A-Za-z][\w+#.-]*)/gm)) {
    const id = grammarId(m[1]);
    if (id) out.add(id);
    if (out.size >= maxFenceLangs) break;
  }
  return [...out];
}

/** The grammars Shiki's (VS Code's) Markdown grammar paints a fence with, by Shiki name. */
async function markdownEmbeds(): Promise<Set<string>> {
  const m = (await grammar('markdown')!()) as { default: { embeddedLangsLazy?: string[] }[] };
  return new Set(m.default.flatMap((g) => g.embeddedLangsLazy ?? []));
}

/** Tokens of code, line by line, coloured by the VS Code theme; lang is a preview language or any of highlight.ts's grammars. */
export async function highlight(code: string, lang: string, vscodeTheme: string): Promise<Token[][]> {
  if (loaded.size >= maxThemes && !loaded.has(vscodeTheme)) {
    const old = highlighter;
    highlighter = null;
    loaded.clear();
    old?.then((h) => h.dispose()).catch(() => {});
  }
  highlighter ??= create();
  const h = await highlighter;
  const theme = await themeName(h, vscodeTheme);
  if (grammarId(lang) === 'markdown') {
    const embeds = await markdownEmbeds();
    for (const l of fenceLangs(code)) if (embeds.has(l)) await ensureLang(h, l);
  }
  await ensureLang(h, lang);
  // No tokenizing time limit: the first line of the first sample pays for
  // compiling the grammar's regexes, and vscode-textmate gives up on a line
  // that takes longer than the limit (500 ms by default), leaving a "//"
  // comment open into the next line. The samples and grammars are ours and
  // small. The window test checks the colours in WebKitGTK's own engine.
  return h.codeToTokensBase(code, { lang, theme, tokenizeTimeLimit: 0 }).map((line) =>
    line.map((t) => ({
      text: t.content,
      color: t.color,
      italic: ((t.fontStyle ?? 0) & 1) !== 0,
      bold: ((t.fontStyle ?? 0) & 2) !== 0,
      underline: ((t.fontStyle ?? 0) & 4) !== 0,
    })),
  );
}

/** A token's inline style: its colour when it is a plain #hex (the theme came from an agent), italic, bold. */
export function tokenStyle(tok: Token): string {
  return (tok.color && /^#(?:[0-9a-f]{6}|[0-9a-f]{8})$/i.test(tok.color) ? `color: ${tok.color}` : '') + (tok.italic ? '; font-style: italic' : '') + (tok.bold ? '; font-weight: 700' : '');
}

/** The samples: each uses keywords, strings, comments, numbers, functions, types, constants and operators. */
export const samples: Record<PreviewLang, { file: string; code: string }> = {
  typescript: {
    file: 'theme.ts',
    code: `// Paint the harbour at dusk
import { mix } from './colour';

export interface Swatch {
  name: string;
  alpha?: number;
}

const MAX_SHADES = 12;

export function shade(base: Swatch, step = 0.1): string {
  return mix(base.name, '#000', step * MAX_SHADES);
}`,
  },
  python: {
    file: 'palette.py',
    code: `"""Build a palette from a base colour."""
from dataclasses import dataclass

STEPS: int = 8


@dataclass
class Swatch:
    name: str
    hex: str = "#7fb4ff"


def ramp(base: Swatch, steps=STEPS) -> list[Swatch]:
    # lighter toward white, one step at a time
    return [Swatch(f"{base.name}-{i}", base.hex) for i in range(steps) if i % 2 == 0]`,
  },
  rust: {
    file: 'contrast.rs',
    code: `/// WCAG relative luminance of an sRGB channel.
fn channel(v: u8) -> f64 {
    let s = f64::from(v) / 255.0;
    if s <= 0.04045 { s / 12.92 } else { ((s + 0.055) / 1.055).powf(2.4) }
}

pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    pub const BLACK: Rgb = Rgb(0, 0, 0);
    pub fn luminance(&self) -> f64 {
        0.2126 * channel(self.0) + 0.7152 * channel(self.1) + 0.0722 * channel(self.2)
    }
}`,
  },
  go: {
    file: 'export.go',
    code: `package theme

import "fmt"

// Format is one export target.
type Format struct {
	ID    string
	Files []string
}

const maxFiles = 4

func (f Format) String() string {
	if len(f.Files) > maxFiles {
		return fmt.Sprintf("%s (%d files)", f.ID, len(f.Files))
	}
	return f.ID
}`,
  },
};
