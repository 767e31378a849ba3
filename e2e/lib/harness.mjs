// Starts the dev-tagged app binary (real Go bindings, real core) under Xvfb
// with the project's fake agent, and a headless Debian chromium pointed at
// its dev server. Each test file gets its own app, config, data and Codex home.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, cpSync, rmSync, existsSync, appendFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '..', '..');
const devBin = join(repo, 'build', 'bin', 'cdxtheme-dev');
const fakeAgent = join(repo, 'build', 'bin', 'fakeagent');
// An X server per app that picks its own free display: xvfb-run -a races
// when window tests start theirs at the same moment (make test runs suites
// side by side).
const xvfb = join(repo, 'scripts', 'xvfb.sh');

function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
    srv.on('error', fail);
  });
}

async function waitFor(url, ms) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    try {
      const res = await fetch(url);
      if (res.ok) return res;
      last = new Error(`HTTP ${res.status}`);
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`app dev server at ${url} did not come up: ${last}`);
}

/**
 * Write the sample Codex home into dir: the real one the Go tests use
 * (internal/testrig/fixtures/codex-home), plus one saved session of e2e's own whose
 * transcript is an XSS corpus (e2e/fixtures/hostile-session).
 * @param {string} dir
 */
export function writeSampleHome(dir) {
  cpSync(join(repo, 'internal', 'testrig', 'fixtures', 'codex-home'), dir, { recursive: true });
  const extra = join(repo, 'e2e', 'fixtures', 'hostile-session');
  cpSync(join(extra, 'sessions'), join(dir, 'sessions'), { recursive: true });
  appendFileSync(join(dir, 'session_index.jsonl'), readFileSync(join(extra, 'session_index.jsonl')));
}

/** The session of e2e/fixtures/hostile-session. */
export const hostileSessionID = '019a0000-0000-7000-8000-00000000e2e1';

/**
 * Launch the app and a browser page on it. codexHome: true for the sample
 * home (writeSampleHome), a folder to copy, or nothing for an empty home.
 * @param {{scenario?: string, codexHome?: string | boolean, env?: Record<string,string>, viewport?: {width: number, height: number}}} opts
 */
export async function launch(opts = {}) {
  for (const f of [devBin, fakeAgent]) {
    if (!existsSync(f)) throw new Error(`${f} missing: run "make test-e2e" (it builds both)`);
  }
  const root = mkdtempSync(join(tmpdir(), 'cdx-e2e-'));
  const configDir = join(root, 'config');
  const dataDir = join(root, 'data');
  const stateDir = join(root, 'fakeagent-state');
  mkdirSync(configDir, { recursive: true });
  const runtimeDir = join(root, 'runtime');
  mkdirSync(runtimeDir, { mode: 0o700 });
  mkdirSync(stateDir, { recursive: true });
  let codexHome = join(root, 'codex-home');
  if (opts.codexHome === true) {
    writeSampleHome(codexHome);
  } else if (opts.codexHome) {
    cpSync(opts.codexHome, codexHome, { recursive: true });
  } else {
    mkdirSync(codexHome);
  }
  const env = {
    ...process.env,
    CDXTHEME_AGENT: fakeAgent,
    CDXTHEME_CONFIG_DIR: configDir,
    CDXTHEME_DATA_DIR: dataDir,
    CDXTHEME_CACHE_DIR: join(root, 'cache'),
    // The app's warm-agent socket: its own, never the user's running app's.
    XDG_RUNTIME_DIR: runtimeDir,
    CODEX_HOME: codexHome,
    FAKE_AGENT_SCENARIO: opts.scenario ?? 'normal',
    FAKE_AGENT_STATE: stateDir,
    FAKE_AGENT_LOG: join(root, 'fakeagent.log'),
    NO_AT_BRIDGE: '1',
    CDXTHEME_NO_KEYRING: '1',
    ...(opts.env ?? {}),
  };
  const logFile = env.FAKE_AGENT_LOG;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
    ],
  });
  const page = await browser.newPage({ viewport: opts.viewport ?? { width: 1400, height: 900 } });
  // Wails' dev bridge opens its websocket in ipc.js and defines
  // window.wails in runtime.js, the next script: an event Go broadcasts in
  // between (the search index's progress, a watcher) throws in the bridge.
  // The desktop webview has the runtime before the page, and no listener of
  // the page exists before runtime.js either, so such an event reaches no
  // one in both: dropping it here keeps the page's errors about the app.
  await page.addInitScript(() => {
    if (!window.wails) window.wails = { EventsNotify() {}, Callback() {} };
  });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  let proc;
  let appOutput = '';
  let base = '';
  let response;
  // Starts the app (again) and points the page at it.
  const start = async (extraEnv = {}) => {
    const port = await freePort();
    // A private D-Bus session (the single-instance lock uses one) that ends with
    // the app, and no a11y bridge: otherwise each run leaves bus daemons behind.
    proc = spawn(
      'dbus-run-session',
      ['--', xvfb, devBin, '-devserver', `127.0.0.1:${port}`, '-assetdir', join(repo, 'frontend', 'dist'), '-loglevel', 'Warning'],
      { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    proc.stdout.on('data', (d) => (appOutput += d));
    proc.stderr.on('data', (d) => (appOutput += d));
    base = `http://127.0.0.1:${port}`;
    try {
      await waitFor(base + '/', 60_000);
    } catch (e) {
      killGroup(proc);
      throw new Error(`${e.message}\n--- app output ---\n${appOutput.slice(-4000)}`);
    }
    response = await page.goto(base + '/');
    // The Wails dev runtime connects over a websocket; bindings appear on window.go.
    await page.waitForFunction(() => window.go && window.go.app && window.go.app.Turns, null, { timeout: 30_000 });
  };
  try {
    await start();
  } catch (e) {
    await browser.close().catch(() => {});
    throw e;
  }
  return {
    page, browser, root, dataDir, configDir, codexHome, logFile, pageErrors, stateDir,
    get app() { return proc; },
    get base() { return base; },
    get response() { return response; },
    output: () => appOutput,
    /** Quits the app (its agents with it, as a closed window does) and starts it again on the same files. */
    async restart(extraEnv = {}) {
      // The window goes first, as when the user quits: the dev bridge keeps
      // a page that outlives its server calling into a closed socket
      // ("reading 'send'" of null), which the desktop webview cannot do.
      await page.goto('about:blank');
      await stopGroup(proc);
      await start(extraEnv);
    },
    async close() {
      await browser.close().catch(() => {});
      killGroup(proc);
      await new Promise((r) => setTimeout(r, 300));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** SIGTERM to the app's group and wait until its leader is gone (the app stops its agents first). */
function stopGroup(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    killGroup(child);
  });
}

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {}
  setTimeout(() => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }, 1500).unref();
}

/** Lines the fake agent recorded (one JSON request per line). */
export function agentLog(logFile) {
  try {
    return execFileSync('cat', [logFile], { encoding: 'utf8' })
      .split('\n').filter(Boolean).map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}
