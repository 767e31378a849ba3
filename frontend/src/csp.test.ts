import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const html = readFileSync(join(__dirname, '..', 'index.html'), 'utf8');
const doc = new DOMParser().parseFromString(html, 'text/html');
const csp = doc.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '';
const directives = Object.fromEntries(
  csp
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .filter((d) => d[0])
    .map(([name, ...values]) => [name, values]),
);

describe('index.html Content-Security-Policy', () => {
  it('runs only same-origin scripts (Wails serves /wails/ipc.js and /wails/runtime.js from the app origin)', () => {
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['default-src']).toEqual(["'self'"]);
  });

  it.each([
    ['object-src', ["'none'"]],
    ['frame-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
    ['img-src', ["'self'", 'data:']],
  ])('%s is %j', (name, want) => {
    expect(directives[name]).toEqual(want);
  });

  it('allows no remote origins anywhere', () => {
    expect(csp).not.toMatch(/https?:|\*|'unsafe-eval'/);
    expect(directives['script-src']).not.toContain("'unsafe-inline'");
  });

  it('has no inline script or handler in the page itself', () => {
    const scripts = Array.from(doc.querySelectorAll('script'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) {
      expect(s.getAttribute('src')).toBeTruthy();
      expect(s.textContent?.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });
});
