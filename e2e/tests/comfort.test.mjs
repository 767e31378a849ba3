// Layout and everyday comfort (issue 11), in one app launch with the fake
// agent's "code" turn (an edit card, a command card, code blocks): nothing
// wider than the window at 800×600, 960×640 and 1440×900, the messages get
// at least half the height at 960×640, the composer covers nothing, the
// preview is an overlay below 1100 px; Shiki loads only once a code block
// appears; copy buttons reach the clipboard; "Jump to latest" and no forced
// scrolling; the Settings leave guard; Light / Dark / System before the
// first paint; Apply lists only this OS's programs. Screenshots of the three
// sizes go to build/layout/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { launch, repo } from '../lib/harness.mjs';

const shots = join(repo, 'build', 'layout');
let app;
let page;
const requested = [];

before(async () => {
  mkdirSync(shots, { recursive: true });
  app = await launch({ scenario: 'code', codexHome: true });
  page = app.page;
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.base });
});
after(async () => {
  await app?.close();
});

async function idle(timeout = 30_000) {
  await page.getByTestId('send').waitFor({ timeout });
  await page.waitForFunction(() => !document.querySelector('[data-testid="running"]'), null, { timeout });
}

/** Shiki's chunks: the core, the themes and the grammars Vite split out. */
const shikiChunk = (p) => /\/assets\/(core|engine-javascript|github-(light|dark)|typescript|css)-[\w-]+\.js$/.test(p);

test('Shiki loads only once a code block appears, then colours it', async () => {
  const atStart = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));
  assert.deepEqual(atStart.filter(shikiChunk), [], 'Shiki was fetched at start-up');
  assert.deepEqual(requested.filter(shikiChunk), []);

  await page.getByTestId('nav-new').click();
  await page.getByTestId('prompt').fill('A dusk theme with code');
  await page.getByTestId('send').click();
  await idle();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=tool-card]').length >= 2);
  // Both fenced blocks (css, ts) get token spans; the text stays the agent's.
  await page.waitForFunction(() => [...document.querySelectorAll('.md pre > code')].every((c) => c.querySelector('span.shk')), null, { timeout: 15_000 });
  const loaded = requested.filter(shikiChunk).map((p) => p.split('/').pop().replace(/-[\w-]{8}\.js$/, ''));
  for (const want of ['core', 'github-light', 'github-dark', 'typescript', 'css']) assert.ok(loaded.includes(want), `${want} not loaded: ${loaded}`);
  const first = await page.locator('.md pre > code').first().textContent();
  assert.equal(first, ':root {\n  --accent: #ff7a59; /* refined */\n  --keyword: #ff9e64;\n}\n');
});

/** What the layout checks measure, in the page. */
function measure() {
  const iw = innerWidth;
  const rect = (sel) => document.querySelector(sel)?.getBoundingClientRect();
  // An element may reach past the window only inside a scroll box that itself fits (a wide code line).
  const poking = [];
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.right <= iw + 0.5) continue;
    let inScroller = false;
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if ((ox === 'auto' || ox === 'scroll') && a.getBoundingClientRect().right <= iw + 0.5) {
        inScroller = true;
        break;
      }
    }
    if (!inScroller) poking.push(`${e.tagName}.${String(e.className).slice(0, 40)} right=${Math.round(r.right)}`);
  }
  const list = rect('[data-testid=message-list]');
  const compose = rect('[data-testid=compose] .composer');
  const header = document.querySelector('.chat .top');
  const items = [...document.querySelectorAll('[data-testid=message]')];
  const last = items.at(-1)?.getBoundingClientRect();
  const toggle = rect('[data-testid=toggle-preview]');
  return {
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: iw,
    innerHeight,
    poking,
    listShare: list.height / innerHeight,
    listBottom: list.bottom,
    composeTop: compose.top,
    lastBottom: last.bottom,
    headerFits: header.scrollWidth <= header.clientWidth + 1,
    toggleVisible: !!toggle && toggle.left >= 0 && toggle.right <= iw + 0.5 && toggle.width > 0,
    toggleMode: document.querySelector('[data-testid=toggle-preview]')?.dataset.mode,
    panel: document.querySelector('[data-testid=preview-panel]')?.dataset.mode ?? '',
  };
}

