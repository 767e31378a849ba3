// Home's library in one app launch: full-text search through the index the
// app builds at start (snippet highlighted, hostile text kept as text),
// opening a hit scrolls the transcript to it, sub-agent sessions hidden
// until asked for, a garbage rollout listed as unreadable; build cards with
// the theme's swatches, rename, delete and undo, on disk.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { launch, repo, writeSampleHome, hostileSessionID } from '../lib/harness.mjs';
import { resolve, rgb } from '../lib/colour.mjs';

const deepID = '019a0000-0000-7000-8000-0000000e2e10';
const guardianID = '019a0000-0000-7000-8000-0000000e2e11';
const garbageID = '019a0000-0000-7000-8000-0000000e2e12';
const hitIndex = 57; // past the transcript's first page of 50
const buildID = '20261201-100000-e2e0aa';
const unsentID = '20261201-100500-e2e0bb';

function line(ts, type, payload) {
  return JSON.stringify({ timestamp: ts, type, payload });
}

/** A rollout of 60 messages; message hitIndex holds the word searched for, beside hostile markup. */
function deepRollout() {
  const ts = '2026-12-02T10:00:00.000Z';
  const out = [line(ts, 'session_meta', { id: deepID, cwd: '/tmp/cdxtheme-e2e-deep', source: 'cli' })];
  for (let i = 0; i < 60; i++) {
    const user = i % 2 === 0;
    let text = user ? `Say hello, step ${i}` : `Here is step ${i} of the palette.`;
    if (i === hitIndex) text = 'The <img src=x onerror="window.__xss=1"> zanzibar accent is #ff8800.';
    out.push(line(ts, 'event_msg', { type: user ? 'user_message' : 'agent_message', message: text }));
  }
  return out.join('\n') + '\n';
}

let app;
let codexHome;
before(async () => {
  const src = mkdtempSync(join(tmpdir(), 'cdx-e2e-lib-'));
  codexHome = join(src, 'home');
  writeSampleHome(codexHome);
  const day = join(codexHome, 'sessions', '2026', '12', '02');
  mkdirSync(day, { recursive: true });
  writeFileSync(join(day, `rollout-2026-12-02T10-00-00-${deepID}.jsonl`), deepRollout());
  writeFileSync(join(day, `rollout-2026-12-02T09-00-00-${guardianID}.jsonl`), [
    line('2026-12-02T09:00:00Z', 'session_meta', { id: guardianID, cwd: '/tmp/x', source: { subagent: { other: 'guardian' } } }),
    line('2026-12-02T09:00:01Z', 'event_msg', { type: 'user_message', message: 'Guardian review of a command' }),
  ].join('\n') + '\n');
  writeFileSync(join(day, `rollout-2026-12-02T08-00-00-${garbageID}.jsonl`), '\x00\x01 not a rollout at all\n');
  app = await launch({ scenario: 'normal', codexHome });
  rmSync(src, { recursive: true, force: true });
  // Two workspaces: one whose first message went out (with a theme), one
  // whose first message never did.
  const root = join(app.dataDir, 'theme_builder');
  const ws = (id, title, sessionIds) => {
    const dir = join(root, id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '.cdxtheme.json'), JSON.stringify({ id, title, created: '2026-12-01T10:00:00Z', sessionIds, model: '', dir }));
    return dir;
  };
  const dir = ws(buildID, 'Harbour e2e', [hostileSessionID]);
  cpSync(join(repo, 'core', 'theme', 'testdata', 'example.theme.json'), join(dir, 'theme.json'));
  ws(unsentID, 'Never sent', []);
});
after(async () => {
  await app?.close();
});

async function home(page) {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('nav-home').click();
}

