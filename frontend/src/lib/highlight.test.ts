import { describe, expect, it } from 'vitest';
import { highlight, highlightLimit, languageOf, tokenize } from './highlight';

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
    expect(languageOf('constructor')).toBe('');
    expect(languageOf('__proto__')).toBe('');
  });
});
