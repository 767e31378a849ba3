// Agent text is untrusted. It is rendered with marked and then sanitized with
// DOMPurify; links never navigate the webview, they go to Go via api.ts.
import { Marked } from 'marked';
import DOMPurify from 'dompurify';
import { openLink, openPath } from './api';

const marked = new Marked({ gfm: true, breaks: true, async: false });

/** Above this size text is shown verbatim: re-rendering megabytes of Markdown per frame would freeze the UI. */
export const markdownLimit = 256 * 1024;

let hooked = false;
function purifier() {
  if (!hooked) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      const el = node as Element;
      if (el.tagName === 'A') {
        el.setAttribute('rel', 'noopener noreferrer');
        el.setAttribute('target', '_blank');
      }
      if (el.tagName === 'IMG') {
        // Only inline images: a remote src would let agent text phone home.
        const src = el.getAttribute('src') ?? '';
        if (!/^data:image\/(png|gif|jpe?g|webp);/i.test(src)) el.removeAttribute('src');
      }
    });
    hooked = true;
  }
  return DOMPurify;
}

const sanitizeConfig = {
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'frame', 'object', 'embed', 'svg', 'math', 'base', 'meta', 'link'],
  FORBID_ATTR: ['style', 'srcdoc', 'formaction', 'xlink:href', 'action'],
  ALLOW_DATA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
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

/** What a click on an agent-supplied link should do. */
export type LinkAction = { kind: 'web'; url: string } | { kind: 'path'; path: string } | { kind: 'none' };

export function classifyLink(href: string | null): LinkAction {
  if (!href) return { kind: 'none' };
  const h = href.trim();
  if (/^(https?:|mailto:)/i.test(h)) return { kind: 'web', url: h };
  if (/^file:\/\//i.test(h)) return { kind: 'path', path: h };
  if (/^[a-z][a-z0-9+.-]*:/i.test(h)) return { kind: 'none' }; // javascript:, data:, custom schemes
  if (h.startsWith('#')) return { kind: 'none' };
  return { kind: 'path', path: h };
}

/**
 * Click handler for containers of rendered Markdown. Stops the webview from
 * navigating and hands the link to Go, which checks it again.
 */
export function interceptLinks(event: MouseEvent, workspaceId: string | null | undefined, onError?: (msg: string) => void): void {
  const target = event.target as Element | null;
  const a = target?.closest?.('a');
  if (!a) return;
  event.preventDefault();
  const action = classifyLink(a.getAttribute('href'));
  const fail = (e: unknown) => onError?.(typeof e === 'string' ? e : e instanceof Error ? e.message : String(e));
  if (action.kind === 'web') openLink(action.url).catch(fail);
  else if (action.kind === 'path' && workspaceId) openPath(workspaceId, action.path).catch(fail);
}
