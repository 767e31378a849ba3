import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import MessageList from './MessageList.svelte';
import { applyEvent, beginTurn, newChatState } from '../lib/chatReducer';
import { flush } from '../test/wails';

/** The list follows once a frame: wait for the next one. */
const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));

describe('following the stream', () => {
  /** A chat with a reply, and a message list whose scroll metrics we control (jsdom has no layout). */
  async function scrolled() {
    const s = $state(newChatState({ cwd: '/w' }));
    beginTurn(s, 't1', 'first');
    applyEvent(s, 't1', { type: 'text', text: 'a long answer' });
    render(MessageList, { props: { chat: s } });
    const list = screen.getByTestId('message-list');
    const calls: number[] = [];
    let top = 800;
    Object.defineProperty(list, 'scrollHeight', { configurable: true, get: () => 1000 });
    Object.defineProperty(list, 'clientHeight', { configurable: true, get: () => 200 });
    Object.defineProperty(list, 'scrollTop', { configurable: true, get: () => top, set: (v) => (top = v) });
    list.scrollTo = ((o: ScrollToOptions) => {
      calls.push(o.top ?? -1);
      top = 800;
    }) as typeof list.scrollTo;
    /** The user scrolls with the wheel (up when v is above the current top). */
    const scrollTo = async (v: number) => {
      if (v < top) await fireEvent.wheel(list, { deltaY: v - top });
      top = v;
      await fireEvent.scroll(list);
    };
    await scrollTo(800);
    return { s, list, calls, scrollTo, top: () => top };
  }

  it('scrolled up: new text does not move the view, and "Jump to latest" brings it back', async () => {
    const { s, calls, scrollTo, top } = await scrolled();
    expect(screen.queryByTestId('jump-latest')).toBeNull();
    await scrollTo(300);
    expect(screen.getByTestId('jump-latest').textContent).toContain('Jump to latest');
    calls.length = 0;
    applyEvent(s, 't1', { type: 'text', text: ' and more' });
    await flush();
    expect(calls).toEqual([]);
    expect(top()).toBe(300);
    await fireEvent.click(screen.getByTestId('jump-latest'));
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => c === 1000)).toBe(true);
    expect(screen.queryByTestId('jump-latest')).toBeNull();
    applyEvent(s, 't1', { type: 'text', text: ' still more' });
    await flush();
    await frame();
    expect(calls.length).toBeGreaterThan(1); // following again
  });

  it('a pane that only shrank stays pinned; sending a message pins again', async () => {
    const { s, list, calls } = await scrolled();
    // A smaller window: the pane is shorter, scrollTop unchanged: still following.
    Object.defineProperty(list, 'clientHeight', { configurable: true, get: () => 120 });
    await fireEvent.scroll(list);
    expect(screen.queryByTestId('jump-latest')).toBeNull();
    // Layout moving scrollTop up (items settling, a resize, scrollIntoView) is not the user: still following.
    Object.defineProperty(list, 'scrollTop', { configurable: true, get: () => 500, set: () => {} });
    await fireEvent.scroll(list);
    expect(screen.queryByTestId('jump-latest')).toBeNull();
    let top = 500;
    Object.defineProperty(list, 'scrollTop', { configurable: true, get: () => top, set: (v) => (top = v) });
    await fireEvent.wheel(list, { deltaY: -400 });
    top = 100;
    await fireEvent.scroll(list);
    expect(screen.getByTestId('jump-latest')).toBeTruthy();
    calls.length = 0;
    beginTurn(s, 't2', 'second');
    await flush();
    await frame();
    expect(screen.queryByTestId('jump-latest')).toBeNull();
    expect(calls.length).toBeGreaterThan(0);
  });

  it('a burst of chunks in one frame costs one scroll, and older items are settled', async () => {
    const { s, calls } = await scrolled();
    await frame();
    calls.length = 0;
    for (let i = 0; i < 50; i++) applyEvent(s, 't1', { type: 'text', text: ` chunk ${i}` });
    for (let i = 0; i < 5; i++) beginTurn(s, `t${i + 2}`, `message ${i}`);
    await flush();
    await frame();
    expect(calls).toEqual([1000]);
    const items = screen.getAllByTestId('item');
    const settled = items.map((el) => el.classList.contains('settled'));
    expect(settled.slice(-3)).toEqual([false, false, false]);
    expect(settled.slice(0, -3).every(Boolean)).toBe(true);
    expect(settled.length).toBeGreaterThan(3);
  });

  it('copies a message’s own text', async () => {
    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (t: string) => void copied.push(t) } });
    const s = newChatState({ cwd: '/w' });
    beginTurn(s, 't1', 'make it *warmer*');
    applyEvent(s, 't1', { type: 'text', text: 'Done: **warmer** now.' });
    render(MessageList, { props: { chat: s } });
    const [user, assistant] = screen.getAllByTestId('copy-message');
    await fireEvent.click(user);
    await fireEvent.click(assistant);
    await flush();
    expect(copied).toEqual(['make it *warmer*', 'Done: **warmer** now.']);
  });
});

