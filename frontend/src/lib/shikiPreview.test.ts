// @vitest-environment node
// The preview's highlighter is the real Shiki with the real VS Code export
// (the Go exporter's golden output for the example theme) as its theme.
import { describe, expect, it } from 'vitest';
import { fenceLangs, highlight, previewLangs, samples, tokenStyle } from './shikiPreview';
import example from '../test/fixtures/example.theme.json';
import { repoFile } from '../test/repo';

const vscodeTheme = repoFile('core/targets/testdata/golden/example/vscode/themes/harbour-night-color-theme.json');

function colourOf(lines: { text: string; color?: string }[][], text: string): string | undefined {
  for (const l of lines) for (const t of l) if (t.text.trim() === text) return t.color?.toLowerCase();
  return undefined;
}

describe('Shiki preview', () => {
  it('paints each language with the exported theme', async () => {
    const s = example.syntax;
    const want: Record<string, [string, string][]> = {
      typescript: [['import', s.keyword], ['const', s.keyword], ['shade', s.function], ['12', s.number], ["'./colour'", s.string]],
      python: [['def', s.keyword], ['ramp', s.function], ['8', s.number], ['Swatch', s.type]],
      rust: [['fn', s.keyword], ['channel', s.function], ['255', s.number]],
      go: [['func', s.keyword], ['4', s.number], ['"fmt"', s.string]],
    };
    for (const lang of previewLangs) {
      const lines = await highlight(samples[lang].code, lang, vscodeTheme);
      expect(lines.length).toBe(samples[lang].code.split('\n').length);
      for (const [text, colour] of want[lang]) expect(colourOf(lines, text), `${lang} ${text}`).toBe(colour.toLowerCase());
    }
  }, 30_000);

  it('renders comments in the comment colour and italic, as the theme says', async () => {
    const lines = await highlight(samples.typescript.code, 'typescript', vscodeTheme);
    const comment = lines[0].find((t) => t.text.includes('Paint the harbour'));
    expect(comment?.color?.toLowerCase()).toBe(example.syntax.comment.toLowerCase());
    expect(comment?.italic).toBe(true);
  });
});

/** A small VS Code theme as the agent might write it: keyword colour kw, bold and underlined. */
const theme = (kw: string, name = 't') =>
  JSON.stringify({
    name,
    type: 'dark',
    colors: { 'editor.foreground': '#cccccc', 'editor.background': '#101010' },
    tokenColors: [
      { scope: 'keyword, storage.type', settings: { foreground: kw, fontStyle: 'bold underline' } },
      { scope: 'comment', settings: { foreground: '#777777', fontStyle: 'italic' } },
    ],
  });

describe('Shiki preview with the agent\'s theme', () => {
  it('carries bold, underline and italic from the theme', async () => {
    const lines = await highlight('// note\nconst a = 1;', 'typescript', theme('#ff0000'));
    const kw = lines[1].find((t) => t.text === 'const')!;
    expect(kw).toEqual({ text: 'const', color: '#FF0000', italic: false, bold: true, underline: true });
    const comment = lines[0].find((t) => t.text.includes('note'))!;
    expect([comment.italic, comment.bold, comment.underline]).toEqual([true, false, false]);
    const plain = lines[1].find((t) => t.text.trim() === 'a')!;
    expect([plain.italic, plain.bold, plain.underline, plain.color?.toLowerCase()]).toEqual([false, false, false, '#cccccc']);
  });

  it('repaints when the agent rewrites the theme, and keeps painting past the theme cache', async () => {
    // More rewrites than the highlighter keeps themes for: each one must
    // still paint its own colour, and an early one comes back right.
    for (let i = 0; i < 40; i++) {
      const kw = `#${(0x100000 + i * 0x10101).toString(16).slice(-6)}`;
      const lines = await highlight('const a = 1;', 'typescript', theme(kw, `rewrite-${i}`));
      expect(lines[0][0].color?.toLowerCase(), `rewrite ${i}`).toBe(kw);
    }
    const again = await highlight('const a = 1;', 'typescript', theme('#100000', 'rewrite-0'));
    expect(again[0][0].color?.toLowerCase()).toBe('#100000');
  }, 30_000);

  it('loads any grammar highlight.ts offers, and refuses one it does not', async () => {
    const lines = await highlight('local x = 1', 'lua', theme('#00ff00'));
    expect(lines[0].find((t) => t.text === 'local')?.color?.toLowerCase()).toBe('#00ff00');
    await expect(highlight('x', 'brainfuck', theme('#00ff00'))).rejects.toThrow('no grammar for brainfuck');
  });

  it('refuses a theme that is not JSON', async () => {
    await expect(highlight('x', 'typescript', '{ not json')).rejects.toThrow(SyntaxError);
  });
});

