import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installNavigationGuard, linkErrorEvent, type Opener } from './navguard';
import { renderMarkdown } from './markdown';
import { repoFile } from '../test/repo';

// Real DOM events in jsdom, dispatched on hostile markup put straight into
// the page (the sanitizer bypassed): the guard alone must stop each one.

const url = 'http://127.0.0.1:4567';
let calls: string[];
let opener: Opener;
let uninstall: () => void;
let host: HTMLDivElement;

beforeEach(() => {
  calls = [];
  opener = {
    openLink: async (u) => void calls.push(`link ${u}`),
    openPath: async (ws, p) => void calls.push(`path ${ws} ${p}`),
  };
  uninstall = installNavigationGuard(document, opener);
  host = document.createElement('div');
  host.setAttribute('data-link-workspace', 'ws1');
  document.body.appendChild(host);
});

afterEach(() => {
  uninstall();
  host.remove();
});

const hostile = `
  <map name="m"><area id="area" shape="rect" coords="0,0,50,50" href="${url}/v/area"></map><img usemap="#m" src="data:image/png;base64,AA==">
  <a id="target" href="${url}/v/target" target="_blank">t</a>
  <a id="imglink" href="${url}/v/image-link"><img id="inner" src="data:image/png;base64,AA=="></a>
  <svg><a id="svg" href="${url}/v/svg"><text id="svgtext">s</text></a></svg>
  <svg xmlns:xlink="http://www.w3.org/1999/xlink"><a id="xlink" xlink:href="${url}/v/xlink"><text>x</text></a></svg>
  <math id="math" href="${url}/v/math"><mi>m</mi></math>
  <a id="js" href="javascript:location='${url}/v/js'">js</a>
  <a id="data" href="data:text/html,x">data</a>
  <a id="rel" href="theme.json">rel</a>
  <a id="file" href="file:///etc/passwd">file</a>
  <form id="form" action="${url}/v/form"><button id="submit" formaction="${url}/v/formaction">go</button></form>
  <p id="plain">just text</p>
  <textarea id="field"></textarea>
`;

function fire<T extends Event>(el: Element, ev: T): T {
  el.dispatchEvent(ev);
  return ev;
}
const click = (button = 0) => new MouseEvent(button === 0 ? 'click' : 'auxclick', { bubbles: true, cancelable: true, button });
const key = (k: string) => new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true });
function drag(type: string, types: string[]): Event {
  const ev = new Event(type, { bubbles: true, cancelable: true });
  Object.defineProperty(ev, 'dataTransfer', { value: { types, files: [], dropEffect: 'none' } });
  return ev;
}
const $ = (id: string) => document.getElementById(id)!;

