// The post-render step of rendered Markdown: a copy button on every code
// block and, after a pause, Shiki's colours, with the real highlighter.
// highlight is wrapped only so a test can count its calls or make one fail.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { enhanceCodeBlocks, highlightDelay } from './codeblocks';
import { highlight } from './highlight';
import { flush } from '../test/wails';

vi.mock('./highlight', async (original) => {
  const m = await original<typeof import('./highlight')>();
  return { ...m, highlight: vi.fn(m.highlight) };
});
const calls = vi.mocked(highlight);

/** Holds the next highlight call until release(): the moment a block is being tokenized. */
function holdNext() {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const real = calls.getMockImplementation()!;
  calls.mockImplementationOnce(async (code, lang) => {
    await gate;
    return real(code, lang);
  });
  return () => release();
}

let n = 0;
/** A root holding one <pre><code> per block, as the Markdown renderer makes them; unique text per call unless given. */
function root(...blocks: { lang?: string; text?: string; cls?: string }[]) {
  const el = document.createElement('div');
  for (const b of blocks) {
    const pre = document.createElement('pre');
    const code = document.createElement('code');
    if (b.cls ?? b.lang) code.className = b.cls ?? `language-${b.lang}`;
    code.textContent = b.text ?? `const v${++n} = "<b>${n}</b>";\n`;
    pre.append(code);
    el.append(pre);
  }
  document.body.append(el);
  return el;
}
const codes = (el: HTMLElement) => [...el.querySelectorAll<HTMLElement>('code')];
/** Waits until every highlight started so far has settled, then for the DOM writes after it. */
async function settled() {
  await Promise.allSettled(calls.mock.results.map((r) => r.value));
  await flush();
}

afterEach(() => {
  vi.useRealTimers();
  calls.mockClear();
  document.body.innerHTML = '';
});

