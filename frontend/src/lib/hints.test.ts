// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { hintText } from './hints';

describe('hintText', () => {
  it('says a known code in the UI language with the folder filled in', () => {
    const s = hintText({ hint: 'Go English', hintCode: 'no_home', hintDir: '/home/dev/.codex' });
    expect(s).toContain('/home/dev/.codex');
    expect(s).not.toBe('Go English');
    expect(s).not.toContain('{dir}');
  });
  it("keeps Go's sentence for an unknown code or none", () => {
    expect(hintText({ hint: 'Go English', hintCode: 'from_the_future' })).toBe('Go English');
    expect(hintText({ hint: 'Go English' })).toBe('Go English');
    expect(hintText({})).toBe('');
  });
});
