// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatElapsed, isStalled, stallAfterMs } from './turnstatus';

describe('turn status', () => {
  it('formats elapsed time', () => {
    expect([0, 5_400, 61_000, 3_725_000].map(formatElapsed)).toEqual(['0:00', '0:05', '1:01', '1:02:05']);
  });

  it('is stalled after 30 s without events, not while the user owes a permission answer, and again 30 s after Keep waiting', () => {
    const s = { phase: 'running' as const, lastEventAt: 1_000, pending: [] as never[] };
    expect(stallAfterMs).toBe(30_000);
    expect(isStalled(s, 30_999)).toBe(false);
    expect(isStalled(s, 31_000)).toBe(true);
    expect(isStalled({ ...s, pending: [{}] as never[] }, 90_000)).toBe(false);
    expect(isStalled({ ...s, phase: 'idle' }, 90_000)).toBe(false);
    expect(isStalled({ ...s, phase: 'queued' }, 31_000)).toBe(true);
    expect(isStalled(s, 40_000, 35_000)).toBe(false);
    expect(isStalled(s, 65_000, 35_000)).toBe(true);
  });

  it('is not stalled before the first event, and a Keep waiting older than the last event does not delay it', () => {
    expect(isStalled({ phase: 'running' as const, lastEventAt: 0, pending: [] as never[] }, 90_000)).toBe(false);
    const s = { phase: 'running' as const, lastEventAt: 50_000, pending: [] as never[] };
    expect(isStalled(s, 79_999, 10_000)).toBe(false);
    expect(isStalled(s, 80_000, 10_000)).toBe(true);
  });

  it('shows a clock that went backwards as 0:00, and pads minutes and seconds past the hour', () => {
    expect(formatElapsed(-5_000)).toBe('0:00');
    expect(formatElapsed(999)).toBe('0:00');
    expect(formatElapsed(3_600_000)).toBe('1:00:00');
    expect(formatElapsed(3_599_999)).toBe('59:59');
    expect(formatElapsed(36_061_000)).toBe('10:01:01');
  });
});
