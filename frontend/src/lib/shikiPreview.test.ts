// @vitest-environment node
// The preview's highlighter is the real Shiki with the real VS Code export
// (the Go exporter's golden output for the example theme) as its theme.
import { describe, expect, it } from 'vitest';
import { highlight, previewLangs, samples } from './shikiPreview';
import example from '../test/fixtures/example.theme.json';
import { repoFile } from '../test/repo';

const vscodeTheme = repoFile('core/theme/testdata/golden/example/vscode/themes/harbour-night-color-theme.json');

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
