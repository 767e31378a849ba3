// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatElapsed, isStalled, stallAfterMs } from './turnstatus';

describe('turn status', () => {
  it('formats elapsed time', () => {
    expect([0, 5_400, 61_000, 3_725_000].map(formatElapsed)).toEqual(['0:00', '0:05', '1:01', '1:02:05']);
  });

  it('is stalled after 30 s without events, not while the user owes a permission answer, and again 30 s after Keep waiting', () => {
    const s = { running: true, lastEventAt: 1_000, pending: [] as never[] };
    expect(stallAfterMs).toBe(30_000);
    expect(isStalled(s, 30_999)).toBe(false);
    expect(isStalled(s, 31_000)).toBe(true);
    expect(isStalled({ ...s, pending: [{}] as never[] }, 90_000)).toBe(false);
    expect(isStalled({ ...s, running: false }, 90_000)).toBe(false);
    expect(isStalled(s, 40_000, 35_000)).toBe(false);
    expect(isStalled(s, 65_000, 35_000)).toBe(true);
  });
});
