// The chat tells the truth with the real @agentclientprotocol/codex-acp
// 2.6.0 (peers/) against the project's Responses mock: what the session bar
// shows equals what reached the model server (model, reasoning effort, and
// the sandbox the mode amounts to), across follow-ups, a new build, an app
// restart and Resume; history inline after Resume; the stall notice within
// 35 s once the mock stops answering.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { launch, repo } from '../lib/harness.mjs';

const adapter = join(repo, 'peers', 'node_modules', '@agentclientprotocol', 'codex-acp', 'dist', 'index.js');
const respmock = join(repo, 'build', 'bin', 'respmock');
// What each mode of codex-acp amounts to in the requests Codex sends.
const sandboxOf = { 'read-only': 'read-only', 'workspace-write': 'workspace-write', agent: 'workspace-write', 'agent-full-access': 'danger-full-access' };

let app;
let mock;
let mockInfo;
let dir;

before(async () => {
  for (const f of [adapter, respmock]) {
    if (!existsSync(f)) throw new Error(`${f} missing: run "make test-e2e" (it installs the peers and builds the mock)`);
  }
  // Codex will not set up its sandbox helper under the temp dir.
  const base = join(repo, '.cache', 'e2e');
  mkdirSync(base, { recursive: true });
  dir = mkdtempSync(join(base, 'codex-'));
  mkdirSync(join(dir, 'tmp'));
  mock = spawn(respmock, ['-home', join(dir, 'codex')], { stdio: ['pipe', 'pipe', 'inherit'] });
  mockInfo = await new Promise((resolve, reject) => {
    createInterface({ input: mock.stdout }).once('line', (l) => resolve(JSON.parse(l)));
    mock.once('exit', (c) => reject(new Error(`respmock exited ${c}`)));
  });
  // Codex creates its sqlite state on first start; two app-servers doing
  // that at once in a fresh CODEX_HOME (the app's background session/list
  // and the first turn) can make one fail. A real CODEX_HOME has it already.
  const codex = join(repo, 'peers', 'node_modules', '@openai', 'codex-linux-x64', 'vendor', 'x86_64-unknown-linux-musl', 'bin', 'codex');
  if (existsSync(codex)) {
    spawnSync(codex, ['app-server'], { input: '', env: { ...process.env, CODEX_HOME: mockInfo.codexHome, TMPDIR: join(dir, 'tmp') }, timeout: 30_000 });
  }
  app = await launch({
    env: {
      CDXTHEME_AGENT: `${process.execPath} ${adapter}`,
      CODEX_HOME: mockInfo.codexHome,
      TMPDIR: join(dir, 'tmp'),
      NO_BROWSER: '1',
      OPENAI_API_KEY: '',
      CODEX_API_KEY: '',
    },
  });
});

