// The agent's calls of the app's own theme tools appear as cards: the fake
// agent starts the real `cdxtheme mcp` server the app offered in
// session/new (the dev binary itself), calls theme_check and theme_render
// on it, and reports them as codex-acp 2.6.0 does. The check card lists
// the failing pair with its fix; the render card shows the PNG.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch, repo } from '../lib/harness.mjs';

let app;
before(async () => {
  app = await launch({ scenario: 'normal' });
});
after(async () => {
  await app?.close();
});

test('a theme check and a theme render as tool cards', async () => {
  const { page } = app;
  await page.getByTestId('nav-new').click();
  await page.getByTestId('prompt').fill('A night theme, and check it #theme-tools');
  await page.getByTestId('send').click();
  const check = page.locator('[data-testid="tool-card"]', { has: page.getByTestId('theme-check') });
  await check.waitFor({ timeout: 30_000 });
  assert.match(await check.getByTestId('theme-check-verdict').textContent(), /to fix|Passes/);
  const pairs = await check.getByTestId('theme-pair').allTextContents();
  assert.ok(pairs.some((p) => p.includes('syntax.comment / ui.background')), `pairs: ${pairs}`);
  const img = page.getByTestId('theme-render');
  await img.waitFor({ timeout: 30_000 });
  // The PNG decoded in the page: 1200×800 as the server paints it.
  await page.waitForFunction(() => document.querySelector('[data-testid="theme-render"]')?.naturalWidth === 1200, null, { timeout: 10_000 });
  const out = join(repo, '.cache', 'e2e');
  mkdirSync(out, { recursive: true });
  await page.screenshot({ path: join(out, 'theme-tools-cards.png'), fullPage: false });
});