describe('Markdown fences in the preview', () => {
  // A fenced block is painted with its own grammar, as VS Code paints it:
  // each line of the block gives the tokens the block's text gives alone.
  const blocks: [string, string][] = [
    ['json', '{ "name": "Harbour", "contrast": 4.5, "dark": true }'],
    ['yaml', 'name: Harbour\nsyntax:\n  keyword: "#ff8080" # warm'],
    ['bash', 'cdxtheme export --format all "$HOME/theme.json" && echo done'],
  ];
  const doc = (lang: string, body: string) => `# Guide\n\n\`\`\`${lang}\n${body}\n\`\`\`\n\nAfter.`;

  it('paints each block with its own grammar, loaded after Markdown too', async () => {
    // Markdown first with no fence: a grammar loaded later must still reach it.
    await highlight('# Guide', 'markdown', vscodeTheme);
    for (const [lang, body] of blocks) {
      const md = await highlight(doc(lang, body), 'markdown', vscodeTheme);
      const alone = await highlight(body, lang, vscodeTheme);
      const inner = md.slice(3, 3 + alone.length);
      const paint = (ls: { text: string; color?: string }[][]) => ls.map((l) => l.filter((t) => t.text.trim()).map((t) => [t.text.trim(), t.color?.toLowerCase()]));
      expect(paint(inner), lang).toEqual(paint(alone));
      expect(new Set(paint(alone).flat().map((t) => t[1])).size, `${lang} has colours`).toBeGreaterThan(2);
    }
    // VS Code's Markdown grammar has no rule for a toml fence: its lines
    // stay one token each, as there.
    const toml = await highlight(doc('toml', 'sea = "#1e6fa8"\ndepth = 3'), 'markdown', vscodeTheme);
    expect(toml.slice(3, 5).map((l) => l.length)).toEqual([1, 1]);
  }, 30_000);

  it('names the grammars a document fences, by Shiki name, bounded, skipping unknown ones', () => {
    expect(fenceLangs('```json\n{}\n```\n~~~ sh\nls\n~~~\n   ```YAML\na: 1\n```\n```nosuchlang\nx\n```\n    ```toml')).toEqual(['json', 'shellscript', 'yaml']);
    const many = ['json', 'yaml', 'toml', 'bash', 'lua', 'css', 'html', 'xml', 'diff', 'ini', 'go'].map((l) => `\`\`\`${l}\nx\n\`\`\``).join('\n');
    expect(fenceLangs(many)).toHaveLength(8);
  });
});

it('names each sample\'s tab with a file of its own language', () => {
  const ext: Record<string, string> = { typescript: '.ts', python: '.py', rust: '.rs', go: '.go' };
  for (const lang of previewLangs) expect(samples[lang].file, lang).toMatch(new RegExp(`^[a-z]+\\${ext[lang]}$`));
});

describe('tokenStyle', () => {
  it.each([
    [{ color: '#a1b2c3' }, 'color: #a1b2c3'],
    [{ color: '#A1B2C3FF' }, 'color: #A1B2C3FF'],
    [{ color: '#abc' }, ''],
    [{ color: 'red' }, ''],
    [{ color: '#a1b2c3; background: url(https://x)' }, ''],
    [{ color: 'x#a1b2c3' }, ''],
    [{ color: '#a1b2c3x' }, ''],
    [{}, ''],
    [{ color: '#000000', italic: true }, 'color: #000000; font-style: italic'],
    [{ color: '#000000', bold: true }, 'color: #000000; font-weight: 700'],
    [{ italic: true, bold: true }, '; font-style: italic; font-weight: 700'],
  ])('%j → %j', (t, want) => {
    expect(tokenStyle({ text: 'x', italic: false, bold: false, underline: false, ...t })).toBe(want);
  });
});