async function atBottom() {
  await page.getByTestId('message-list').evaluate((l) => l.scrollTo({ top: l.scrollHeight }));
  await page.waitForTimeout(150);
}

for (const [w, h] of [[800, 600], [960, 640], [1440, 900]]) {
  test(`layout at ${w}×${h}: nothing sideways, messages get room, the composer covers nothing`, async () => {
    await page.setViewportSize({ width: w, height: h });
    await page.waitForTimeout(300);
    await atBottom();
    const m = await page.evaluate(measure);
    assert.ok(m.scrollWidth <= m.innerWidth, `page scrolls sideways: ${m.scrollWidth} > ${m.innerWidth}`);
    assert.deepEqual(m.poking, [], 'elements reach past the window');
    assert.ok(m.headerFits, 'the chat header overflows its line');
    assert.ok(m.toggleVisible, 'the preview toggle is cut off');
    assert.ok(m.composeTop >= m.listBottom - 0.5, `the composer (top ${m.composeTop}) overlaps the message list (bottom ${m.listBottom})`);
    assert.ok(m.composeTop >= m.lastBottom - 0.5, `the composer (top ${m.composeTop}) covers the last message (bottom ${m.lastBottom})`);
    if (w === 960) assert.ok(m.listShare >= 0.5, `messages get ${(m.listShare * 100).toFixed(0)} % of the height at 960×640`);
    if (w < 1100) {
      assert.equal(m.toggleMode, 'overlay');
      assert.equal(m.panel, '', 'below 1100 px the preview is a column');
    } else {
      assert.equal(m.toggleMode, 'column');
      assert.equal(m.panel, 'column');
    }
    await page.screenshot({ path: join(shots, `chat-${w}x${h}.png`) });
  });
}

test('Home, New build, Settings and a transcript fit 800×600 too', async () => {
  await page.setViewportSize({ width: 800, height: 600 });
  const check = async (view) => {
    await page.waitForTimeout(200);
    const m = await page.evaluate(() => {
      const iw = innerWidth;
      const poking = [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > iw + 0.5 && e.getBoundingClientRect().width > 0)
        .filter((e) => {
          for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
            const ox = getComputedStyle(a).overflowX;
            if ((ox === 'auto' || ox === 'scroll') && a.getBoundingClientRect().right <= iw + 0.5) return false;
          }
          return true;
        })
        .map((e) => `${e.tagName}.${String(e.className).slice(0, 40)}`);
      const view = document.querySelector('main.view');
      return { sw: document.documentElement.scrollWidth, iw, poking, viewFits: view.scrollWidth <= view.clientWidth + 1 };
    });
    assert.ok(m.sw <= m.iw, `${view}: page scrolls sideways`);
    assert.deepEqual(m.poking, [], `${view}: elements reach past the window`);
    assert.ok(m.viewFits, `${view}: the view scrolls sideways`);
  };
  await page.getByTestId('nav-home').click();
  await page.getByTestId('new-build').waitFor();
  await check('home');
  await page.getByTestId('nav-new').click();
  await check('new build');
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('settings-save').waitFor();
  await check('settings');
  await page.getByTestId('nav-home').click();
  await page.getByTestId('open-transcript').first().click();
  await page.getByTestId('transcript-message').first().waitFor();
  await check('transcript');
  await page.getByTestId('open-chat').first().click();
  await page.getByTestId('prompt').waitFor();
});

test('below 1100 px the preview opens as an overlay that fits and Esc closes', async () => {
  await page.setViewportSize({ width: 960, height: 640 });
  await page.getByTestId('toggle-preview').click();
  const panel = page.getByTestId('preview-panel');
  await panel.waitFor();
  assert.equal(await panel.getAttribute('data-mode'), 'overlay');
  const box = await panel.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 960.5 && box.width >= 300, `overlay box ${JSON.stringify(box)}`);
  const m = await page.evaluate(measure);
  assert.equal(m.scrollWidth, 960);
  assert.deepEqual(m.poking, []);
  await page.screenshot({ path: join(shots, 'chat-960x640-preview.png') });
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
});

