// Agent output and saved transcripts are untrusted: an XSS corpus rendered in
// the chat and in the transcript viewer executes nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, repo } from '../lib/harness.mjs';

const corpus = [
  '<img src=x onerror="window.__xss=1">',
  '<script>window.__xss=2</script>',
  '[click](javascript:window.__xss=3)',
  '<svg onload="window.__xss=4"></svg>',
  '<iframe srcdoc="<script>parent.__xss=5</script>"></iframe>',
  '<a href="data:text/html,<script>window.__xss=6</script>">d</a>',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=7">',
  '<details open ontoggle="window.__xss=8">',
].join('\n\n');

let app;
before(async () => {
  app = await launch({ scenario: 'normal', codexHome: join(repo, 'e2e', 'fixtures', 'codex-home') });
});
after(async () => {
  await app?.close();
});

test('XSS in agent output executes nothing', async () => {
  const { page } = app;
  await page.getByTestId('nav-new').click();
  await page.getByTestId('prompt').fill(corpus);
  await page.getByTestId('send').click();
  await page.waitForFunction(
    () => (document.querySelector('[data-testid="message-list"] [data-role="assistant"]')?.textContent ?? '').includes('You said'),
    null,
    { timeout: 30_000 },
  );
  await page.waitForTimeout(500);
  // Click every link the agent produced: none may run script.
  for (const a of await page.locator('[data-testid="message-list"] a').all()) {
    await a.click({ timeout: 2000 }).catch(() => {});
  }
  assert.equal(await page.evaluate(() => window.__xss), undefined, 'a payload executed');
  assert.equal(await page.locator('[data-testid="message-list"] script, [data-testid="message-list"] iframe').count(), 0);
});

test('XSS in a saved transcript executes nothing', async () => {
  const { page } = app;
  await page.getByTestId('nav-home').click();
  await page.getByTestId('open-transcript').first().click();
  await page.getByTestId('transcript-message').first().waitFor({ timeout: 20_000 });
  await page.waitForTimeout(500);
  const text = await page.getByTestId('transcript').innerText();
  assert.match(text, /XSS corpus/, 'the fixture transcript is shown');
  assert.equal(await page.evaluate(() => window.__xss), undefined, 'a payload executed');
  assert.equal(await page.locator('[data-testid="transcript"] script, [data-testid="transcript"] iframe').count(), 0);
});