describe('a long chat', () => {
  /** A chat of n turns (question and answer each), its list with controllable scroll metrics. */
  async function long(n: number) {
    const s = $state(newChatState({ cwd: '/w' }));
    for (let i = 1; i <= n; i++) {
      beginTurn(s, 't' + i, 'question ' + i);
      applyEvent(s, 't' + i, { type: 'text', text: 'answer ' + i });
      applyEvent(s, 't' + i, { type: 'done', stopReason: 'end_turn' });
    }
    render(MessageList, { props: { chat: s } });
    await flush();
    const list = screen.getByTestId('message-list');
    let top = 800;
    Object.defineProperty(list, 'scrollHeight', { configurable: true, get: () => 1000 });
    Object.defineProperty(list, 'clientHeight', { configurable: true, get: () => 200 });
    Object.defineProperty(list, 'scrollTop', { configurable: true, get: () => top, set: (v) => (top = v) });
    list.scrollTo = (() => (top = 800)) as typeof list.scrollTo;
    const texts = () => Array.from(screen.queryAllByTestId('message')).map((m) => m.textContent?.trim() ?? '');
    return { s, list, texts, wheelUp: async () => (await fireEvent.wheel(list, { deltaY: -100 }), (top = 300), await fireEvent.scroll(list)) };
  }

  it('draws the newest messages of 150 turns, not all 300, and shows older ones as the user asks', async () => {
    const { texts } = await long(150);
    const drawn = texts();
    expect(drawn.length).toBeLessThanOrEqual(60);
    expect(drawn.at(-1)).toContain('answer 150');
    expect(drawn.some((t) => /question 1$/.test(t))).toBe(false);
    await fireEvent.click(screen.getByTestId('history-more'));
    await flush();
    expect(texts().length).toBeGreaterThan(drawn.length);
    expect(texts().at(-1)).toContain('answer 150');
    for (let i = 0; i < 10 && screen.queryByTestId('history-more'); i++) {
      await fireEvent.click(screen.getByTestId('history-more'));
      await flush();
    }
    expect(texts()[0]).toMatch(/question 1$/);
    expect(texts().length).toBe(300);
  }, 20_000);

  it('scrolled up, new turns do not take away what the user is reading; back at the bottom the list is short again', async () => {
    const { s, texts, wheelUp, list } = await long(100);
    await wheelUp();
    await flush();
    const first = texts()[0];
    for (let i = 101; i <= 140; i++) {
      beginTurn(s, 't' + i, 'question ' + i);
      applyEvent(s, 't' + i, { type: 'text', text: 'answer ' + i });
      applyEvent(s, 't' + i, { type: 'done', stopReason: 'end_turn' });
    }
    await flush();
    expect(texts()[0]).toBe(first);
    expect(texts().at(-1)).toContain('answer 140');
    await fireEvent.click(screen.getByTestId('jump-latest'));
    await fireEvent.scroll(list);
    await flush();
    expect(texts().length).toBeLessThanOrEqual(60);
    expect(texts().at(-1)).toContain('answer 140');
  });
});