test('at 1440 px the contrast table shows "AA large" whole, and Apply lists only this system’s programs', async () => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const head = page.getByTestId('contrast-large-head');
  await head.scrollIntoViewIfNeeded();
  const clip = await head.evaluate((th) => {
    const wrap = th.closest('.wrap');
    const a = th.getBoundingClientRect();
    const b = wrap.getBoundingClientRect();
    return { fits: a.right <= b.right + 0.5 && wrap.scrollWidth <= wrap.clientWidth, text: th.textContent };
  });
  assert.ok(clip.fits, `"${clip.text}" is cut off`);
  await page.getByTestId('apply-menu').click();
  const items = await page.locator('[role=menu] [role=menuitem]').evaluateAll((els) => els.map((e) => e.dataset.testid));
  // Every target with a user config location on this OS (core/theme TargetsFor), in Go's order:
  // the built-in ones, then the targets defined as data (core/targets) that install here.
  const data = ['vim', 'emacs', 'sublime', 'konsole', 'xfce4-terminal', 'tilix', 'warp', 'xresources', 'fish', 'fzf', 'ls-colors', 'delta', 'lazygit', 'btop', 'k9s', 'yazi', 'zellij', 'gtk'];
  const want = process.platform === 'darwin'
    ? ['vscode', 'zed', 'neovim', 'helix', 'bat', 'alacritty', 'kitty', 'ghostty', 'wezterm', 'tmux', 'iterm2']
    : ['vscode', 'zed', 'neovim', 'helix', 'bat', 'alacritty', 'kitty', 'ghostty', 'wezterm', 'foot', 'tmux', ...data];
  if (process.platform === 'darwin') assert.deepEqual(items.slice(0, want.length), want.map((x) => 'apply-target-' + x));
  else assert.deepEqual(items, want.map((x) => 'apply-target-' + x));
  // Never another system's program (Windows Terminal, mintty; iTerm2 and Terminal.app off macOS).
  for (const other of ['windows-terminal', 'mintty', ...(process.platform === 'darwin' ? [] : ['iterm2', 'terminal-app'])]) {
    assert.ok(!items.includes('apply-target-' + other), `${other} is offered on ${process.platform}`);
  }
  await page.keyboard.press('Escape');
});

