import { JSDOM } from 'jsdom';
import { Marked } from 'marked';
import { afterEach, describe, expect, it } from 'vitest';
import { allowedAttrs, allowedTags, classifyLink, renderMarkdown } from './markdown';
import { repoFile } from '../test/repo';

// Every payload tries to set window.__xss. A separate JSDOM that really runs
// scripts and inline handlers checks the sanitized HTML: the harness itself
// is proven able to catch execution by the unsanitized controls below.
const corpus: [string, string][] = [
  ['img onerror', '<img src=x onerror="window.__xss=1">'],
  ['script tag', '<script>window.__xss=1</script>'],
  ['script in markdown list', '- item <script>window.__xss=1</script>'],
  ['javascript link (html)', '<a href="javascript:window.__xss=1">click</a>'],
  ['javascript link (markdown)', '[click](javascript:window.__xss=1)'],
  ['javascript link, entity-encoded', '[x](jav&#x09;ascript:window.__xss=1)'],
  ['svg onload', '<svg onload="window.__xss=1"><circle r=1 /></svg>'],
  ['svg script', '<svg><script>window.__xss=1</script></svg>'],
  ['iframe srcdoc', '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>'],
  ['data: html link', '[x](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==)'],
  ['data: svg image', '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9IndpbmRvdy5fX3hzcz0xIj48L3N2Zz4=)'],
  ['body onload', '<body onload="window.__xss=1">'],
  ['details ontoggle', '<details open ontoggle="window.__xss=1"><summary>s</summary></details>'],
  ['mouseover on div', '<div onmouseover="window.__xss=1">hover</div>'],
  ['style with expression', '<p style="background:url(javascript:window.__xss=1)">p</p>'],
  ['object data', '<object data="javascript:window.__xss=1"></object>'],
  ['embed', '<embed src="javascript:window.__xss=1">'],
  ['form action', '<form action="javascript:window.__xss=1"><button>go</button></form>'],
  ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:window.__xss=1">'],
  ['base href', '<base href="javascript:window.__xss=1//">'],
  ['math href', '<math href="javascript:window.__xss=1">x</math>'],
  ['input autofocus onfocus', '<input autofocus onfocus="window.__xss=1">'],
  ['markdown image onerror in title', '![a](x "\\" onerror=\\"window.__xss=1")'],
  ['code span keeps text', '`<img src=x onerror=window.__xss=1>`'],
];

const events = ['error', 'load', 'click', 'mouseover', 'focus', 'toggle', 'submit'];

/** Inserts html into a script-running DOM, fires every event on every element, reports whether __xss got set. */
function executes(html: string): boolean {
  const dom = new JSDOM('<!doctype html><html><body></body></html>', { runScripts: 'dangerously' });
  const { document } = dom.window;
  document.body.innerHTML = html;
  // Parsed <script> elements are inert; re-create each so it runs if it survived.
  for (const old of Array.from(document.body.querySelectorAll('script'))) {
    const s = document.createElement('script');
    s.textContent = old.textContent;
    old.replaceWith(s);
  }
  for (const el of Array.from(document.body.querySelectorAll('*'))) {
    for (const type of events) el.dispatchEvent(new dom.window.Event(type));
    if (el.tagName === 'A') {
      const href = el.getAttribute('href') ?? '';
      if (/^\s*javascript:/i.test(href)) dom.window.eval(decodeURIComponent(href.replace(/^\s*javascript:/i, '')));
    }
  }
  const hit = (dom.window as unknown as { __xss?: unknown }).__xss !== undefined;
  dom.window.close();
  return hit;
}

afterEach(() => {
  delete (window as unknown as { __xss?: unknown }).__xss;
});

