// The post-render step for rendered Markdown: each <pre><code> gets a copy
// button and, a moment later, Shiki's colours. It works on the sanitized DOM
// (the sanitizer's allowlist is untouched) and only replaces a code
// element's children with highlight()'s escaped token spans.
import { mount, unmount } from 'svelte';
import CopyButton from '../components/CopyButton.svelte';
import { highlight, languageOf } from './highlight';
import { t } from './i18n.svelte';

/** Highlighted HTML by language and code: a streamed message re-renders often. */
const cache = new Map<string, string | null>();
const cacheMax = 200;

function remember(key: string, html: string | null) {
  if (cache.size >= cacheMax) cache.delete(cache.keys().next().value!);
  cache.set(key, html);
}

/** Waits this long after the last change before tokenizing, so a streaming block is not re-highlighted per chunk. */
export const highlightDelay = 150;

/**
 * Decorates every code block under root; the returned function removes the
 * buttons and cancels pending work (call it before root's HTML changes).
 */
export function enhanceCodeBlocks(root: HTMLElement): () => void {
  const buttons: ReturnType<typeof mount>[] = [];
  const pending: { code: HTMLElement; text: string; lang: string; key: string }[] = [];
  for (const code of root.querySelectorAll<HTMLElement>('pre > code')) {
    const pre = code.parentElement!;
    const block = document.createElement('div');
    block.className = 'codeblock copy-host';
    pre.replaceWith(block);
    block.append(pre);
    const bar = document.createElement('div');
    bar.className = 'codebar';
    block.append(bar);
    buttons.push(mount(CopyButton, { target: bar, props: { text: () => code.textContent ?? '', label: t('copy.code'), testid: 'copy-code', subtle: true } }));

    const lang = [...code.classList].find((c) => c.startsWith('language-')) ?? '';
    if (!languageOf(lang)) continue;
    const text = code.textContent ?? '';
    const key = languageOf(lang) + '\0' + text;
    if (cache.has(key)) apply(code, cache.get(key)!);
    else pending.push({ code, text, lang, key });
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelled = false;
  if (pending.length) {
    timer = setTimeout(async () => {
      for (const p of pending) {
        if (cancelled) return;
        let html: string | null = null;
        try {
          html = await highlight(p.text, p.lang);
        } catch {
          html = null; // a grammar that fails to load leaves the block plain
        }
        remember(p.key, html);
        // The block may have been re-rendered meanwhile; only a still-current one is coloured.
        if (!cancelled && p.code.isConnected && p.code.textContent === p.text) apply(p.code, html);
      }
    }, highlightDelay);
  }

  return () => {
    cancelled = true;
    clearTimeout(timer);
    for (const b of buttons) void unmount(b);
  };
}

function apply(code: HTMLElement, html: string | null) {
  if (html === null) return;
  code.innerHTML = html;
  code.parentElement?.classList.add('highlighted');
}
