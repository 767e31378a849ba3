// Resume a saved session from Home; the live preview follows theme.json that
// the agent writes, with computed colours matching the file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch, agentLog, hostileSessionID } from '../lib/harness.mjs';

const sid = hostileSessionID;
const cwd = '/tmp/cdxtheme-e2e-resume';

let app;
before(async () => {
  mkdirSync(cwd, { recursive: true });
  app = await launch({ scenario: 'normal', codexHome: true });
  // The fake agent knows the saved session, as Codex would.
  const stateDir = join(app.root, 'fakeagent-state', 'sessions');
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(join(stateDir, sid + '.json'), JSON.stringify({
    sessionId: sid, cwd, updatedAt: '2026-12-01T10:00:03Z', mode: 'default', config: {},
    history: [{ role: 'user', text: 'Make a high-contrast solarized variant' }, { role: 'agent', text: 'Done.' }],
  }));
});
after(async () => {
  await app?.close();
});

test('Home lists the saved session and Resume continues it', async () => {
  const { page } = app;
  await page.getByTestId('nav-home').click();
  const row = page.locator(`[data-testid="session-row"][data-session-id="${sid}"]`);
  await row.waitFor({ timeout: 20_000 });
  assert.match(await row.innerText(), /Solarized high contrast/);
  await row.getByTestId('resume').click();
  await page.getByTestId('prompt').fill('Now make the comments greener');
  await page.getByTestId('send').click();
  await page.waitForFunction(
    () => (document.querySelector('[data-testid="message-list"]')?.textContent ?? '').includes('Now make the comments greener'),
    null,
    { timeout: 30_000 },
  );
  await page.waitForFunction(() => !document.querySelector('[data-testid="running"]'), null, { timeout: 30_000 });
  const calls = agentLog(app.logFile).filter((m) => m.method === 'session/resume' || m.method === 'session/load');
  assert.ok(calls.length >= 1, 'the follow-up neither resumed nor loaded');
  assert.equal(calls[0].params.sessionId, sid);
  const prompts = agentLog(app.logFile).filter((m) => m.method === 'session/prompt');
  assert.equal(prompts.at(-1).params.sessionId, sid);
});

function rgb(hex) {
  const h = hex.replace('#', '');
  return `rgb(${parseInt(h.slice(0, 2), 16)}, ${parseInt(h.slice(2, 4), 16)}, ${parseInt(h.slice(4, 6), 16)})`;
}

test('the preview follows theme.json written by the agent, colours matching the file', async () => {
  const { page } = app;
  await page.getByTestId('nav-new').click();
  await page.getByTestId('prompt').fill('Write me a theme #theme');
  await page.getByTestId('send').click();
  // The chat opens once Go created the workspace (and its first checkpoint);
  // only then does "not running" mean "finished".
  await page.waitForFunction(
    () => (document.querySelector('[data-testid="message-list"]')?.textContent ?? '').includes('Theme ready.'),
    null,
    { timeout: 60_000 },
  );
  await page.waitForFunction(() => !document.querySelector('[data-testid="running"]'), null, { timeout: 60_000 });
  const root = join(app.dataDir, 'theme_builder');
  const ws = readdirSync(root).sort().at(-1);
  const theme = JSON.parse(readFileSync(join(root, ws, 'theme.json'), 'utf8'));
  // The watcher may deliver the final write a moment after the turn ends.
  // Both writes carry the same name: wait for the final one's accent too.
  await page.waitForFunction(
    ([name, accent]) => {
      const btn = document.querySelector('[data-testid="preview-accent-button"]');
      return document.querySelector('[data-testid="preview-name"]')?.textContent?.includes(name) && btn && getComputedStyle(btn).backgroundColor === accent;
    },
    [theme.name, rgb(theme.ui.accent)],
    { timeout: 10_000 },
  );
  const styles = await page.evaluate(() => {
    const cs = (id, prop) => getComputedStyle(document.querySelector(`[data-testid="${id}"]`))[prop];
    return {
      chromeBg: cs('preview-chrome', 'backgroundColor'),
      chromeText: cs('preview-chrome', 'color'),
      sidebar: cs('preview-sidebar', 'backgroundColor'),
      selection: cs('preview-selection', 'backgroundColor'),
      accent: cs('preview-accent-button', 'backgroundColor'),
      ansi1: cs('preview-ansi-1', 'backgroundColor'),
      ansi12: cs('preview-ansi-12', 'backgroundColor'),
    };
  });
  assert.equal(styles.chromeBg, rgb(theme.ui.background));
  assert.equal(styles.chromeText, rgb(theme.ui.text));
  assert.equal(styles.sidebar, rgb(theme.ui.surface));
  assert.equal(styles.selection, rgb(theme.ui.selection));
  assert.equal(styles.accent, rgb(theme.ui.accent));
  assert.equal(styles.ansi1, rgb(theme.ansi[1]));
  assert.equal(styles.ansi12, rgb(theme.ansi[12]));
  // The code sample is highlighted by Shiki with the theme's VS Code export.
  await page.locator('[data-testid="preview-code"][data-highlighted="shiki"]').waitFor({ timeout: 20_000 });
  const keyword = await page.locator('[data-testid="preview-code"] .tok', { hasText: /^import$/ }).first().evaluate((el) => getComputedStyle(el).color);
  assert.equal(keyword, rgb(theme.syntax.keyword));
});
