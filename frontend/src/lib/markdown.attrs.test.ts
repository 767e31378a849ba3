// What the sanitizer keeps, element by element: markdown.test.ts proves that
// nothing hostile survives; this proves that what a designer's agent writes
// for good reasons (a table's alignment, a code block's language, an inline
// swatch image, a link to a workspace file) does, and that each attribute is
// kept only on the element that needs it.
import { describe, expect, it } from 'vitest';
import { allowedTags, classifyLink, markdownLimit, renderMarkdown, sanitize } from './markdown';

/** The element the sanitized html leaves for selector, parsed the way the chat parses it. */
function first(html: string, selector: string): Element | null {
  const host = document.createElement('div');
  host.innerHTML = sanitize(html);
  return host.querySelector(selector);
}

const attrs = (el: Element | null) => (el ? Object.fromEntries(Array.from(el.attributes).map((a) => [a.name, a.value])) : null);

const png = 'data:image/png;base64,iVBORw0KGgo=';

describe('sanitize keeps what Markdown needs', () => {
  it.each(allowedTags)('keeps <%s>', (tag) => {
    // Table parts only parse inside a table; the rest stand alone.
    const html = ['thead', 'tbody', 'tr', 'th', 'td'].includes(tag)
      ? `<table><thead><tr><th>h</th></tr></thead><tbody><tr><td>d</td></tr></tbody></table>`
      : tag === 'li'
        ? '<ul><li>x</li></ul>'
        : ['dt', 'dd'].includes(tag)
          ? '<dl><dt>t</dt><dd>d</dd></dl>'
          : tag === 'summary'
            ? '<details><summary>s</summary></details>'
            : ['br', 'hr', 'img'].includes(tag)
              ? `<${tag}>`
              : `<${tag}>x</${tag}>`;
    expect(first(html, tag), html).not.toBeNull();
  });

  it.each(['iframe', 'style', 'input', 'form', 'button', 'video', 'audio', 'link', 'textarea', 'select', 'label', 'section', 'font'])('removes <%s>', (tag) => {
    expect(first(`<p><${tag}>x</${tag}></p>`, tag)).toBeNull();
  });

  it.each([
    ['a', `<a href="https://example.com" title="docs">d</a>`, { href: 'https://example.com', title: 'docs' }],
    ['img', `<img src="${png}" alt="swatch" title="accent" width="16" height="8">`, { src: png, alt: 'swatch', title: 'accent', width: '16', height: '8' }],
    ['td', '<table><tbody><tr><td align="right">1</td></tr></tbody></table>', { align: 'right' }],
    ['th', '<table><thead><tr><th align="center">h</th></tr></thead></table>', { align: 'center' }],
    ['ol', '<ol start="7"><li>x</li></ol>', { start: '7' }],
    ['details', '<details open><summary>s</summary>body</details>', { open: '' }],
    ['abbr', '<abbr title="Display P3">P3</abbr>', { title: 'Display P3' }],
    ['span', '<span title="tip">s</span>', { title: 'tip' }],
    ['div', '<div title="tip">d</div>', { title: 'tip' }],
    ['code', '<pre><code class="language-ts">x</code></pre>', { class: 'language-ts' }],
    ['code', '<code class="language-c++">x</code>', { class: 'language-c++' }],
    ['code', '<code class="language-objective-c">x</code>', { class: 'language-objective-c' }],
  ])('keeps the attributes <%s> needs', (tag, html, want) => {
    expect(attrs(first(html, tag))).toEqual(want);
  });

  it.each([
    ['p', '<p title="t" align="center">x</p>'],
    ['div', '<div align="center" open class="x">x</div>'],
    ['ul', '<ul start="3"><li>x</li></ul>'],
    ['a', '<a href="https://e.com" width="9" height="9" align="left" class="x" alt="a">x</a>'],
    ['span', '<span class="danger" align="left" open>x</span>'],
    ['p', '<p class="x" data-x="1" aria-label="l" id="clobber" name="n">x</p>'],
    ['td', '<table><tbody><tr><td title="t" class="x">x</td></tr></tbody></table>'],
    ['h1', '<h1 title="t" class="big">x</h1>'],
  ])('strips an allowed attribute from <%s>, which does not need it', (tag, html) => {
    const el = first(html, tag)!;
    const kept = Object.keys(attrs(el)!).filter((a) => !(tag === 'a' && a === 'href'));
    expect(kept, html).toEqual([]);
  });

  it.each(['<code class="language-x y">x</code>', '<code class="hljs language-ts">x</code>', '<code class="language-">x</code>', '<code class="lang-ts">x</code>'])(
    'strips a code class that is not one language: %s',
    (html) => {
      expect(first(html, 'code')!.getAttribute('class')).toBeNull();
    },
  );
});