test('copy buttons put the code, the command and the message on the clipboard', async () => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const clip = () => page.evaluate(() => navigator.clipboard.readText());
  const block = page.locator('.md .codeblock').nth(1);
  await block.scrollIntoViewIfNeeded();
  await block.hover();
  await block.getByTestId('copy-code').click();
  await page.waitForFunction((b) => b.querySelector('[data-testid=copy-code]').dataset.state === 'copied', await block.elementHandle());
  assert.match(await clip(), /^const accent: string = "#ff7a59";\nexport function tint/);
  assert.equal((await block.getByTestId('copy-code').innerText()).trim(), 'Copied');

  const card = page.locator('[data-testid=tool-card][data-kind=execute]');
  // A completed card is folded to its head: the user opens it first.
  await card.locator('button.head').click();
  await card.getByTestId('copy-command').click();
  assert.equal(await clip(), 'cdxtheme check --json .');

  const reply = page.locator('[data-testid=message][data-role=assistant]').last();
  await reply.hover();
  await reply.getByTestId('copy-message').click();
  assert.match(await clip(), /^Here is the accent change as CSS:\n\n```css\n/);
});

test('scrolled up, streaming text leaves the view alone; "Jump to latest" follows again', async () => {
  await page.setViewportSize({ width: 960, height: 640 });
  await page.getByTestId('prompt').fill('count slowly #slow');
  await page.getByTestId('send').click();
  const list = page.getByTestId('message-list');
  await page.waitForFunction(() => (document.querySelector('[data-testid=message-list]')?.textContent ?? '').includes('tick 3 '));
  assert.equal(await page.getByTestId('jump-latest').count(), 0, 'the jump button shows while at the bottom');
  // The user scrolls up with the wheel.
  const box = await list.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -600);
  await page.getByTestId('jump-latest').waitFor();
  // The wheel scrolls smoothly and mouse.wheel does not wait for it: the
  // view is where the user put it once it stood still for ten frames.
  await page.waitForFunction(() => {
    const top = document.querySelector('[data-testid=message-list]').scrollTop;
    window.__still = top === window.__lastTop ? (window.__still ?? 0) + 1 : 0;
    window.__lastTop = top;
    return window.__still >= 10;
  }, null, { polling: 'raf' });
  const top = await list.evaluate((l) => l.scrollTop);
  const before = await list.evaluate((l) => l.textContent.length);
  await page.waitForTimeout(600);
  assert.ok((await list.evaluate((l) => l.textContent.length)) > before, 'no text arrived meanwhile');
  assert.equal(await list.evaluate((l) => l.scrollTop), top, 'the view moved while the user was reading above');
  await page.getByTestId('jump-latest').click();
  await page.getByTestId('jump-latest').waitFor({ state: 'detached' });
  await page.waitForTimeout(600);
  const gap = await list.evaluate((l) => l.scrollHeight - l.scrollTop - l.clientHeight);
  assert.ok(gap < 48, `not following after the jump: ${gap}px from the bottom`);
  await idle();
});

test('Settings asks before leaving with unsaved changes: Cancel stays, Discard drops, Save saves', async () => {
  const file = join(app.configDir, 'settings.toml');
  const stored = () => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  await page.getByTestId('nav-settings').click();
  const timeout = page.getByTestId('settings-timeout');
  await timeout.fill('240');
  await page.getByTestId('nav-home').click();
  const dialog = page.getByTestId('leave-dialog');
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /You have unsaved changes/);
  await page.getByTestId('leave-cancel').click();
  assert.equal(await timeout.inputValue(), '240', 'Cancel dropped the edit');
  await dialog.waitFor({ state: 'detached' });
  assert.ok(await page.getByTestId('settings-save').isVisible(), 'Cancel left Settings');
  await page.getByTestId('nav-home').click();
  await page.getByTestId('leave-discard').click();
  await page.getByTestId('new-build').waitFor();
  assert.doesNotMatch(stored(), /turn_timeout_seconds = 240/);
  await page.getByTestId('nav-settings').click();
  assert.notEqual(await timeout.inputValue(), '240', 'Discard kept the edit');
  await timeout.fill('240');
  await page.getByTestId('nav-home').click();
  await page.getByTestId('leave-save').click();
  await page.getByTestId('new-build').waitFor();
  assert.match(stored(), /turn_timeout_seconds = 240/);
});

/** Reloads and reports the appearance at the first animation frame, before anything painted. */
async function reloadFirstFrame() {
  await page.reload();
  await page.waitForFunction(() => window.go && window.go.app && window.go.app.Turns);
  return page.evaluate(() => window.__firstFrame);
}

const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('Light / Dark / System applies at once, is saved, and holds from the first frame of the next start', async () => {
  // Record data-appearance at the first frame of every load: the probe runs before the page's scripts.
  await page.addInitScript(() => {
    requestAnimationFrame(() => (window.__firstFrame = document.documentElement.dataset.appearance ?? 'system'));
  });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('settings-appearance-dark').check();
  assert.equal(await bg(), 'rgb(21, 23, 28)', 'Dark did not apply at once');
  await page.getByTestId('settings-save').click();
  await page.getByTestId('settings-saved').waitFor();
  assert.equal(await reloadFirstFrame(), 'dark', 'the first frame after a restart was not dark');
  assert.equal(await bg(), 'rgb(21, 23, 28)');

  // The choice beats the OS: Light while the OS is dark.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('settings-appearance-light').check();
  await page.getByTestId('settings-save').click();
  await page.getByTestId('settings-saved').waitFor();
  assert.equal(await reloadFirstFrame(), 'light');
  assert.equal(await bg(), 'rgb(255, 255, 255)');

  // System follows the OS again.
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('settings-appearance-system').check();
  await page.getByTestId('settings-save').click();
  await page.getByTestId('settings-saved').waitFor();
  assert.equal(await reloadFirstFrame(), 'system');
  assert.equal(await bg(), 'rgb(21, 23, 28)', 'System did not follow the dark OS');
  assert.match(readFileSync(join(app.configDir, 'settings.toml'), 'utf8'), /appearance = 'system'|appearance = "system"/);
});
