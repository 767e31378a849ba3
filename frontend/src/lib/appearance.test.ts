// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { applyAppearance } from './appearance';

describe('applyAppearance', () => {
  it('sets light or dark, and clears it for system or anything else', () => {
    applyAppearance('dark');
    expect(document.documentElement.dataset.appearance).toBe('dark');
    applyAppearance('light');
    expect(document.documentElement.dataset.appearance).toBe('light');
    applyAppearance('system');
    expect(document.documentElement.dataset.appearance).toBeUndefined();
    applyAppearance('dark');
    applyAppearance('<script>');
    expect(document.documentElement.dataset.appearance).toBeUndefined();
    applyAppearance(null);
    expect(document.documentElement.dataset.appearance).toBeUndefined();
  });
});