test('builds: a card with the theme’s swatches; rename, delete and undo reach the disk', async () => {
  const { page } = app;
  await home(page);
  const card = page.locator(`[data-testid="build-card"][data-build-id="${buildID}"]`);
  await card.waitFor({ timeout: 20_000 });
  assert.equal(await page.locator(`[data-build-id="${unsentID}"]`).count(), 0, 'a build that never got its first message is on Home');
  const theme = JSON.parse(readFileSync(join(repo, 'core', 'theme', 'testdata', 'example.theme.json'), 'utf8'));
  const first = await card.locator('.sw').first().evaluate((e) => getComputedStyle(e).backgroundColor);
  assert.equal(first, rgb(resolve(theme, theme.ui.background)));
  assert.match(await card.innerText(), /Harbour e2e/);

  await card.getByTestId('rename-build').click();
  await card.getByTestId('build-name').fill('Harbour renamed');
  await card.getByTestId('build-name').press('Enter');
  await page.waitForFunction((id) => document.querySelector(`[data-build-id="${id}"] [data-testid=build-title]`)?.textContent === 'Harbour renamed', buildID);
  const meta = JSON.parse(readFileSync(join(app.dataDir, 'theme_builder', buildID, '.cdxtheme.json'), 'utf8'));
  assert.equal(meta.title, 'Harbour renamed');

  await card.getByTestId('delete-build').click();
  await page.getByTestId('build-deleted').waitFor();
  assert.equal(await card.count(), 0, 'the deleted build still has its card');
  await page.locator(`[data-testid="deleted-build"][data-build-id="${buildID}"]`).waitFor({ state: 'attached' });
  assert.ok(existsSync(join(app.dataDir, 'theme_builder', '.trash', buildID, 'theme.json')), 'not moved to the trash');
  await page.getByTestId('undo-delete').click();
  await card.waitFor({ timeout: 10_000 });
  assert.ok(existsSync(join(app.dataDir, 'theme_builder', buildID, 'theme.json')), 'undo did not bring the folder back');
});

test('sessions: sub-agent sessions hidden until asked for; garbage is unreadable, without Resume', async () => {
  const { page } = app;
  await home(page);
  const deep = page.locator(`[data-testid="session-row"][data-session-id="${deepID}"]`);
  await deep.waitFor({ timeout: 20_000 });
  assert.equal(await page.locator(`[data-session-id="${guardianID}"]`).count(), 0, 'a guardian review is listed as the user’s session');
  const bad = page.locator(`[data-testid="session-row"][data-session-id="${garbageID}"]`);
  assert.match(await bad.innerText(), /Unreadable file/);
  assert.equal(await bad.getByTestId('resume').count(), 0);
  await page.getByTestId('show-internal').check();
  await page.locator(`[data-session-id="${guardianID}"]`).waitFor({ timeout: 10_000 });
  await page.getByTestId('show-internal').uncheck();
  await page.locator(`[data-session-id="${guardianID}"]`).waitFor({ state: 'detached', timeout: 10_000 });
});

test('search: message text matches with the snippet highlighted; opening the hit scrolls to it', async () => {
  const { page } = app;
  await home(page);
  const search = page.getByTestId('session-search');
  // The index is built in the background at start; the search is run again
  // when it is done, so waiting for the row is enough.
  await search.fill('zanzibar');
  const row = page.locator(`[data-testid="session-row"][data-session-id="${deepID}"]`);
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid=session-row]').length === 1 && document.querySelector('[data-testid=snippet] mark'),
    null,
    { timeout: 30_000 },
  ).catch(async () => {
    // The build may have finished before the first keystroke: type again.
    await search.fill('');
    await search.fill('zanzibar');
    await page.waitForFunction(() => document.querySelector('[data-testid=snippet] mark'), null, { timeout: 20_000 });
  });
  const snippet = row.getByTestId('snippet');
  assert.match(await snippet.innerText(), /<img src=x onerror="window.__xss=1"> zanzibar accent/);
  assert.deepEqual(await snippet.locator('mark').allInnerTexts(), ['zanzibar']);
  assert.equal(await snippet.locator('img').count(), 0);

  await row.getByTestId('open-transcript').click();
  const hit = page.locator(`[data-testid="transcript-message"][data-index="${hitIndex}"]`);
  await hit.waitFor({ timeout: 20_000 });
  await page.waitForFunction((i) => {
    const el = document.querySelector(`[data-index="${i}"]`);
    if (!el || !el.classList.contains('hit')) return false;
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  }, hitIndex, { timeout: 10_000 });
  assert.match(await hit.innerText(), /zanzibar/);
  assert.equal(await page.evaluate(() => window.__xss), undefined);

  // The example: "hello" finds the sessions that begin "Say hello".
  await page.getByTestId('nav-home').click();
  await page.getByTestId('session-search').fill('hello');
  await page.locator(`[data-testid="session-row"][data-session-id="${deepID}"] [data-testid=snippet] mark`).first().waitFor({ timeout: 10_000 });
  assert.deepEqual(app.pageErrors, []);
});
