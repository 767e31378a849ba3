// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate, shortPath } from './format';

const now = new Date('2026-12-02T15:00:00Z');

describe('formatDate', () => {
  it.each([
    { iso: '0001-01-01T00:00:00Z', want: '' },
    { iso: '', want: '' },
    { iso: 'not a date', want: '' },
  ])('hides unknown time $iso', ({ iso, want }) => {
    expect(formatDate(iso, 'en', now)).toBe(want);
  });

  it('shows only the time today, month and day this year, the year for older ones', () => {
    const today = formatDate('2026-12-02T09:30:00Z', 'en', now);
    expect(today).toMatch(/\d{1,2}:\d{2}/);
    expect(today).not.toMatch(/Dec/);
    expect(formatDate('2026-11-28T14:22:00Z', 'en', now)).toMatch(/Nov 28/);
    expect(formatDate('2024-03-05T10:00:00Z', 'en', now)).toMatch(/2024/);
    expect(formatDate('2024-03-05T10:00:00Z', 'de', now)).toMatch(/März 2024|Mär\.? 2024/);
  });
});

describe('shortPath', () => {
  it.each([
    ['', 2, ''],
    ['/home/dev', 2, '/home/dev'],
    ['/home/dev/themes/work', 2, '…/themes/work'],
    ['/home/dev/themes/work', 3, '…/dev/themes/work'],
    ['C:\\Users\\dev\\themes\\work', 2, '…/themes/work'],
  ])('%s (%i parts) → %s', (p, n, want) => {
    expect(shortPath(p, n)).toBe(want);
  });
});

describe('formatBytes', () => {
  it('uses decimal units with one decimal in the language', () => {
    expect(formatBytes(512, 'en')).toBe('512 B');
    expect(formatBytes(420_000, 'en')).toBe('420.0 kB');
    expect(formatBytes(172_325_449, 'en')).toBe('172.3 MB');
    expect(formatBytes(172_325_449, 'de')).toBe('172,3 MB');
    expect(formatBytes(1_500_000_000, 'en')).toBe('1.5 GB');
  });
});

describe('formatDate, shortPath and formatBytes at their edges', () => {
  it('shows a time of 1970 (only Go zero-value years before it are unknown)', () => {
    expect(formatDate('1970-06-01T12:00:00Z', 'en', now)).toMatch(/1970/);
    expect(formatDate('1969-12-31T00:00:00Z', 'en', now)).toBe('');
  });

  it('says the year of a date on the same month and day of another year, and only the time today', () => {
    expect(formatDate('2025-12-02T15:00:00Z', 'en', now)).toMatch(/2025/);
    expect(formatDate('2026-12-02T15:00:00Z', 'en', now)).not.toMatch(/2026|Dec/);
    expect(formatDate('2026-03-05T10:00:00Z', 'en', now)).not.toMatch(/2026/);
  });

  it('counts the parts of a path without its separators at the ends', () => {
    expect(shortPath('/home/dev/', 2)).toBe('/home/dev/');
    expect(shortPath('/home//dev/themes/', 2)).toBe('…/dev/themes');
    expect(shortPath('themes/work', 1)).toBe('…/work');
  });

  it('switches unit at exactly 1 kB, 1 MB and 1 GB, and rounds bytes, never below 0', () => {
    expect([999, 1000, 999_999, 1_000_000, 1e9].map((n) => formatBytes(n, 'en'))).toEqual(['999 B', '1.0 kB', '1,000.0 kB', '1.0 MB', '1.0 GB']);
    expect(formatBytes(12.6, 'en')).toBe('13 B');
    expect(formatBytes(-3, 'en')).toBe('0 B');
  });
});
