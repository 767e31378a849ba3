import { JSDOM } from 'jsdom';
import { Marked } from 'marked';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyLink, renderMarkdown } from './markdown';

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
    expect(a.getAttribute('rel')).toBe('noopener noreferrer');
    expect(a.getAttribute('target')).toBe('_blank');
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
