// Agent text is untrusted. It is rendered with marked and then sanitized with
// DOMPurify from an allowlist of what Markdown itself produces: nothing that
// can navigate, submit, load from the network or restyle the app survives.
// Links that remain never navigate the webview: the document's navigation
// guard (navguard.ts) hands them to Go, which checks them again.
import { Marked } from 'marked';
import DOMPurify from 'dompurify';

const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  // GFM task lists would be <input type=checkbox>: no form elements, so a
  // ballot box character stands in.
  renderer: {
    checkbox({ checked }) {
      return checked ? '☑ ' : '☐ ';
    },
  },
});

/** Above this size text is shown verbatim: re-rendering megabytes of Markdown per frame would freeze the UI. */
export const markdownLimit = 256 * 1024;

/** Every element Markdown (GFM, plus the inline HTML agents commonly write) needs. */
export const allowedTags = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'strong', 'b', 'em', 'i', 'del', 's', 'ins', 'mark', 'sub', 'sup', 'small', 'kbd', 'abbr',
  'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'dl', 'dt', 'dd',
  'table', 'thead', 'tbody', 'tr', 'th', 'td',
  'a', 'img', 'span', 'div', 'details', 'summary',
];

/** Every attribute those elements need; which element may carry which is narrowed in the hook. */
export const allowedAttrs = ['href', 'title', 'src', 'alt', 'width', 'height', 'align', 'start', 'class', 'open'];

const perTag: Record<string, string[]> = {
  A: ['href', 'title'],
  IMG: ['src', 'alt', 'title', 'width', 'height'],
  TH: ['align'],
  TD: ['align'],
  OL: ['start'],
  CODE: ['class'],
  DETAILS: ['open'],
  ABBR: ['title'],
};

/** Only inline images: a remote src would let agent text phone home. */
const inlineImage = /^data:image\/(png|gif|jpe?g|webp);/i;

let hooked = false;
function purifier() {
  if (!hooked) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      const el = node as Element;
      if (!el.attributes) return;
      const keep = perTag[el.tagName] ?? (el.tagName === 'SPAN' || el.tagName === 'DIV' ? ['title'] : []);
      for (const a of Array.from(el.attributes)) {
        if (!keep.includes(a.name)) el.removeAttribute(a.name);
      }
      if (el.tagName === 'IMG' && !inlineImage.test(el.getAttribute('src') ?? '')) el.removeAttribute('src');
      if (el.tagName === 'CODE' && !/^language-[\w+-]+$/.test(el.getAttribute('class') ?? '')) el.removeAttribute('class');
    });
    hooked = true;
  }
  return DOMPurify;
}

const sanitizeConfig = {
  ALLOWED_TAGS: allowedTags,
  ALLOWED_ATTR: allowedAttrs,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  // Links the guard knows how to hand to Go (web, mail, workspace files,
  // relative paths); DOMPurify's own list also lets tel:, sms:, xmpp: … by.
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto|file):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
  ALLOW_SELF_CLOSE_IN_ATTR: false,
};

export function sanitize(html: string): string {
  return purifier().sanitize(html, sanitizeConfig) as unknown as string;
}

/** Markdown → sanitized HTML safe to assign to innerHTML. */
export function renderMarkdown(text: string): string {
  if (!text) return '';
  const html = marked.parse(text) as string;
  return sanitize(html);
}

/** What activating an agent-supplied link should do. */
export type LinkAction = { kind: 'web'; url: string } | { kind: 'path'; path: string } | { kind: 'none' };

export function classifyLink(href: string | null): LinkAction {
  const h = (href ?? '').trim();
  if (!h) return { kind: 'none' }; // a blank href is no file to open
  if (/^(https?:|mailto:)/i.test(h)) return { kind: 'web', url: h };
  if (/^file:\/\//i.test(h)) return { kind: 'path', path: h };
  if (/^[a-z][a-z0-9+.-]*:/i.test(h)) return { kind: 'none' }; // javascript:, data:, custom schemes
  if (h.startsWith('#')) return { kind: 'none' };
  return { kind: 'path', path: h };
}