it('drops an attribute whose value would close a tag in XML', () => {
  expect(attrs(first('<abbr title="a/>b">x</abbr>', 'abbr'))).toEqual({});
  expect(attrs(first('<abbr title="a/b">x</abbr>', 'abbr'))).toEqual({ title: 'a/b' });
});

describe('images are inline or not shown', () => {
  it.each([png, 'data:image/gif;base64,R0lG', 'data:image/jpg;base64,/9j/', 'data:image/jpeg;base64,/9j/', 'data:image/webp;base64,UklG', 'data:IMAGE/PNG;base64,iVBO'])('keeps %s', (src) => {
    expect(first(`<img src="${src}" alt="a">`, 'img')!.getAttribute('src')).toBe(src);
  });

  it.each(['https://tracker.example/p.png', 'http://127.0.0.1/x.png', '//cdn.example/x.png', 'data:image/svg+xml;base64,PHN2Zz4=', 'data:image/pngx;base64,AA', 'file:///etc/passwd', 'x.png', 'DATA:image/png;base64,iVBO', './data:image/png;base64,iVBO'])(
    'removes the src of %s, keeping the image\'s alt text',
    (src) => {
      const img = first(`<img src="${src}" alt="logo">`, 'img')!;
      expect(img.getAttribute('src')).toBeNull();
      expect(img.getAttribute('alt')).toBe('logo');
    },
  );
});

describe('link targets', () => {
  it.each(['https://example.com/a', 'http://example.com', 'mailto:a@b.c', 'file:///home/dev/theme.json', './theme.json', 'palette/dark.json', '#frag', '/abs/path'])('keeps %s', (href) => {
    expect(first(`<a href="${href}">x</a>`, 'a')!.getAttribute('href')).toBe(href);
  });

  it.each(['tel:+123', 'sms:123', 'xmpp:a@b', 'javascript:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:x', 'vscode://open'])('removes %s', (href) => {
    const a = first(`<a href="${href}">x</a>`, 'a')!;
    expect(a.getAttribute('href')).toBeNull();
    expect(a.textContent).toBe('x');
  });
});

describe('renderMarkdown', () => {
  it('turns a single newline into one line break inside one paragraph', () => {
    const host = document.createElement('div');
    host.innerHTML = renderMarkdown('first line\nsecond line');
    expect(host.querySelectorAll('p')).toHaveLength(1);
    expect(host.querySelectorAll('p > br')).toHaveLength(1);
    expect(host.querySelector('p')!.innerHTML).toBe('first line<br>second line');
  });

  it('draws task lists as ballot boxes with no form element', () => {
    const host = document.createElement('div');
    host.innerHTML = renderMarkdown('- [x] contrast\n- [ ] export');
    expect(host.querySelectorAll('input')).toHaveLength(0);
    expect(Array.from(host.querySelectorAll('li')).map((li) => li.textContent)).toEqual(['☑ contrast', '☐ export']);
  });

  it('renders GFM strikethrough and tables', () => {
    const host = document.createElement('div');
    host.innerHTML = renderMarkdown('~~old~~\n\n| a |\n|---|\n| 1 |');
    expect(host.querySelector('del')?.textContent).toBe('old');
    expect(host.querySelector('table td')?.textContent).toBe('1');
  });

  it('renders nothing for nothing', () => {
    expect(renderMarkdown('')).toBe('');
  });

  it('shows a quarter MiB of Markdown rendered, beyond it verbatim', () => {
    expect(markdownLimit).toBe(256 * 1024);
  });
});

describe('classifyLink', () => {
  it.each([
    ['https://example.com', { kind: 'web', url: 'https://example.com' }],
    ['  http://example.com  ', { kind: 'web', url: 'http://example.com' }],
    ['MAILTO:a@b.c', { kind: 'web', url: 'MAILTO:a@b.c' }],
    ['FILE:///home/dev/x', { kind: 'path', path: 'FILE:///home/dev/x' }],
    ['file:relative', { kind: 'none' }],
    ['xmailto:a@b.c', { kind: 'none' }],
    ['xhttps://e.com', { kind: 'none' }],
    ['./a#b', { kind: 'path', path: './a#b' }],
    [' theme.json ', { kind: 'path', path: 'theme.json' }],
    ['#x', { kind: 'none' }],
    ['xfile://a', { kind: 'none' }],
    ['notes/10:30.md', { kind: 'path', path: 'notes/10:30.md' }],
    ['', { kind: 'none' }],
    ['   ', { kind: 'none' }],
    [null, { kind: 'none' }],
  ])('%j → %j', (href, want) => {
    expect(classifyLink(href)).toEqual(want);
  });
});