describe('enhanceCodeBlocks', () => {
  it('puts each block in a copy host with its own button that copies the code as it is at click time', async () => {
    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (s: string) => void copied.push(s) } });
    const el = root({ lang: 'ts', text: 'let a = 1;\n' }, { text: 'plain\n' });
    const dispose = enhanceCodeBlocks(el);
    const blocks = [...el.children];
    expect(blocks.map((b) => [b.tagName, b.className])).toEqual([
      ['DIV', 'codeblock copy-host'],
      ['DIV', 'codeblock copy-host'],
    ]);
    for (const b of blocks) expect([...b.children].map((c) => c.tagName + '.' + c.className)).toEqual(['PRE.', 'DIV.codebar']);
    const buttons = [...el.querySelectorAll<HTMLButtonElement>('.codebar > [data-testid=copy-code]')];
    expect(buttons).toHaveLength(2);
    expect(buttons[0].getAttribute('aria-label')).toBe('Copy code');
    codes(el)[1].textContent = 'edited\n';
    buttons[1].click();
    buttons[0].click();
    await flush();
    expect(copied).toEqual(['edited\n', 'let a = 1;\n']);
    dispose();
  });

  it('colours a known language after the pause, escaped and with the text unchanged', async () => {
    const text = 'const a = "<b>hi</b>";\n';
    const el = root({ cls: 'hljs language-TS', text });
    enhanceCodeBlocks(el);
    const [code] = codes(el);
    expect(code.querySelector('span')).toBeNull(); // not per chunk: nothing before the pause
    await vi.waitFor(() => expect(calls).toHaveBeenCalledTimes(1), { timeout: highlightDelay * 20 });
    await settled();
    expect(code.querySelectorAll('span.shk').length).toBeGreaterThan(3);
    expect(code.querySelector('b')).toBeNull();
    expect(code.textContent).toBe(text);
    expect(code.parentElement!.classList.contains('highlighted')).toBe(true);
  });

  it('waits the whole pause before tokenizing, and tokenizes each block once', async () => {
    vi.useFakeTimers();
    const el = root({ lang: 'json' }, { lang: 'sh' });
    enhanceCodeBlocks(el);
    vi.advanceTimersByTime(highlightDelay - 1);
    expect(calls).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    vi.useRealTimers();
    await vi.waitFor(() => expect(calls).toHaveBeenCalledTimes(2));
    await settled();
    expect(calls.mock.calls.map((c) => c[1])).toEqual(['language-json', 'language-sh']);
    for (const c of codes(el)) expect(c.querySelector('span.shk')).not.toBeNull();
  });

  it('leaves blocks without a language, or with one not offered, plain and starts no work', async () => {
    vi.useFakeTimers();
    const el = root({}, { lang: 'brainfuck' }, { cls: 'ts' });
    const dispose = enhanceCodeBlocks(el);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(highlightDelay * 10);
    expect(calls).not.toHaveBeenCalled();
    for (const c of codes(el)) expect(c.parentElement!.classList.contains('highlighted')).toBe(false);
    expect(el.querySelectorAll('[data-testid=copy-code]')).toHaveLength(3);
    dispose();
  });

  it('removing the blocks before the pause cancels the work and the buttons', async () => {
    vi.useFakeTimers();
    const el = root({ lang: 'ts' });
    const dispose = enhanceCodeBlocks(el);
    dispose();
    vi.advanceTimersByTime(highlightDelay * 10);
    expect(calls).not.toHaveBeenCalled();
    expect(el.querySelector('.codebar')!.children).toHaveLength(0);
  });

  it('a cancel during the work stops before the next block', async () => {
    const release = holdNext();
    const el = root({ lang: 'ts' }, { lang: 'ts' });
    const dispose = enhanceCodeBlocks(el);
    await vi.waitFor(() => expect(calls).toHaveBeenCalledTimes(1), { timeout: highlightDelay * 20 });
    dispose();
    release();
    await settled();
    expect(calls).toHaveBeenCalledTimes(1);
    for (const c of codes(el)) expect(c.querySelector('span.shk')).toBeNull();
  });

  it('a block re-rendered or removed while it was being tokenized is not coloured with the old text', async () => {
    const release = holdNext();
    const el = root({ lang: 'ts' }, { lang: 'ts' });
    enhanceCodeBlocks(el);
    const [changed, removed] = codes(el);
    await vi.waitFor(() => expect(calls).toHaveBeenCalledTimes(1), { timeout: highlightDelay * 20 });
    changed.textContent = 'const streamed = 2;\n';
    removed.closest('.codeblock')!.remove();
    release();
    await vi.waitFor(() => expect(calls).toHaveBeenCalledTimes(2));
    await settled();
    expect(changed.textContent).toBe('const streamed = 2;\n');
    expect(changed.querySelector('span')).toBeNull();
    expect(changed.parentElement!.classList.contains('highlighted')).toBe(false);
    expect(removed.querySelector('span')).toBeNull();
  });

  it('a grammar that fails to load leaves its block plain and the next block is still coloured', async () => {
    calls.mockRejectedValueOnce(new Error('chunk failed to load'));
    const el = root({ lang: 'ts' }, { lang: 'ts' });
    enhanceCodeBlocks(el);
    await vi.waitFor(() => expect(calls).toHaveBeenCalledTimes(2), { timeout: highlightDelay * 20 });
    await settled();
    const [failed, next] = codes(el);
    expect(failed.querySelector('span')).toBeNull();
    expect(failed.parentElement!.classList.contains('highlighted')).toBe(false);
    expect(next.querySelector('span.shk')).not.toBeNull();
  });

  it('colours a block seen before at once (a streamed message re-renders often), and remembers the last 200', async () => {
    const first = 'const remembered = 1;\n';
    enhanceCodeBlocks(root({ lang: 'ts', text: first }));
    await vi.waitFor(() => expect(calls).toHaveBeenCalledTimes(1), { timeout: highlightDelay * 20 });
    await settled();
    // Again, re-rendered: coloured before enhanceCodeBlocks returns, no new work.
    const again = root({ lang: 'typescript', text: first });
    enhanceCodeBlocks(again);
    expect(codes(again)[0].querySelector('span.shk')).not.toBeNull();
    expect(calls).toHaveBeenCalledTimes(1);
    // 199 more blocks fill the memory to 200: the first is still there.
    enhanceCodeBlocks(root(...Array.from({ length: 199 }, () => ({ lang: 'ts' }))));
    await vi.waitFor(() => expect(calls).toHaveBeenCalledTimes(200), { timeout: 30_000 });
    await settled();
    const still = root({ lang: 'ts', text: first });
    enhanceCodeBlocks(still);
    expect(codes(still)[0].querySelector('span.shk')).not.toBeNull();
    // One more pushes the oldest out: it has to be tokenized again.
    enhanceCodeBlocks(root({ lang: 'ts' }));
    await vi.waitFor(() => expect(calls).toHaveBeenCalledTimes(201), { timeout: highlightDelay * 20 });
    await settled();
    const gone = root({ lang: 'ts', text: first });
    enhanceCodeBlocks(gone);
    expect(codes(gone)[0].querySelector('span')).toBeNull();
  }, 60_000);
});
