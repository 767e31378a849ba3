import { fireEvent, render } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Markdown from './Markdown.svelte';
import { flush, installWails } from '../test/wails';
import { installNavigationGuard } from '../lib/navguard';

// main.ts installs the document's navigation guard; so do these tests.
let uninstall = () => {};
beforeEach(() => {
  uninstall = installNavigationGuard(document);
});
afterEach(() => uninstall());

describe('Markdown links', () => {
  it.each([
    { name: 'web link goes to OpenLink', md: '[docs](https://example.com/x)', link: ['https://example.com/x'], path: null },
    { name: 'workspace file goes to OpenPath', md: '[theme](theme.json)', link: null, path: ['ws1', 'theme.json'] },
    { name: 'javascript: is neither opened nor navigated', md: '<a href="javascript:alert(1)">x</a>', link: null, path: null, inert: true },
  ])('$name', async ({ md, link, path, inert }) => {
    const w = installWails({ OpenLink: () => undefined, OpenPath: () => undefined });
    const { container } = render(Markdown, { props: { text: md + ' and more', workspaceId: 'ws1' } });
    const a = container.querySelector('a');
    expect(a).toBeTruthy();
    const ev = new MouseEvent('click', { bubbles: true, cancelable: true });
    a!.dispatchEvent(ev);
    await flush();
    // A javascript: link loses its href to the sanitizer: nothing left to stop.
    if (inert) expect(a!.hasAttribute('href')).toBe(false);
    else expect(ev.defaultPrevented).toBe(true);
    if (link) expect(w.bound.OpenLink).toHaveBeenCalledWith(...link);
    else expect(w.bound.OpenLink).not.toHaveBeenCalled();
    if (path) expect(w.bound.OpenPath).toHaveBeenCalledWith(...path);
    else expect(w.bound.OpenPath).not.toHaveBeenCalled();
  });

  it('reports a link Go refused', async () => {
    installWails({ OpenLink: () => Promise.reject('link "ftp://x": only http, https and mailto links are opened') });
    const errors: string[] = [];
    const { container } = render(Markdown, { props: { text: '<https://example.com>', onerror: (m: string) => errors.push(m) } });
    await fireEvent.click(container.querySelector('a')!);
    await flush();
    expect(errors).toEqual(['link "ftp://x": only http, https and mailto links are opened']);
  });

  it('renders very large text verbatim instead of as Markdown', () => {
    const big = '**x** '.repeat(60_000);
    const { container } = render(Markdown, { props: { text: big } });
    expect(container.querySelector('strong')).toBeNull();
    expect(container.querySelector('pre')?.textContent?.length).toBe(big.length);
  });
});

describe('Markdown code blocks', () => {
  const md = 'Try this:\n\n```ts\nconst a = "<b>hi</b>";\n```\n\nand\n\n```\nplain text\n```\n';

  it('each block gets a copy button that copies the code exactly', async () => {
    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (s: string) => void copied.push(s) } });
    const { container } = render(Markdown, { props: { text: md } });
    const buttons = container.querySelectorAll<HTMLButtonElement>('[data-testid=copy-code]');
    expect(buttons).toHaveLength(2);
    await fireEvent.click(buttons[0]);
    await flush();
    expect(copied).toEqual(['const a = "<b>hi</b>";\n']);
    expect(buttons[0].textContent?.trim()).toBe('Copied');
    await fireEvent.click(buttons[1]);
    await flush();
    expect(copied[1]).toBe('plain text\n');
  });

  it('colours a known language a moment later, with the text unchanged; an unknown one stays plain', async () => {
    const { container } = render(Markdown, { props: { text: md } });
    const [ts, plain] = [...container.querySelectorAll('pre > code')];
    await expect.poll(() => ts.querySelectorAll('span.shk').length, { timeout: 5000 }).toBeGreaterThan(3);
    expect(ts.textContent).toBe('const a = "<b>hi</b>";\n');
    expect(ts.querySelector('b')).toBeNull();
    expect(plain.querySelector('span')).toBeNull();
    expect(ts.closest('pre')!.classList.contains('highlighted')).toBe(true);
  });

  it('a re-render while streaming keeps one button per block', async () => {
    const { container, rerender } = render(Markdown, { props: { text: '```ts\nconst a' } });
    await rerender({ text: '```ts\nconst a = 1;\n```\n' });
    await rerender({ text: '```ts\nconst a = 1;\n```\n\nDone.' });
    expect(container.querySelectorAll('[data-testid=copy-code]')).toHaveLength(1);
    await expect.poll(() => container.querySelectorAll('span.shk').length, { timeout: 5000 }).toBeGreaterThan(2);
    expect(container.querySelector('code')!.textContent).toBe('const a = 1;\n');
  });
});