describe('the navigation guard', () => {
  beforeEach(() => {
    host.innerHTML = hostile;
  });

  it.each([
    ['area', `link ${url}/v/area`],
    ['target', `link ${url}/v/target`],
    ['inner', `link ${url}/v/image-link`],
    ['svgtext', `link ${url}/v/svg`],
    ['xlink', `link ${url}/v/xlink`],
    ['math', `link ${url}/v/math`],
    ['rel', 'path ws1 theme.json'],
    ['file', 'path ws1 file:///etc/passwd'],
  ])('a click on %s is stopped and handed to Go', (id, want) => {
    let reached = false;
    const seen = () => (reached = true);
    document.addEventListener('click', seen); // the page's own bubbling handlers
    const ev = fire($(id), click());
    document.removeEventListener('click', seen);
    expect(ev.defaultPrevented).toBe(true);
    expect(reached).toBe(false);
    expect(calls).toEqual([want]);
  });

  it.each(['js', 'data', 'submit'])('a click on %s is stopped and goes nowhere', (id) => {
    expect(fire($(id), click()).defaultPrevented).toBe(true);
    expect(calls).toEqual([]);
  });

  it('leaves clicks on things without a URL alone', () => {
    expect(fire($('plain'), click()).defaultPrevented).toBe(false);
    expect(calls).toEqual([]);
  });

  it('a middle-click opens through Go, never a new window; a right-click only stops', () => {
    expect(fire($('target'), click(1)).defaultPrevented).toBe(true);
    expect(calls).toEqual([`link ${url}/v/target`]);
    expect(fire($('area'), click(2)).defaultPrevented).toBe(true);
    expect(calls).toHaveLength(1);
    const press = new MouseEvent('mousedown', { bubbles: true, cancelable: true, button: 1 });
    expect(fire($('svgtext'), press).defaultPrevented).toBe(true);
    const paste = new MouseEvent('mousedown', { bubbles: true, cancelable: true, button: 1 });
    expect(fire($('field'), paste).defaultPrevented).toBe(false);
  });

  it('Enter on a focused link opens through Go; Space only stops', () => {
    const a = $('target') as HTMLAnchorElement;
    a.focus();
    expect(document.activeElement).toBe(a);
    expect(fire(a, key('Enter')).defaultPrevented).toBe(true);
    expect(calls).toEqual([`link ${url}/v/target`]);
    expect(fire(a, key(' ')).defaultPrevented).toBe(true);
    expect(calls).toHaveLength(1);
    expect(fire($('field'), key('Enter')).defaultPrevented).toBe(false);
  });

  it('no link or image can be dragged', () => {
    expect(fire($('target'), drag('dragstart', ['text/uri-list'])).defaultPrevented).toBe(true);
    expect(fire($('inner'), drag('dragstart', ['text/uri-list'])).defaultPrevented).toBe(true);
    expect(fire($('plain'), drag('dragstart', ['text/plain'])).defaultPrevented).toBe(false);
  });

  it('a link or file dropped onto the window is taken by the page, never loaded', () => {
    for (const types of [['text/uri-list', 'text/plain'], ['Files'], ['text/html'], []]) {
      expect(fire($('plain'), drag('dragover', types)).defaultPrevented, types.join()).toBe(true);
      expect(fire($('plain'), drag('drop', types)).defaultPrevented, types.join()).toBe(true);
    }
    // A file dropped into a text field is still not loaded…
    expect(fire($('field'), drag('drop', ['Files'])).defaultPrevented).toBe(true);
    // …while text dragged into it is the field's own business.
    expect(fire($('field'), drag('drop', ['text/plain'])).defaultPrevented).toBe(false);
    expect(calls).toEqual([]);
  });

  it('drop zones below still get the drop', () => {
    let got = 0;
    host.addEventListener('drop', () => got++);
    fire($('plain'), drag('drop', ['Files']));
    expect(got).toBe(1);
  });

  it('no form submits natively, and the app\'s own submit handlers still run', () => {
    let handled = 0;
    const form = $('form') as HTMLFormElement;
    form.addEventListener('submit', () => handled++);
    const ev = fire(form, new Event('submit', { bubbles: true, cancelable: true }));
    expect(ev.defaultPrevented).toBe(true);
    expect(handled).toBe(1);
  });

  it('a refusal from Go comes back as an event on the link', async () => {
    uninstall();
    uninstall = installNavigationGuard(document, { openLink: () => Promise.reject(new Error('refused by Go')), openPath: async () => {} });
    const got = new Promise<string>((ok) => host.addEventListener(linkErrorEvent, (e) => ok(String((e as CustomEvent).detail))));
    fire($('target'), click());
    expect(await got).toBe('refused by Go');
  });

  it('uninstalling removes every listener', () => {
    uninstall();
    expect(fire($('target'), click()).defaultPrevented).toBe(false);
    uninstall = () => {};
  });
});

describe('the guard over the sanitized navigation corpus', () => {
  it('every element a user can click in the rendered corpus is stopped or inert', () => {
    const corpus = repoFile('internal/testrig/fakeagent/navigation.md').replaceAll('{{URL}}', url);
    host.innerHTML = renderMarkdown(corpus);
    for (const el of Array.from(host.querySelectorAll('*'))) {
      const carries = el.closest('[href]') !== null;
      expect(fire(el, click()).defaultPrevented, el.outerHTML).toBe(carries);
      expect(fire(el, click(1)).defaultPrevented, el.outerHTML).toBe(carries);
    }
    // Only ordinary web links and workspace paths reached Go.
    for (const c of calls) expect(c).toMatch(new RegExp(`^(link ${url}/v/[a-z-]+|link mailto:.*|path ws1 \\S+)$`));
    expect(calls.some((c) => c.includes('javascript') || c.includes('data:'))).toBe(false);
  });
});
