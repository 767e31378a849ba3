import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installNavigationGuard } from './navguard';

// The guard's finer rules (issue 25's unwatched mutants): a held-down
// Enter opens once, only the primary button opens on click, and a drag
// whose DataTransfer the webview withholds is treated as navigable.

let calls: string[];
let uninstall: () => void;
let host: HTMLDivElement;

beforeEach(() => {
  calls = [];
  uninstall = installNavigationGuard(document, {
    openLink: async (u) => void calls.push(u),
    openPath: async (_ws, p) => void calls.push(p),
  });
  host = document.createElement('div');
  host.innerHTML =
    '<a id="l" href="https://example.com/x">x</a><p id="p">text</p><a id="rel" href="palette.json">rel</a><img id="img" src="data:image/png;base64,AA==">' +
    '<input id="text"><textarea id="area"></textarea>' +
    ['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image'].map((t) => `<input id="in-${t}" type="${t}">`).join('');
  document.body.appendChild(host);
});

afterEach(() => {
  uninstall();
  host.remove();
});

const fire = <T extends Event>(el: Element, ev: T): T => (el.dispatchEvent(ev), ev);
const $ = (id: string) => document.getElementById(id)!;

describe('the navigation guard', () => {
  it('opens a link once for a held-down Enter (key repeat is stopped, not routed)', () => {
    expect(fire($('l'), new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true })).defaultPrevented).toBe(true);
    const held = fire($('l'), new KeyboardEvent('keydown', { key: 'Enter', repeat: true, bubbles: true, cancelable: true }));
    expect(held.defaultPrevented).toBe(true);
    expect(calls).toEqual(['https://example.com/x']);
  });

  it('opens only on a primary-button click; another button’s click is stopped', () => {
    const right = fire($('l'), new MouseEvent('click', { button: 2, bubbles: true, cancelable: true }));
    expect(right.defaultPrevented).toBe(true);
    expect(calls).toEqual([]);
    fire($('l'), new MouseEvent('click', { button: 0, bubbles: true, cancelable: true }));
    expect(calls).toEqual(['https://example.com/x']);
  });

  it('takes a drag without a DataTransfer, which could carry anything', () => {
    const ev = new Event('dragover', { bubbles: true, cancelable: true });
    Object.defineProperty(ev, 'dataTransfer', { value: null });
    expect(fire($('p'), ev).defaultPrevented).toBe(true);
  });

  const drag = (type: string, types: string[] | undefined) => {
    const ev = new Event(type, { bubbles: true, cancelable: true });
    Object.defineProperty(ev, 'dataTransfer', { value: { types, files: [], dropEffect: 'none' } });
    return ev;
  };

  it('takes every drag that could load something, and leaves plain text alone', () => {
    for (const t of ['Files', 'text/uri-list', 'text/x-moz-url', 'text/html', 'URL']) {
      expect(fire($('p'), drag('dragover', ['text/plain', t])).defaultPrevented, t).toBe(true);
    }
    // No types at all (the webview withholds them) could be anything too.
    expect(fire($('p'), drag('dragover', [])).defaultPrevented).toBe(true);
    expect(fire($('p'), drag('dragover', undefined)).defaultPrevented).toBe(true);
    // Plain text over the page is no navigation: the page need not claim it.
    expect(fire($('p'), drag('dragover', ['text/plain'])).defaultPrevented).toBe(false);
  });

  it('lets text be dragged into a text field, never a file, and treats buttons and boxes as the page', () => {
    for (const id of ['text', 'area']) {
      expect(fire($(id), drag('dragover', ['text/plain', 'text/html'])).defaultPrevented, id).toBe(false);
      expect(fire($(id), drag('drop', ['text/plain', 'text/html'])).defaultPrevented, id).toBe(false);
      expect(fire($(id), drag('dragover', ['Files'])).defaultPrevented, id).toBe(true);
      expect(fire($(id), drag('drop', ['Files'])).defaultPrevented, id).toBe(true);
    }
    for (const t of ['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image']) {
      expect(fire($(`in-${t}`), drag('dragover', ['text/html'])).defaultPrevented, t).toBe(true);
      expect(fire($(`in-${t}`), drag('drop', ['text/html'])).defaultPrevented, t).toBe(true);
    }
  });

  it('stops an image from being dragged out even outside a link', () => {
    expect(fire($('img'), drag('dragstart', ['text/uri-list'])).defaultPrevented).toBe(true);
  });

  it('opens a path link only inside a workspace\'s Markdown', () => {
    fire($('rel'), new MouseEvent('click', { button: 0, bubbles: true, cancelable: true }));
    expect(calls).toEqual([]);
    host.setAttribute('data-link-workspace', 'ws9');
    fire($('rel'), new MouseEvent('click', { button: 0, bubbles: true, cancelable: true }));
    expect(calls).toEqual(['palette.json']);
  });

  it('keeps the middle button\'s paste and every ordinary press and key', () => {
    const down = (id: string, button: number) => fire($(id), new MouseEvent('mousedown', { button, bubbles: true, cancelable: true })).defaultPrevented;
    expect(down('l', 1)).toBe(true); // no autoscroll or new window from a link
    expect(down('p', 1)).toBe(false); // X11 paste elsewhere
    expect(down('l', 0)).toBe(false); // a press starts selection or focus as usual
    const key = (k: string) => fire($('l'), new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true })).defaultPrevented;
    expect(key('Tab')).toBe(false);
    expect(key('a')).toBe(false);
    expect(key('Spacebar')).toBe(true); // the old name of Space
    expect(key(' ')).toBe(true);
    expect(calls).toEqual([]);
  });
});