after(async () => {
  await app?.close();
  mock?.stdin.end();
  await new Promise((r) => setTimeout(r, 200));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function requests() {
  const res = await fetch(mockInfo.control + '/requests');
  return res.json();
}

async function reply(mode) {
  const res = await fetch(`${mockInfo.control}/reply?mode=${mode}`, { method: 'POST' });
  assert.equal(res.status, 204);
}

const sel = (page, id) => page.locator(`[data-testid="session-bar"] [data-testid="bar-option"][data-config-id="${id}"] select`);

async function idle(page, timeout = 60_000) {
  await page.getByTestId('send').waitFor({ timeout });
  await page.waitForFunction(() => !document.querySelector('[data-testid="running"]') && !document.querySelector('[data-testid="session-bar"][aria-busy="true"]'), null, { timeout });
}

async function send(page, prompt) {
  await page.getByTestId('prompt').fill(prompt);
  await page.getByTestId('send').click();
  await page.waitForFunction((p) => (document.querySelector('[data-testid="message-list"]')?.textContent ?? '').includes(`You said: ${p}`), prompt, { timeout: 60_000 });
  await idle(page);
}

/** The bar against the request the model server got for prompt. */
async function assertBarIsTheWire(page, prompt) {
  const turn = (await requests()).filter((r) => r.user === prompt).at(-1);
  assert.ok(turn, `the mock saw no request for "${prompt}"`);
  const bar = { mode: await sel(page, 'mode').inputValue(), model: await sel(page, 'model').inputValue(), effort: await sel(page, 'reasoning_effort').inputValue() };
  assert.deepEqual(
    { sandbox: sandboxOf[bar.mode], model: bar.model, effort: bar.effort },
    { sandbox: turn.sandbox, model: turn.model, effort: turn.effort },
    `after "${prompt}" the bar shows ${JSON.stringify(bar)} while the wire carried ${JSON.stringify(turn)}`,
  );
  return bar;
}

async function choose(page, id, value) {
  await sel(page, id).selectOption(value);
  await page.waitForFunction(
    ([id, value]) => {
      const o = document.querySelector(`[data-testid="bar-option"][data-config-id="${id}"]`);
      return o?.getAttribute('data-value') === value && !o.hasAttribute('data-applying') && o.querySelector('select')?.value === value;
    },
    [id, value],
    { timeout: 20_000 },
  );
}

test('the bar equals the wire: first turn, changes, follow-ups, a model switch', async () => {
  const { page } = app;
  await page.getByTestId('nav-new').click();
  await page.getByTestId('prompt').fill('Harbour night theme');
  await page.getByTestId('send').click();
  await page.waitForFunction(() => (document.querySelector('[data-testid="message-list"]')?.textContent ?? '').includes('You said: Harbour night theme'), null, { timeout: 60_000 });
  await idle(page);
  const first = await assertBarIsTheWire(page, 'Harbour night theme');
  assert.equal(first.mode, 'agent');

  await choose(page, 'mode', 'agent-full-access');
  await choose(page, 'reasoning_effort', 'high');
  for (const p of ['Warmer please', 'Even warmer please']) {
    await send(page, p);
    assert.deepEqual(await assertBarIsTheWire(page, p), { mode: 'agent-full-access', model: 'gpt-5.5', effort: 'high' });
  }
  await choose(page, 'model', 'gpt-6.1-sol');
  await send(page, 'On the other model');
  assert.equal((await assertBarIsTheWire(page, 'On the other model')).model, 'gpt-6.1-sol');
});

test('a new build starts from the agent\'s defaults, not the other chat\'s mode', async () => {
  const { page } = app;
  await page.getByTestId('nav-new').click();
  // The agent's fresh-session values are known now: the whole bar shows before the first message.
  await sel(page, 'mode').waitFor({ timeout: 10_000 });
  assert.equal(await sel(page, 'mode').inputValue(), 'agent');
  await page.getByTestId('prompt').fill('Paper light theme');
  await page.getByTestId('send').click();
  await page.waitForFunction(() => (document.querySelector('[data-testid="message-list"]')?.textContent ?? '').includes('You said: Paper light theme'), null, { timeout: 60_000 });
  await idle(page);
  const bar = await assertBarIsTheWire(page, 'Paper light theme');
  assert.equal(bar.mode, 'agent');
  assert.equal((await requests()).filter((r) => r.user === 'Paper light theme').at(-1).sandbox, 'workspace-write');
});

test('after a restart, Resume shows the history inline and the chat keeps its settings on the wire', async () => {
  const { page } = app;
  await app.restart();
  await page.getByTestId('nav-home').click();
  const row = page.locator('[data-testid="session-row"]').filter({ hasText: /Harbour night/ });
  await row.first().waitFor({ timeout: 30_000 });
  await row.first().getByTestId('resume').click();
  // The chat view's code loads on first use (after the restart, now): the
  // prompt has the focus as soon as the view is there.
  await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'prompt', null, { timeout: 10_000 });
  await page.locator('[data-testid="message"][data-history="true"]').first().waitFor({ timeout: 30_000 });
  const list = await page.getByTestId('message-list').innerText();
  assert.match(list, /Harbour night theme[\s\S]*Even warmer please[\s\S]*On the other model/);
  await idle(page);
  mkdirSync(join(repo, 'build', 'e2e-shots'), { recursive: true });
  await page.screenshot({ path: join(repo, 'build', 'e2e-shots', 'real-codex-resumed.png') });
  assert.deepEqual(
    { mode: await sel(page, 'mode').inputValue(), model: await sel(page, 'model').inputValue(), effort: await sel(page, 'reasoning_effort').inputValue() },
    { mode: 'agent-full-access', model: 'gpt-6.1-sol', effort: 'high' },
  );
  await send(page, 'After the restart');
  assert.deepEqual(await assertBarIsTheWire(page, 'After the restart'), { mode: 'agent-full-access', model: 'gpt-6.1-sol', effort: 'high' });
});

test('when the model server stops answering, the stall notice comes within 35 s and Stop ends the turn', async () => {
  const { page } = app;
  await reply('hang');
  try {
    await page.getByTestId('prompt').fill('Are you there?');
    const t0 = Date.now();
    await page.getByTestId('send').click();
    await page.getByTestId('stall-notice').waitFor({ timeout: 35_000 });
    const waited = Date.now() - t0;
    assert.ok(waited < 35_000, `stall notice after ${waited} ms`);
    await page.getByTestId('stall-stop').click();
    await page.locator('[data-testid="message"][data-role="stopped"]').last().waitFor({ timeout: 30_000 });
  } finally {
    await reply('echo');
  }
  await idle(page);
});
