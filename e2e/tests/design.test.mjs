// The Design view in the page against the real Go side, at 800×600 (below
// the production window's minimum, which internal/suites/designtest covers with
// real input): nothing reaches past the window, the palette strip, the
// preview and the picker are all on screen, and a click on the preview
// picks its role. Saves build/layout/design-800x600.png (and into
// E2E_SHOTS when set: docs/designer/).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch, repo } from '../lib/harness.mjs';

let app;
before(async () => {
  app = await launch({ scenario: 'theme' });
});
after(async () => {
  await app?.close();
});

test('the Design view fits 800×600 and picks the role under a click', async () => {
  const { page } = app;
  await page.setViewportSize({ width: 800, height: 600 });
  await page.getByTestId('nav-new').click();
  await page.getByTestId('prompt').fill('A dusk theme');
  await page.getByTestId('send').click();
  await page.waitForFunction(() => (document.querySelector('[data-testid="message-list"]')?.textContent ?? '').includes('Theme ready.'), null, { timeout: 60_000 });
  await page.waitForFunction(() => !document.querySelector('[data-testid="running"]'), null, { timeout: 60_000 });
  await page.keyboard.press('Control+Shift+D');
  await page.getByTestId('design-zed').waitFor();
  // A small window gives the view the room: the chat opens on request.
  assert.equal(await page.getByTestId('prompt').isVisible(), false);
  await page.locator('[data-testid="design-zed"] .z-acc').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="design-role"]')?.getAttribute('data-role') === 'ui.accent');
  const m = await page.evaluate(() => {
    const iw = innerWidth;
    const ih = innerHeight;
    const box = (s) => document.querySelector(s)?.getBoundingClientRect();
    const poking = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > iw + 0.5 && e.getBoundingClientRect().width > 0)
      .filter((e) => {
        for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
          const ox = getComputedStyle(a).overflowX;
          if ((ox === 'auto' || ox === 'scroll' || ox === 'hidden') && a.getBoundingClientRect().right <= iw + 0.5) return false;
        }
        return true;
      })
      .map((e) => `${e.tagName}.${String(e.className).slice(0, 40)}`);
    const strip = box('[data-testid="palette-strip"]');
    const preview = box('[data-testid="design-preview"]');
    const picker = box('[data-testid="oklch-picker"]');
    return { sw: document.documentElement.scrollWidth, iw, ih, poking, strip: strip.bottom <= ih && strip.top >= 0, preview: preview.height >= 150 && preview.top < ih, picker: !!picker && picker.top < ih };
  });
  assert.ok(m.sw <= m.iw, 'the page scrolls sideways');
  assert.deepEqual(m.poking, [], 'elements reach past the window');
  assert.ok(m.strip, 'the palette strip is on screen');
  assert.ok(m.preview, 'the preview has room');
  assert.ok(m.picker, 'the picker starts on screen');
  const shots = join(repo, 'build', 'layout');
  mkdirSync(shots, { recursive: true });
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(shots, 'design-800x600.png') });
  if (process.env.E2E_SHOTS) await page.screenshot({ path: join(process.env.E2E_SHOTS, 'design-800x600.png') });
});
