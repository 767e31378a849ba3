// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { flushSync } from 'svelte';
import { Lazy } from './lazy.svelte';

describe('Lazy', () => {
  it('loads on first use only, then gives the component', async () => {
    let calls = 0;
    const C = (() => null) as never;
    const lazy = new Lazy(async () => {
      calls++;
      return { default: C };
    });
    expect(calls).toBe(0); // nothing fetched until wanted
    expect(lazy.component).toBeNull();
    expect(calls).toBe(1);
    await lazy.ready();
    flushSync();
    expect(lazy.component).toBe(C);
    void lazy.component;
    expect(calls).toBe(1);
  });

  it('says why a chunk could not be loaded', async () => {
    const lazy = new Lazy(() => Promise.reject(new Error('chunk missing')));
    expect(lazy.component).toBeNull();
    await expect(lazy.ready()).rejects.toThrow('chunk missing');
    expect(lazy.error).toBe('chunk missing');
    expect(lazy.component).toBeNull();
  });
});
