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
  host.innerHTML = '<a id="l" href="https://example.com/x">x</a><p id="p">text</p>';
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
});
