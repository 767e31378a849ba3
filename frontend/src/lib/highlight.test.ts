import { describe, expect, it } from 'vitest';
import { grammar, highlight, highlightLimit, languageOf, languages, tokenize } from './highlight';

/** Puts highlight()'s HTML into a <pre><code> and returns the code element. */
function place(html: string): HTMLElement {
  const code = document.createElement('code');
  code.innerHTML = html;
  return code;
}

describe('highlight', () => {
  it('colours TypeScript with both theme variants and keeps the text exactly', async () => {
    const src = 'const accent: string = "#ff7a59";\nexport function tint(x: number) {\n  return x * 2; // twice\n}';
    const html = await highlight(src, 'ts');
    expect(html).not.toBeNull();
    const code = place(html!);
    expect(code.textContent).toBe(src);
    const spans = [...code.querySelectorAll('span')];
    expect(spans.length).toBeGreaterThan(10);
    const keyword = spans.find((s) => s.textContent === 'const')!;
    const comment = spans.find((s) => s.textContent?.includes('twice'))!;
    expect(keyword.style.getPropertyValue('--hl-light')).toMatch(/^#[0-9a-f]{6}$/i);
    expect(keyword.style.getPropertyValue('--hl-dark')).toMatch(/^#[0-9a-f]{6}$/i);
    expect(keyword.style.getPropertyValue('--hl-light')).not.toBe(comment.style.getPropertyValue('--hl-light'));
  });

  it('escapes hostile code: markup in the code stays text, only our spans and attributes exist', async () => {
    const src = '</span><img src=x onerror="alert(1)"><span class="evil" style="position:fixed">"\'&amp;<script>alert(2)</script>';
    for (const lang of ['html', 'ts', 'css', 'json', 'markdown']) {
      const html = await highlight(src, lang);
      const code = place(html!);
      expect(code.textContent, lang).toBe(src);
      for (const el of code.querySelectorAll('*')) {
        expect(el.tagName, lang).toBe('SPAN');
        expect(el.className, lang).toMatch(/^shk( shk-i)?( shk-b)?$/);
        for (const a of el.attributes) expect(['class', 'style'], lang).toContain(a.name);
        const style = el.getAttribute('style') ?? '';
        expect(style, lang).toMatch(/^(--hl-light:#[0-9a-f]{3,8};)?(--hl-dark:#[0-9a-f]{3,8};)?$/i);
      }
    }
  });

  it('leaves unknown languages and huge code plain', async () => {
    expect(await highlight('x', 'brainfuck')).toBeNull();
    expect(await highlight('x', '')).toBeNull();
    expect(await tokenize('a'.repeat(highlightLimit + 1), 'ts')).toBeNull();
  });

  it('maps fence names and aliases to grammars', () => {
    expect(languageOf('language-TS')).toBe('typescript');
    expect(languageOf('sh')).toBe('shellscript');
    expect(languageOf('yml')).toBe('yaml');
    expect(languageOf('json')).toBe('json');
    expect(languageOf('language-shellscript')).toBe('shellscript'); // Shiki's own names too
    expect(languageOf('VimL')).toBe('viml');
    expect(languageOf('constructor')).toBe('');
    expect(languageOf('__proto__')).toBe('');
  });

  // Every fence name a designer may write, with the grammar it must load: a
  // loader pointing nowhere (or at another grammar) would leave that language plain.
  const fences: Record<string, string> = {
    json: 'json', jsonc: 'jsonc', css: 'css', scss: 'scss', js: 'javascript', javascript: 'javascript',
    ts: 'typescript', typescript: 'typescript', html: 'html', toml: 'toml', yaml: 'yaml', yml: 'yaml',
    sh: 'shellscript', bash: 'shellscript', shell: 'shellscript', zsh: 'shellscript', lua: 'lua', vim: 'viml',
    python: 'python', py: 'python', go: 'go', rust: 'rust', rs: 'rust', diff: 'diff', ini: 'ini', conf: 'ini',
    xml: 'xml', plist: 'xml', md: 'markdown', markdown: 'markdown',
  };

  it('loads the right grammar for every fence name, and offers each grammar once by its own name', async () => {
    for (const [fence, id] of Object.entries(fences)) {
      expect(languageOf(fence), fence).toBe(id);
      for (const name of [fence, fence.toUpperCase(), ` ${fence} `, id]) {
        const load = grammar(name);
        expect(load, name).not.toBeNull();
        const m = (await load!()) as { default: { name: string }[] };
        expect(m.default.map((g) => g.name), name).toContain(id);
      }
    }
    expect(languages).toEqual([...new Set(Object.values(fences))].sort());
    expect(grammar('brainfuck')).toBeNull();
    expect(grammar('constructor')).toBeNull();
  });

  it('colours code in every offered grammar, named as the language picker names it', async () => {
    for (const id of languages) {
      const lines = await tokenize('x = "a" # 1\n', id);
      expect(lines, id).not.toBeNull();
      expect(lines!.flat().map((t) => t.content).join(''), id).toBe('x = "a" # 1');
    }
  });
});

