// The navigation guard: ONE capture-phase listener set on the document that
// stops every activation of anything carrying a URL — a click, a middle or
// other auxiliary click, Enter or Space on a focused element, a drag started
// on a link or image, a link or file dropped onto the window, a form
// submission — before the webview acts on it. Real links are handed to Go
// (api.openLink / api.openPath), which checks them again; the webview itself
// never navigates. Go's navigation lock (app/navlock) holds underneath even
// when this page is bypassed.
import { openLink, openPath } from './api';
import { classifyLink } from './markdown';

const xlink = 'http://www.w3.org/1999/xlink';

/** The URL an element carries when activated (a, area, SVG a, …), or null. */
export function urlOf(el: Element): string | null {
  return el.getAttribute('href') ?? el.getAttributeNS(xlink, 'href') ?? el.getAttribute('formaction');
}

/** The nearest element on the event's path that carries a URL, or null. */
export function carrierOf(ev: Event): Element | null {
  for (const node of ev.composedPath()) {
    if (node instanceof Element && urlOf(node) !== null) return node;
  }
  return null;
}

/** Where a path link is resolved: the workspace of the Markdown it sits in. */
export const workspaceAttr = 'data-link-workspace';

/** Fired (bubbling) on a link whose opening Go refused; detail is the message. */
export const linkErrorEvent = 'cdx-link-error';

export interface Opener {
  openLink(url: string): Promise<void>;
  openPath(workspaceId: string, path: string): Promise<void>;
}

function editable(t: EventTarget | null): boolean {
  return t instanceof HTMLElement && (t.isContentEditable || t instanceof HTMLTextAreaElement || (t instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image'].includes(t.type)));
}

/** What a drag brings into the window that could navigate it. */
function carriesNavigable(dt: DataTransfer | null): boolean {
  if (!dt) return true;
  const types = Array.from(dt.types ?? []);
  return types.length === 0 || types.some((t) => t === 'Files' || t === 'text/uri-list' || t === 'text/x-moz-url' || t === 'text/html' || t === 'URL');
}

/**
 * Installs the guard on doc; returns the uninstaller. Every listener runs in
 * the capture phase on the document, so nothing in the page sees (or can
 * stop) the activation before it is stopped.
 */
export function installNavigationGuard(doc: Document = document, opener: Opener = { openLink, openPath }): () => void {
  const route = (carrier: Element) => {
    const href = carrier.getAttribute('href') ?? carrier.getAttributeNS(xlink, 'href');
    const action = classifyLink(href);
    const fail = (e: unknown) => {
      const msg = typeof e === 'string' ? e : e instanceof Error ? e.message : String(e);
      carrier.dispatchEvent(new CustomEvent(linkErrorEvent, { detail: msg, bubbles: true }));
    };
    const workspace = carrier.closest(`[${workspaceAttr}]`)?.getAttribute(workspaceAttr) ?? '';
    if (action.kind === 'web') opener.openLink(action.url).catch(fail);
    else if (action.kind === 'path' && workspace) opener.openPath(workspace, action.path).catch(fail);
  };
  const stop = (ev: Event) => {
    ev.preventDefault();
    ev.stopPropagation();
  };

  const onClick = (ev: MouseEvent) => {
    const c = carrierOf(ev);
    if (!c) return;
    stop(ev);
    if (ev.button === 0) route(c);
  };
  const onAuxClick = (ev: MouseEvent) => {
    const c = carrierOf(ev);
    if (!c) return;
    stop(ev);
    if (ev.button === 1) route(c); // a middle-click means "open it", never a new window here
  };
  const onMouseDown = (ev: MouseEvent) => {
    // A middle press on a link would start autoscroll or an "open in new
    // window" gesture; elsewhere it stays X11's paste.
    if (ev.button === 1 && carrierOf(ev)) ev.preventDefault();
  };
  const onKeyDown = (ev: KeyboardEvent) => {
    if (ev.key !== 'Enter' && ev.key !== ' ' && ev.key !== 'Spacebar') return;
    const c = carrierOf(ev);
    if (!c) return;
    stop(ev);
    if (ev.key === 'Enter' && !ev.repeat) route(c);
  };
  const onDragStart = (ev: DragEvent) => {
    for (const node of ev.composedPath()) {
      if (node instanceof Element && (urlOf(node) !== null || node.tagName === 'IMG')) {
        ev.preventDefault();
        return;
      }
    }
  };
  const onDragOver = (ev: DragEvent) => {
    // Text dragged into a text field is the field's business; anything that
    // could be loaded (a link, a file, HTML) is accepted by the page here so
    // the webview never falls back to loading it. Drop zones (the composer's
    // attachments) still get the drop.
    if (editable(ev.target) && !Array.from(ev.dataTransfer?.types ?? []).includes('Files')) return;
    if (carriesNavigable(ev.dataTransfer)) ev.preventDefault();
  };
  const onDrop = (ev: DragEvent) => {
    if (editable(ev.target) && !Array.from(ev.dataTransfer?.types ?? []).includes('Files')) return;
    ev.preventDefault(); // never a load; drop zones below still see the event
  };
  const onSubmit = (ev: Event) => {
    ev.preventDefault(); // the app's own forms handle submit in script
  };

  const listeners: [string, EventListener][] = [
    ['click', onClick as EventListener],
    ['auxclick', onAuxClick as EventListener],
    ['mousedown', onMouseDown as EventListener],
    ['keydown', onKeyDown as EventListener],
    ['dragstart', onDragStart as EventListener],
    ['dragover', onDragOver as EventListener],
    ['drop', onDrop as EventListener],
    ['submit', onSubmit],
  ];
  for (const [type, fn] of listeners) doc.addEventListener(type, fn, { capture: true });
  return () => {
    for (const [type, fn] of listeners) doc.removeEventListener(type, fn, { capture: true });
  };
}
