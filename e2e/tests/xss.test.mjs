// Agent output and saved transcripts are untrusted: an XSS corpus rendered in
// the chat and in the transcript viewer executes nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, repo, hostileSessionID } from '../lib/harness.mjs';

// Payloads that say so when they run, then the corpus the Go fault matrix
// sends through a chat turn (internal/testrig/fixtures/xss.txt: alert(), which the
// dialog listener below catches in any frame).
const corpus = [
  '<img src=x onerror="window.__xss=1">',
  '<script>window.__xss=2</script>',
  '[click](javascript:window.__xss=3)',
  '<svg onload="window.__xss=4"></svg>',
  '<iframe srcdoc="<script>parent.__xss=5</script>"></iframe>',
  '<a href="data:text/html,<script>window.__xss=6</script>">d</a>',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=7">',
  '<details open ontoggle="window.__xss=8">',
  ...readFileSync(join(repo, 'internal', 'testrig', 'fixtures', 'xss.txt'), 'utf8').split('\n').filter(Boolean),
].join('\n\n');

let app;
const dialogs = [];
before(async () => {
  app = await launch({ scenario: 'normal', codexHome: true });
  app.page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    d.dismiss().catch(() => {});
  });
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
  await page.waitForFunction(() => !document.querySelector('[data-testid="running"]'), null, { timeout: 30_000 });
  await page.waitForTimeout(500);
  const reply = page.locator('[data-testid="message-list"] [data-role="assistant"]').last();
  // The corpus arrived whole: its last payload is in the reply, as text.
  assert.match(await reply.innerText(), /css/);
  // Click every link and button the agent produced: none may run script.
  for (const el of await reply.locator('a, button').all()) {
    await el.click({ timeout: 2000 }).catch(() => {});
  }
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.__xss), undefined, 'a payload executed');
  assert.deepEqual(dialogs, [], 'a payload opened a dialog');
  assert.equal(await page.locator('[data-testid="message-list"] :is(script, iframe, object, embed, form, base, meta, link, style)').count(), 0);
});

test('XSS in a saved transcript executes nothing', async () => {
  const { page } = app;
  await page.getByTestId('nav-home').click();
  await page.locator(`[data-testid="session-row"][data-session-id="${hostileSessionID}"]`).getByTestId('open-transcript').click();
  await page.getByTestId('transcript-message').first().waitFor({ timeout: 20_000 });
  await page.waitForTimeout(500);
  const text = await page.getByTestId('transcript').innerText();
  assert.match(text, /XSS corpus/, 'the fixture transcript is shown');
  assert.equal(await page.evaluate(() => window.__xss), undefined, 'a payload executed');
  assert.deepEqual(dialogs, [], 'a payload opened a dialog');
  assert.equal(await page.locator('[data-testid="transcript"] script, [data-testid="transcript"] iframe').count(), 0);
});

test('the dev server refuses IPC WebSocket upgrades from other origins and rebinding hosts', async () => {
  const { request } = await import('node:http');
  const { base } = app;
  const upgrade = (headers) =>
    new Promise((ok, fail) => {
      const req = request(base + '/wails/ipc', {
        headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', ...headers },
      });
      req.on('upgrade', (res, socket) => {
        socket.destroy();
        ok(res.statusCode);
      });
      req.on('response', (res) => {
        res.resume();
        ok(res.statusCode);
      });
      req.on('error', fail);
      req.end();
    });
  assert.equal(await upgrade({ Origin: base }), 101, "the app's own page connects");
  assert.equal(await upgrade({ Origin: 'https://evil.example' }), 403, 'another site');
  assert.equal(await upgrade({ Origin: 'null' }), 403, 'a file: or sandboxed page');
  assert.equal(await upgrade({}), 403, 'no Origin');
  const port = new URL(base).port;
  assert.equal(await upgrade({ Origin: `http://rebind.example:${port}`, Host: `rebind.example:${port}` }), 403, 'DNS rebinding');
  // The app's own page still talks to Go through it.
  assert.equal(typeof (await app.page.evaluate(() => window.go.app.Settings.GetSettings())), 'object');
});

test('no navigation vector in agent output moves the page or reaches the outside', async () => {
  const { createServer } = await import('node:http');
  const seen = [];
  const outside = createServer((req, res) => {
    seen.push(req.url);
    res.end('outside');
  });
  await new Promise((r) => outside.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${outside.address().port}`;
  try {
    const { page } = app;
    const start = page.url();
    const popups = [];
    page.context().on('page', (p) => popups.push(p.url()));
    await page.getByTestId('nav-new').click();
    await page.getByTestId('prompt').fill(`#navigation aimed at ${url}`);
    await page.getByTestId('send').click();
    const last = page.locator('[data-testid="message-list"] [data-role="assistant"]').last();
    await page.waitForFunction(() => /⟦passive⟧/.test(document.querySelector('[data-testid="message-list"]')?.textContent ?? ''), null, { timeout: 30_000 });
    await page.waitForTimeout(300);
    // Every element of the reply, clicked and middle-clicked for real.
    for (const el of await last.locator('.md *').all()) {
      if (!(await el.isVisible())) continue;
      await el.click({ timeout: 1000 }).catch(() => {});
      await el.click({ button: 'middle', timeout: 1000 }).catch(() => {});
    }
    await page.waitForTimeout(500);
    assert.equal(page.url(), start, 'the page navigated');
    assert.deepEqual(popups, [], 'a window opened');
    assert.deepEqual(seen, [], 'the outside page was reached');
  } finally {
    outside.close();
  }
});
