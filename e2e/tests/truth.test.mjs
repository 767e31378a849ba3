// The chat tells the truth (issue 11), with the fake agent, in one app run
// and one restart: one session bar, before the first message and after every
// follow-up showing what the agent holds; a mode picked in one chat never
// reaches another; a refusal shown with its reason; the agent's retry
// notices and a stall in the status line; a model server that answered 500
// as an error with Retry; history inside a reopened chat;
// focus in the prompt; the missing agent said before sending.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, agentLog, repo } from '../lib/harness.mjs';

let app;
// Where the native folder picker "chooses" (CDXTHEME_TEST_PICK_FOLDER).
const picked = join(tmpdir(), `cdx-picked-${process.pid}`);
before(async () => {
  mkdirSync(picked, { recursive: true });
  app = await launch({ scenario: 'normal', env: { FAKE_AGENT_RETRIES: '4', FAKE_AGENT_RETRY_MS: '1500', CDXTHEME_TEST_SAVE_TO: join(tmpdir(), `cdx-export-${process.pid}.md`), CDXTHEME_TEST_PICK_FOLDER: picked } });
});
after(async () => {
  await app?.close();
  rmSync(picked, { recursive: true, force: true });
  rmSync(join(tmpdir(), `cdx-export-${process.pid}.md`), { force: true });
});

const shots = join(repo, 'build', 'e2e-shots');

const bar = (page) => page.getByTestId('session-bar');
const sel = (page, id) => page.locator(`[data-testid="session-bar"] [data-testid="bar-option"][data-config-id="${id}"] select`);

/** What the bar shows: option id → value, for mode, model and effort. */
async function shown(page) {
  const out = {};
  for (const id of ['mode', 'model', 'reasoning_effort']) out[id] = await sel(page, id).inputValue();
  return out;
}

/** The last "Running with …" reply: what the agent itself holds. */
async function held(page) {
  const texts = await page.locator('[data-testid="message"][data-role="assistant"]').allInnerTexts();
  const m = /Running with mode=(\S+), model=(\S+), reasoning_effort=([^.\s]+)\./.exec(texts.filter((t) => t.includes('Running with')).at(-1) ?? '');
  assert.ok(m, `no settings reply in ${JSON.stringify(texts.slice(-2))}`);
  return { mode: m[1], model: m[2], reasoning_effort: m[3] };
}

async function idle(page, timeout = 30_000) {
  // In the chat (New build has a Send button of its own), done with the turn.
  await page.getByTestId('message-list').waitFor({ timeout });
  await page.getByTestId('send').waitFor({ timeout });
  await page.waitForFunction(() => !document.querySelector('[data-testid="running"]') && !document.querySelector('[data-testid="session-bar"][aria-busy="true"]'), null, { timeout });
}

async function send(page, prompt) {
  await page.getByTestId('prompt').fill(prompt);
  await page.getByTestId('send').click();
  await idle(page);
}

/** Sets a bar option in the open chat and waits for the agent's answer to show. */
async function choose(page, id, value) {
  await sel(page, id).selectOption(value);
  await page.waitForFunction(
    ([id, value]) => {
      const o = document.querySelector(`[data-testid="bar-option"][data-config-id="${id}"]`);
      return o?.getAttribute('data-value') === value && !o.hasAttribute('data-applying') && o.querySelector('select')?.value === value;
    },
    [id, value],
    { timeout: 15_000 },
  );
}

const sessionsOf = (method) => agentLog(app.logFile).filter((m) => m.method === method);

test('New build shows the bar before the first message; the first reply and the bar agree', async () => {
  const { page } = app;
  await page.getByTestId('nav-new').click();
  await bar(page).waitFor();
  // Typing goes into the prompt at once.
  // The view loads on first use; the prompt has the focus once it is there.
  await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'prompt', null, { timeout: 10_000 });
  // CDXTHEME_AGENT runs the fake agent for every entry: the bar names that command.
  assert.match(await page.getByTestId('bar-agent').innerText(), /fakeagent/);
  // No agent has answered yet: models and efforts from Codex's files.
  // (the bar's options come a moment after the bar itself, from Codex's files)
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-bar"] [data-config-id="model"] option').length >= 1, null, { timeout: 10_000 })
    .catch(() => assert.fail('New build offers no model before the first message'));
  await page.getByTestId('prompt').fill('A teal theme #settings');
  await page.getByTestId('send').click();
  await idle(page);
  const agent = await held(page);
  assert.deepEqual(await shown(page), agent, 'the bar differs from what the agent runs');
  assert.equal(agent.mode, 'agent');
});

