import { afterEach, describe, expect, it, vi } from 'vitest';
import { elementStates, watchElements } from './selftest';
import { installWails } from '../test/wails';

// The editor window test aims real clicks at what elementStates reports and
// reads the page through it: the data attributes, form state and colours of
// the first match, and nothing at all without a plan asking for it.

afterEach(() => {
  document.body.innerHTML = '';
  vi.useRealTimers();
});

describe('elementStates', () => {
  it('reports the first match: data, value, checked, colours; absent and off-screen ones are told apart', () => {
    document.body.innerHTML = `<button data-testid="a" data-role="ui.accent" style="background: rgb(51, 85, 255); color: rgb(1, 2, 3)">Accent</button>
      <button data-testid="a">second</button><input data-testid="hex" value="#3355ff" /><input type="checkbox" data-testid="lock" checked />`;
    const s = elementStates({ accent: '[data-testid=a]', hex: '[data-testid=hex]', lock: '[data-testid=lock]', none: '[data-testid=none]', bad: '[[' });
    expect(s.els.accent).toMatchObject({ data: { testid: 'a', role: 'ui.accent' }, text: 'Accent', bg: 'rgb(51, 85, 255)', color: 'rgb(1, 2, 3)' });
    expect(s.els.hex.value).toBe('#3355ff');
    expect(s.els.lock.checked).toBe(true);
    // jsdom lays nothing out: a zero-sized element is not clickable.
    expect(s.els.accent.hidden).toBe(true);
    expect(Object.keys(s.els).sort()).toEqual(['accent', 'hex', 'lock']);
  });
});

describe('watchElements', () => {
  it('does nothing without the plan', () => {
    vi.useFakeTimers();
    const stop = watchElements({ active: true, prompt: '' });
    expect(vi.getTimerCount()).toBe(0);
    stop();
  });

  it('reports the elements at once and again only when they change', () => {
    vi.useFakeTimers();
    const w = installWails({});
    document.body.innerHTML = '<input type="checkbox" data-testid="lock" />';
    const reports = () => w.sent.filter((e) => e[0] === 'selftest:report' && e[1] === 'elements').map((e) => JSON.parse(String(e[2])));
    const stop = watchElements({ active: true, prompt: '', elements: JSON.stringify({ lock: '[data-testid=lock]' }) }, 100);
    expect(reports().map((r) => r.els.lock.checked)).toEqual([false]);
    vi.advanceTimersByTime(300);
    expect(reports()).toHaveLength(1);
    (document.querySelector('[data-testid=lock]') as HTMLInputElement).checked = true;
    vi.advanceTimersByTime(100);
    expect(reports().map((r) => r.els.lock.checked)).toEqual([false, true]);
    stop();
    (document.querySelector('[data-testid=lock]') as HTMLInputElement).checked = false;
    vi.advanceTimersByTime(300);
    expect(reports()).toHaveLength(2);
  });
});
