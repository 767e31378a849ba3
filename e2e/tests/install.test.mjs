// The first-run install in the app: no agent command, no codex-acp on PATH,
// the pinned Bun beside the binary (make sidecar), a stub npm registry
// (build/bin/npmstub) serving the fake agent as the adapter. New Build shows
// the install card with a growing bar; Cancel stops it and keeps nothing;
// sending again installs to 100 % and the turn runs on the installed agent;
// the next message neither installs nor asks the registry.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { launch, repo } from '../lib/harness.mjs';

const stubBin = join(repo, 'build', 'bin', 'npmstub');
const bun = join(repo, 'build', 'bin', 'bun');
const fakeAgent = join(repo, 'build', 'bin', 'fakeagent');

let app;
let stub;
let registry;
// The stub's adapter is the fake agent, not the tested one: the app installs
// it from the stub's own lockfile, frozen, as it does the shipped one.
const lockDir = mkdtempSync(join(tmpdir(), 'cdx-stub-lock-'));
const lockFile = join(lockDir, 'stub.bun.lock');

function startStub() {
  for (const f of [stubBin, bun]) {
    if (!existsSync(f)) throw new Error(`${f} missing: run "make test-e2e" (it builds the stub and puts the sidecar's Bun there)`);
  }
  // 6 MiB at 1 MiB/s: slow enough to watch and to cancel.
  const child = spawn(stubBin, ['-agent', fakeAgent, '-filler', String(6 << 20), '-rate', String(1 << 20), '-lock', lockFile], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((ok, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) ok({ child, url: out.slice(0, nl).trim() });
    });
    child.on('exit', (code) => fail(new Error(`npmstub exited ${code}`)));
  });
}

before(async () => {
  stub = await startStub();
  registry = stub.url;
  // Nothing on PATH may hold codex-acp: resolution must reach the sidecar.
  const path = (process.env.PATH ?? '').split(delimiter).filter((d) => d && !existsSync(join(d, 'codex-acp'))).join(delimiter);
  app = await launch({ env: { CDXTHEME_AGENT: '', PATH: path, BUN_CONFIG_REGISTRY: registry, CDXTHEME_ADAPTER_LOCK: lockFile } });
});
after(async () => {
  await app?.close();
  stub?.child.kill();
  rmSync(lockDir, { recursive: true, force: true });
});

const installDir = () => join(app.root, 'cache', 'agents', 'codex-acp@2.6.0');

async function requests() {
  return (await fetch(registry + '-/stub/requests')).json();
}

/** Samples the bar's value while the install card runs, until until() holds. */
async function sampleBar(page, until, ms) {
  const values = [];
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await page.evaluate(() => {
      const bar = document.querySelector('[data-testid="install-card"][data-ended=""] [data-testid="install-bar"]');
      return bar && bar.hasAttribute('value') ? Number(bar.getAttribute('value')) : null;
    });
    if (v !== null) values.push(v);
    if (await until(values)) return values;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`install never got there; bar values ${values.join(',')}\n${app.output().slice(-3000)}`);
}

test('the first message installs the agent as a visible, cancellable step, then the turn runs on it', async () => {
  const { page } = app;
  await page.getByTestId('nav-new').click();
  await page.getByTestId('prompt').fill('A calm dusk theme');
  await page.getByTestId('send').click();

  const card = page.locator('[data-testid="install-card"]').first();
  await card.waitFor({ timeout: 30_000 });
  assert.match(await card.innerText(), /Installing the agent @agentclientprotocol\/codex-acp@2\.6\.0/);
  const early = await sampleBar(page, (vs) => vs.some((v) => v > 0), 30_000);
  assert.match(await page.getByTestId('install-status').innerText(), /[\d.]+ [kM]?B of [\d.]+ MB \(\d+%\)/);
  for (let i = 1; i < early.length; i++) assert.ok(early[i] >= early[i - 1], `bar went back: ${early}`);

  // Cancel mid-download: the turn ends, nothing is installed.
  await page.getByTestId('install-cancel').click();
  await page.locator('[data-testid="install-card"][data-ended="stopped"]').waitFor({ timeout: 15_000 });
  await page.locator('[data-testid="message"][data-role="stopped"]').waitFor({ timeout: 15_000 });
  const left = existsSync(join(app.root, 'cache', 'agents')) ? readdirSync(join(app.root, 'cache', 'agents')).filter((n) => !n.endsWith('.lock')) : [];
  assert.deepEqual(left, [], 'the cancelled install left folders behind');

  // Again, on a faster line: the bar runs to 100 % and the fake agent answers.
  await fetch(registry + '-/stub/rate?bps=' + (4 << 20), { method: 'POST' });
  await page.getByTestId('prompt').fill('Again please');
  await page.getByTestId('send').click();
  const values = await sampleBar(page, async () => (await page.locator('[data-testid="install-done"]').count()) > 0, 60_000);
  for (let i = 1; i < values.length; i++) assert.ok(values[i] >= values[i - 1], `bar went back: ${values}`);
  assert.match(await page.getByTestId('install-done').innerText(), /Installed the agent @agentclientprotocol\/codex-acp@2\.6\.0 \([\d.]+ MB\)/);
  await page.waitForFunction(
    () => (document.querySelector('[data-testid="message-list"]')?.textContent ?? '').includes('Hello from the fake agent.'),
    null,
    { timeout: 30_000 },
  );
  const marker = JSON.parse(readFileSync(join(installDir(), 'installed.json'), 'utf8'));
  assert.equal(marker.version, '2.6.0');

  // The next message uses the installed agent: no card, no registry.
  const asked = (await requests()).length;
  await page.waitForFunction(() => !document.querySelector('[data-testid="running"]'), null, { timeout: 30_000 });
  const cards = await page.locator('[data-testid="install-card"]').count();
  await page.getByTestId('prompt').fill('One more');
  await page.getByTestId('send').click();
  await page.waitForFunction(
    () => (document.querySelector('[data-testid="message-list"]')?.textContent ?? '').includes('You said: One more'),
    null,
    { timeout: 30_000 },
  );
  assert.equal(await page.locator('[data-testid="install-card"]').count(), cards, 'a second install card appeared');
  assert.equal((await requests()).length, asked + 1, 'the registry was asked again'); // +1: this very GET of the log
  assert.deepEqual(app.pageErrors, []);
});