describe('markdown sanitizing', () => {
  it('the harness detects execution of unsanitized payloads', () => {
    const raw = new Marked({ async: false });
    for (const p of ['<script>window.__xss=1</script>', '<img src=x onerror="window.__xss=1">', '[c](javascript:window.__xss=1)', '<div onmouseover="window.__xss=1">h</div>']) {
      expect(executes(raw.parse(p) as string), p).toBe(true);
    }
  });

  it.each(corpus)('%s: nothing executes and no dangerous markup survives', (_name, payload) => {
    const html = renderMarkdown(payload);
    expect(executes(html)).toBe(false);

    const host = document.createElement('div');
    host.innerHTML = html;
    document.body.appendChild(host);
    expect((window as unknown as { __xss?: unknown }).__xss).toBeUndefined();
    expect(host.querySelectorAll('script, iframe, svg, math, object, embed, form, input, meta, base, style, button')).toHaveLength(0);
    for (const el of Array.from(host.querySelectorAll('*'))) {
      for (const attr of Array.from(el.attributes)) {
        expect(attr.name, `${el.tagName} ${attr.name}`).not.toMatch(/^on|^style$|^srcdoc$|^formaction$/i);
        expect(attr.value, `${el.tagName} ${attr.name}`).not.toMatch(/^\s*(javascript|vbscript|data:text\/html)/i);
      }
    }
    for (const img of Array.from(host.querySelectorAll('img'))) {
      const src = img.getAttribute('src');
      expect(src === null || /^data:image\/(png|gif|jpe?g|webp);/.test(src)).toBe(true);
    }
    host.remove();
  });

  it('keeps ordinary Markdown and hardens links', () => {
    const host = document.createElement('div');
    host.innerHTML = renderMarkdown('# Title\n\nSome **bold** and `code`.\n\n- [docs](https://example.com/a?b=1)\n\n```ts\nconst x = 1 < 2;\n```');
    expect(host.querySelector('h1')?.textContent).toBe('Title');
    expect(host.querySelector('strong')?.textContent).toBe('bold');
    expect(host.querySelector('pre code')?.textContent).toBe('const x = 1 < 2;\n');
    const a = host.querySelector('a')!;
    expect(a.getAttribute('href')).toBe('https://example.com/a?b=1');
    // Nothing that asks for a new window or a browsing context: the guard
    // hands the link to Go instead.
    expect(a.getAttribute('target')).toBeNull();
    expect(Array.from(a.attributes).map((x) => x.name)).toEqual(['href']);
  });

  it('renders task lists without form elements', () => {
    const host = document.createElement('div');
    host.innerHTML = renderMarkdown('- [x] done\n- [ ] open');
    expect(host.querySelector('input')).toBeNull();
    expect(host.textContent).toContain('☑ done');
    expect(host.textContent).toContain('☐ open');
  });

  it('keeps tables, alignment, ordered-list start and code languages, and nothing else', () => {
    const host = document.createElement('div');
    host.innerHTML = renderMarkdown('3. three\n4. four\n\n| a | b |\n|:-:|--:|\n| 1 | 2 |\n\n```ts\nx\n```\n\n<code class="evil">c</code> <span style="color:red" id="clobber" class="x">s</span>');
    expect(host.querySelector('ol')?.getAttribute('start')).toBe('3');
    expect(host.querySelector('th')?.getAttribute('align')).toBe('center');
    expect(host.querySelector('pre code')?.getAttribute('class')).toBe('language-ts');
    const inline = host.querySelectorAll('p code')[0];
    expect(inline.getAttribute('class')).toBeNull();
    const span = host.querySelector('span')!;
    expect(Array.from(span.attributes)).toHaveLength(0);
  });
});

// The navigation corpus the fake agent streams in the window test; one file
// for both, so the sanitizer is proven against exactly what the window sees.
const url = 'http://127.0.0.1:4567';
const navCorpus = repoFile('internal/testrig/fakeagent/navigation.md').replaceAll('{{URL}}', url);

describe('the navigation corpus after sanitizing', () => {
  const host = document.createElement('div');
  host.innerHTML = renderMarkdown(navCorpus);
  const all = Array.from(host.querySelectorAll('*'));

  it('keeps only allowlisted elements and attributes', () => {
    expect(all.length).toBeGreaterThan(20);
    for (const el of all) {
      expect(allowedTags, el.outerHTML).toContain(el.tagName.toLowerCase());
      for (const a of Array.from(el.attributes)) expect(allowedAttrs, `${el.tagName} ${a.name}`).toContain(a.name);
    }
    expect(host.querySelectorAll('map, area, form, input, button, base, meta, link, style, svg, math, iframe, object, embed, video')).toHaveLength(0);
    expect(host.querySelectorAll('[target], [usemap], [ping], [download], [formaction], [action], [rel]')).toHaveLength(0);
  });

  it('leaves no link the guard could not hand to Go, and no remote image', () => {
    for (const a of Array.from(host.querySelectorAll('[href]'))) {
      const href = a.getAttribute('href') ?? '';
      expect(href, a.outerHTML).not.toMatch(/^\s*(javascript|data|vbscript):/i);
      expect(classifyLink(href).kind, href).not.toBe('none');
    }
    for (const img of Array.from(host.querySelectorAll('img'))) {
      const src = img.getAttribute('src');
      expect(src === null || src.startsWith('data:image/png;'), String(src)).toBe(true);
    }
    expect(host.innerHTML).not.toContain(`${url}/v/img`);
    expect(host.innerHTML).not.toContain(`${url}/v/meta`);
  });

  it('still shows every vector\'s label and text', () => {
    for (const label of ['area', 'target', 'image-link', 'form', 'svg', 'math', 'javascript', 'data', 'file', 'base', 'middle', 'enter', 'drag', 'passive']) {
      expect(host.textContent).toContain(`⟦${label}⟧`);
    }
    expect(host.textContent).toContain('submit the form');
  });

  it('shows code that looks like HTML as text', () => {
    const host = document.createElement('div');
    host.innerHTML = renderMarkdown('`<img src=x onerror=alert(1)>`');
    expect(host.querySelector('img')).toBeNull();
    expect(host.querySelector('code')?.textContent).toBe('<img src=x onerror=alert(1)>');
  });
});

describe('classifyLink', () => {
  it.each([
    ['https://example.com', 'web'],
    ['HTTP://EXAMPLE.COM', 'web'],
    ['mailto:a@b.c', 'web'],
    ['theme.json', 'path'],
    ['/home/dev/themes/work/theme.json', 'path'],
    ['file:///home/dev/x', 'path'],
    ['javascript:alert(1)', 'none'],
    [' JavaScript:alert(1)', 'none'],
    ['data:text/html,x', 'none'],
    ['vscode://open', 'none'],
    ['#anchor', 'none'],
    [null, 'none'],
  ])('%s → %s', (href, kind) => {
    expect(classifyLink(href).kind).toBe(kind);
  });
});