test('values changed in the chat are what the agent runs, across follow-ups; a refusal says why', async () => {
  const { page } = app;
  await choose(page, 'mode', 'agent-full-access');
  await choose(page, 'reasoning_effort', 'high');
  for (const prompt of ['Warmer #settings', 'Even warmer #settings']) {
    await send(page, prompt);
    const agent = await held(page);
    assert.deepEqual(agent, { mode: 'agent-full-access', model: 'gpt-5.5', reasoning_effort: 'high' });
    assert.deepEqual(await shown(page), agent, `after "${prompt}" the bar shows something else than the agent runs`);
  }
  // The fake agent lists gpt-5-pro but refuses it.
  await sel(page, 'model').selectOption('gpt-5-pro');
  const refused = page.getByTestId('bar-refused');
  await refused.waitFor({ timeout: 15_000 });
  assert.match(await refused.innerText(), /not available for this account/);
  // Once the agent has answered, the control shows what it runs.
  await page.waitForFunction(() => {
    const o = document.querySelector('[data-testid="bar-option"][data-config-id="model"]');
    return o && !o.hasAttribute('data-applying') && o.querySelector('select')?.value === 'gpt-5.5';
  }, null, { timeout: 10_000 }).catch(async () => assert.fail(`the refused model is shown as taken: ${await sel(page, 'model').inputValue()}`));
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, 'session-bar-chat.png') });
});

test('a mode picked in one chat never reaches a new build; Use as default does, explicitly', async () => {
  const { page } = app;
  await page.getByTestId('nav-new').click();
  await bar(page).waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="bar-option"][data-config-id="mode"]'), null, { timeout: 10_000 });
  assert.equal(await sel(page, 'mode').inputValue(), 'agent', 'New build shows the other chat\'s mode');
  await page.screenshot({ path: join(shots, 'session-bar-new-build.png') });
  const before = sessionsOf('session/set_config_option').length;
  await page.getByTestId('prompt').fill('Second build #settings');
  await page.getByTestId('send').click();
  await idle(page);
  assert.equal((await held(page)).mode, 'agent');
  const sets = sessionsOf('session/set_config_option').slice(before).filter((m) => m.params.configId === 'mode');
  assert.deepEqual(sets, [], 'the new build was sent a mode');

  await page.getByTestId('nav-new').click();
  await sel(page, 'mode').waitFor();
  await sel(page, 'mode').selectOption('read-only');
  await page.getByTestId('bar-default').click();
  await page.getByTestId('bar-default-note').waitFor();
  await page.getByTestId('nav-home').click();
  await page.getByTestId('nav-new').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="bar-option"][data-config-id="mode"] select')?.value === 'read-only', null, { timeout: 10_000 });
  await page.getByTestId('prompt').fill('Third build #settings');
  await page.getByTestId('send').click();
  await idle(page);
  assert.equal((await held(page)).mode, 'read-only');
  assert.equal(await sel(page, 'mode').inputValue(), 'read-only');
});

test('the agent\'s retry notices show in the status line, with the elapsed time', async () => {
  const { page } = app;
  await page.getByTestId('prompt').fill('Still there? #retry');
  await page.getByTestId('send').click();
  const status = page.getByTestId('turn-agent-status');
  await status.waitFor({ timeout: 15_000 });
  assert.equal(await status.innerText(), 'Reconnecting... waiting for network — Connection failed: error sending request');
  await page.waitForFunction(() => /^0:0[1-9]/.test(document.querySelector('[data-testid="turn-elapsed"]')?.textContent ?? ''), null, { timeout: 10_000 });
  await idle(page);
  assert.match(await page.getByTestId('message-list').innerText(), /Back online/);
});

test('a model server that answered 500 is an error with Retry, which sends the same prompt again', async () => {
  const { page } = app;
  const prompt = 'Make it teal #server-error';
  await send(page, prompt);
  const list = page.getByTestId('message-list');
  const box = list.getByTestId('error-box').filter({ hasText: 'unexpected status 500' }).last();
  await box.waitFor({ timeout: 15_000 });
  assert.doesNotMatch(await list.locator('[data-role="assistant"]').allInnerTexts().then((t) => t.join('\n')), /unexpected status 500/);
  const prompts = () => agentLog(app.logFile).filter((m) => m.method === 'session/prompt' && m.params.prompt?.[0]?.text === prompt).length;
  assert.equal(prompts(), 1);
  await box.getByTestId('retry').click();
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="message-list"] [data-testid="error-box"]')].filter((b) => b.textContent.includes('unexpected status 500')).length === 2, null, { timeout: 15_000 });
  await idle(page);
  assert.equal(prompts(), 2, 'Retry did not send the same prompt once more');
});

