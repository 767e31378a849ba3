import { describe, expect, it } from 'vitest';
import { grammar, highlight, highlightLimit, languageOf, languages, lineLimit, token, tokenize } from './highlight';

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

  it('leaves unknown languages and huge code plain, and colours code of exactly the limit', async () => {
    expect(await highlight('x', 'brainfuck')).toBeNull();
    expect(await highlight('x', '')).toBeNull();
    expect(await highlight('x', null as unknown as string)).toBeNull();
    expect(await highlight('x', undefined as unknown as string)).toBeNull();
    expect(await tokenize('a'.repeat(highlightLimit + 1), 'ts')).toBeNull();
    const line = 'let a = 1;'.padEnd(lineLimit - 1, ' ') + '\n';
    const atLimit = line.repeat(Math.floor(highlightLimit / line.length)).padEnd(highlightLimit, ' ');
    expect(atLimit.length).toBe(highlightLimit);
    const lines = await tokenize(atLimit, 'ts');
    expect(lines).not.toBeNull();
    expect(lines![0].find((t) => t.content === 'let')?.light).toMatch(/^#[0-9a-f]{6}$/i);
  });

  it('shows a line longer than the line limit as one plain token, and still colours the short lines around it', async () => {
    // A 50,000-character minified line stalled the tokenizer for minutes.
    const long = 'var x = "' + 'y'.repeat(highlightLimit - 100) + '";';
    const lines = await tokenize(`const a = 1;\n${long}\nconst b = 2;`, 'ts');
    expect(lines).toHaveLength(3);
    expect(lines![1]).toHaveLength(1);
    expect(lines![1][0].content).toBe(long);
    expect(lines![0].find((t) => t.content === 'const')?.light).toMatch(/^#[0-9a-f]{6}$/i);
    expect(lines![2].find((t) => t.content === 'const')?.light).toMatch(/^#[0-9a-f]{6}$/i);
    // Just under the limit is still coloured.
    const under = 'const s = "' + 'y'.repeat(lineLimit - 20) + '";';
    expect(under.length).toBeLessThan(lineLimit);
    const u = await tokenize(under, 'ts');
    expect(u![0].length).toBeGreaterThan(1);
  });

  it('marks italic and bold tokens with their own classes', async () => {
    const code = place((await highlight('*soft* and **loud**', 'markdown'))!);
    const italic = [...code.querySelectorAll('span')].filter((s) => s.textContent?.includes('soft'));
    const bold = [...code.querySelectorAll('span')].filter((s) => s.textContent?.includes('loud'));
    expect(italic.map((s) => s.className)).toEqual(['shk shk-i']);
    expect(bold.map((s) => s.className)).toEqual(['shk shk-b']);
    const plain = [...code.querySelectorAll('span')].find((s) => s.textContent?.includes('and'))!;
    expect(plain.className).toBe('shk');
  });

  it('accepts a fence written as a class or with odd case and spaces', async () => {
    for (const lang of ['language-ts', ' Language-LUA ', 'TypeScript']) {
      const lines = await tokenize('local x = 1', lang);
      expect(lines, lang).not.toBeNull();
      expect(lines!.flat().map((t) => t.content).join(''), lang).toBe('local x = 1');
    }
    expect(await tokenize('x', 'language-')).toBeNull();
    expect(await tokenize('x', 'tslanguage-')).toBeNull();
  });

  it('maps fence names and aliases to grammars', () => {
    expect(languageOf('language-TS')).toBe('typescript');
    expect(languageOf('sh')).toBe('shellscript');
    expect(languageOf('yml')).toBe('yaml');
    expect(languageOf('json')).toBe('json');
    expect(languageOf('language-shellscript')).toBe('shellscript'); // Shiki's own names too
    expect(languageOf('VimL')).toBe('viml');
    expect(languageOf(' TS ')).toBe('typescript');
    expect(languageOf('tslanguage-')).toBe(''); // only a leading "language-" is a class prefix
    expect(languageOf(null)).toBe('');
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

  it('drops a colour that is not plain hex, so a theme cannot smuggle CSS into the style', () => {
    for (const bad of ['red', '#12345g', '#ff0000;background:url(https://x)', 'var(--x)', '#1', '#123456789', ' #123456']) {
      const t = token({ content: 'x', offset: 0, variants: { light: { color: bad, fontStyle: 0 }, dark: { color: bad, fontStyle: 0 } } } as never);
      expect([t.light, t.dark], bad).toEqual(['', '']);
    }
    const ok = token({ content: 'x', offset: 0, variants: { light: { color: '#AbC', fontStyle: 3 }, dark: { color: '#11223344' } } } as never);
    expect(ok).toEqual({ content: 'x', light: '#AbC', dark: '#11223344', italic: true, bold: true });
    const none = token({ content: 'y', offset: 0, variants: {} } as never);
    expect(none).toEqual({ content: 'y', light: '', dark: '', italic: false, bold: false });
  });
});