test('a stalled turn offers Keep waiting and Stop within 35 s', async () => {
  const { page } = app;
  await page.getByTestId('prompt').fill('Think hard #stall');
  const t0 = Date.now();
  await page.getByTestId('send').click();
  await page.getByTestId('stall-notice').waitFor({ timeout: 35_000 });
  const waited = Date.now() - t0;
  assert.ok(waited >= 29_000, `stall notice after ${waited} ms, before 30 s of silence`);
  assert.match(await page.getByTestId('stall-notice').innerText(), /No answer from the agent for 3\d s/);
  await page.getByTestId('stall-stop').click();
  await page.locator('[data-testid="message"][data-role="stopped"]').last().waitFor({ timeout: 15_000 });
  await idle(page);
});

test('a reopened chat shows its earlier turns inline, keeps its own settings, after a restart too', async () => {
  const { page } = app;
  const openChatA = async () => {
    await page.getByTestId('nav-home').click();
    const rows = page.getByTestId('build-row');
    await rows.last().waitFor({ timeout: 10_000 });
    await rows.filter({ hasText: 'A teal theme' }).click();
    await idle(page);
  };
  await openChatA();
  // Still open in this run (chats stay open side by side): its turns as
  // they were streamed; after the restart they come back as history.
  await page.locator('[data-testid="message"]').first().waitFor({ timeout: 15_000 });
  assert.match(await page.getByTestId('message-list').innerText(), /A teal theme[\s\S]*Even warmer/);
  const history = page.locator('[data-testid="message"][data-history="true"]');
  assert.equal(await page.getByTestId('history-more').count(), 0, 'Load more offered without a rollout');
  assert.deepEqual(await shown(page), { mode: 'agent-full-access', model: 'gpt-5.5', reasoning_effort: 'high' });

  await app.restart();
  await openChatA();
  // The view loads on first use; the prompt has the focus once it is there.
  await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'prompt', null, { timeout: 10_000 });
  await history.first().waitFor({ timeout: 15_000 });
  const texts = await page.getByTestId('message-list').innerText();
  assert.equal(texts.split('Even warmer').length, 2, 'the history shows twice');
  assert.deepEqual(await shown(page), { mode: 'agent-full-access', model: 'gpt-5.5', reasoning_effort: 'high' });
  await send(page, 'After the restart #settings');
  assert.deepEqual(await held(page), await shown(page));
  assert.equal((await held(page)).mode, 'agent-full-access');
  // Markdown export from the chat itself (no rollout: what the chat shows).
  await page.getByTestId('chat-export').click();
  const file = join(tmpdir(), `cdx-export-${process.pid}.md`);
  await page.waitForFunction(() => /Saved to/.test(document.body.textContent ?? ''), null, { timeout: 10_000 });
  const md = readFileSync(file, 'utf8');
  assert.match(md, /A teal theme #settings[\s\S]*After the restart #settings/);
});

test('Resume of a chat whose folder is gone offers Choose folder, and continues there', async () => {
  const { page } = app;
  const sid = 'fa11ed00-0000-4000-8000-00000000f01d';
  writeFileSync(join(app.stateDir, 'sessions', sid + '.json'), JSON.stringify({
    sessionId: sid, cwd: '/nonexistent/cdx-gone', title: 'Gone folder chat', updatedAt: '2026-12-02T10:00:00Z', mode: 'agent', config: {},
    history: [{ role: 'user', text: 'make it teal' }, { role: 'agent', text: 'Teal it is.' }],
  }));
  await app.restart(); // the agent's session list is read at start
  await page.getByTestId('nav-home').click();
  const row = page.locator(`[data-testid="session-row"][data-session-id="${sid}"]`);
  await row.waitFor({ timeout: 30_000 });
  await row.getByTestId('resume').click();
  const box = page.getByTestId('error-box').filter({ hasText: 'no longer exists' });
  await box.waitFor({ timeout: 15_000 });
  assert.equal(await box.getByTestId('retry').count(), 0, 'a Retry that cannot work is offered');
  await box.getByTestId('error-action').click();
  await page.locator('[data-testid="message"][data-history="true"]').first().waitFor({ timeout: 15_000 });
  await send(page, 'Carry on #settings');
  const opened = agentLog(app.logFile).filter((m) => m.method === 'session/load' && m.params.sessionId === sid).at(-1);
  assert.equal(opened?.params.cwd, picked);
});

test('a missing agent is said on New build before anything is sent, with Open Settings', async () => {
  const { page } = app;
  await app.restart({ CDXTHEME_AGENT: join(app.root, 'no-such-agent') });
  await page.getByTestId('nav-new').click();
  const box = page.getByTestId('agent-missing');
  await box.waitFor({ timeout: 15_000 });
  const text = await box.innerText();
  assert.doesNotMatch(text, /CDXTHEME_AGENT|--agent/);
  assert.ok(text.length < 400, `the message is a wall of text (${text.length} characters)`);
  await box.getByTestId('error-action').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="nav-settings"]')?.getAttribute('aria-current') === 'page', null, { timeout: 10_000 });
});
