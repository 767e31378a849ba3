// Layout that holds still (issue #37, item 5), in one launch of the dev app
// with the fake agent: New build's session bar keeps its size while the
// pointer moves over each of its controls and while the agent's options land
// under it, at 800 to 1440 px; Settings' Agents card is padded like its
// sibling cards; a long template folder path wraps inside its card at 800 px;
// switching the agent there shows only the chosen agent's own options.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, repo } from '../lib/harness.mjs';

const fakeAgent = join(repo, 'build', 'bin', 'fakeagent');

let app;
let page;
const longDir = '/home/designer/' + 'a_very_long_folder_name_that_never_breaks_'.repeat(6) + 'templates';

before(async () => {
  app = await launch({ codexHome: true });
  page = app.page;
  writeFileSync(join(app.configDir, 'settings.toml'), `template_folders = [${JSON.stringify(longDir)}]\n`);
  // Several agents to pick from, with long names: New build shows its picker.
  const agent = (id, name, env = '') => `[[agent]]\nid = "${id}"\nname = "${name}"\nkind = "custom"\ncommand = ${JSON.stringify(fakeAgent)}\n${env}`;
  writeFileSync(
    join(app.configDir, 'agents.toml'),
    `version = 2\ndefault = "dusk"\n` +
      agent('dusk', 'Dusk designer agent with a remarkably long descriptive name') +
      // Shaped like gemini-cli: models and modes, no reasoning effort.
      agent('dawn', 'Dawn', '[agent.env]\nFAKE_AGENT_SHAPE = "models"\n') +
      agent('noon', 'Noon agent, experimental build of the week'),
  );
  await app.restart({ CDXTHEME_AGENT: '' });
});
after(async () => {
  await app?.close();
});

const barBox = () =>
  page.evaluate(() => {
    const r = document.querySelector('[data-testid="session-bar"]').getBoundingClientRect();
    return { w: Math.round(r.width * 10) / 10, h: Math.round(r.height * 10) / 10 };
  });

test("New build's session bar keeps its size under the pointer and as options land", async () => {
  for (const width of [800, 1024, 1440]) {
    // A fresh start: the agent reports its options after session/new, while
    // the pointer already rests on the bar.
    await app.restart({ CDXTHEME_AGENT: '' });
    await page.setViewportSize({ width, height: 720 });
    await page.getByTestId('nav-new').click();
    const bar = page.getByTestId('session-bar');
    await bar.waitFor();
    await bar.hover({ position: { x: 10, y: 10 } });
    const sizes = [];
    const sample = () => barBox().then((b) => sizes.push(b), () => {});
    const watch = setInterval(sample, 10);
    await page.getByTestId('agent-picker').waitFor();
    await page.locator('[data-testid="bar-option"]').first().waitFor({ timeout: 30_000 });
    clearInterval(watch);
    const settled = await barBox();
    for (const s of sizes) assert.deepEqual(s, settled, `the bar was ${JSON.stringify(s)} while options landed, ${JSON.stringify(settled)} after, at ${width}px`);
    // Every control: hover, then focus (the focus ring), then leave.
    const controls = bar.locator('select, button, input, [data-testid="bar-option"], [data-testid="bar-agent"]');
    const n = await controls.count();
    assert.ok(n >= 5, `only ${n} controls in the bar at ${width}`);
    for (let k = 0; k < n; k++) {
      const c = controls.nth(k);
      await c.hover();
      assert.deepEqual(await barBox(), settled, `bar changed size hovering control ${k} at ${width}px`);
      const tag = await c.evaluate((el) => el.tagName);
      if (tag === 'SELECT' || tag === 'BUTTON' || tag === 'INPUT') {
        await c.focus();
        assert.deepEqual(await barBox(), settled, `bar changed size focusing control ${k} at ${width}px`);
      }
    }
    await page.mouse.move(1, 1);
    assert.deepEqual(await barBox(), settled, `bar changed size after the pointer left at ${width}px`);
    // The bar fits its card: nothing runs past the window.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth));
  }
});

/** Padding and border of an element, as computed. */
const insets = (sel) =>
  page.evaluate((s) => {
    const cs = getComputedStyle(document.querySelector(s));
    return ['paddingTop', 'paddingRight', 'paddingBottom', 'paddingLeft', 'borderTopWidth', 'borderLeftWidth'].map((k) => `${k}=${cs[k]}`);
  }, sel);

test("Settings' Agents card is padded like its sibling cards", async () => {
  await page.setViewportSize({ width: 1024, height: 720 });
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('agents-editor').waitFor();
  const sibling = await insets('[data-testid="settings-templates"]');
  assert.notEqual(sibling[0], 'paddingTop=0px', 'sibling card has no padding to compare with');
  assert.deepEqual(await insets('[data-testid="agents-editor"]'), sibling);
  // Its heading starts where the sibling's does.
  const left = await page.evaluate(() =>
    ['agents-editor', 'settings-templates'].map((id) => {
      const card = document.querySelector(`[data-testid="${id}"]`);
      return card.firstElementChild.getBoundingClientRect().left - card.getBoundingClientRect().left;
    }),
  );
  assert.equal(left[0], left[1]);
});

test('a long folder path wraps inside its card at 800 px', async () => {
  await page.setViewportSize({ width: 800, height: 600 });
  await page.getByTestId('nav-settings').click();
  const path = page.getByTestId('template-folder');
  await path.waitFor();
  assert.equal(await path.textContent(), longDir);
  const m = await page.evaluate(() => {
    const p = document.querySelector('[data-testid="template-folder"]');
    const card = document.querySelector('[data-testid="settings-templates"]');
    const pr = p.getBoundingClientRect();
    const cr = card.getBoundingClientRect();
    return { pRight: pr.right, cRight: cr.right, lines: Math.round(pr.height / parseFloat(getComputedStyle(p).lineHeight || '16')), docW: document.documentElement.scrollWidth, iw: innerWidth, cardScroll: card.scrollWidth - card.clientWidth };
  });
  assert.ok(m.pRight <= m.cRight, `path ends at ${m.pRight}, card at ${m.cRight}`);
  assert.equal(m.cardScroll, 0, 'the card scrolls sideways');
  assert.ok(m.docW <= m.iw, `page is ${m.docW} wide in a ${m.iw} window`);
  assert.ok(m.lines >= 2, `path did not wrap: ${JSON.stringify(m)}`);
});

test("switching New build's agent shows only the chosen agent's own options", async () => {
  await app.restart({ CDXTHEME_AGENT: '' });
  await page.setViewportSize({ width: 1024, height: 720 });
  await page.getByTestId('nav-new').click();
  const effort = page.locator('[data-testid="bar-option"][data-config-id="reasoning_effort"]');
  await effort.waitFor({ timeout: 30_000 }); // Dusk's own report
  // Every frame from here on: the agent picked, and the options shown.
  await page.evaluate(() => {
    window.__frames = [];
    const tick = () => {
      const pick = document.querySelector('[data-testid="agent-picker"]');
      const ids = [...document.querySelectorAll('[data-testid="session-bar"] [data-testid="bar-option"]')].map((o) => o.getAttribute('data-config-id'));
      window.__frames.push({ agent: pick?.value, ids });
      window.__raf = requestAnimationFrame(tick);
    };
    tick();
  });
  await page.getByTestId('agent-picker').selectOption('dawn');
  // Dawn's own report: its models and modes.
  await page.locator('[data-testid="bar-option"][data-config-id="model"]').waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => !document.querySelector('[data-testid="session-bar"][aria-busy="true"]'));
  const frames = await page.evaluate(() => {
    cancelAnimationFrame(window.__raf);
    return window.__frames;
  });
  const wrong = frames.filter((f) => f.agent === 'dawn' && f.ids.includes('reasoning_effort'));
  assert.equal(wrong.length, 0, `with Dawn picked the bar showed Dusk's reasoning effort in ${wrong.length} of ${frames.length} frames`);
  assert.equal(await effort.count(), 0);
  const shown = await page.locator('[data-testid="session-bar"] [data-testid="bar-option"]').evaluateAll((os) => os.map((o) => o.getAttribute('data-config-id')));
  assert.ok(shown.includes('mode') && shown.includes('model'), `Dawn's bar shows ${shown}`);
  // And back: Dusk's own again.
  await page.getByTestId('agent-picker').selectOption('dusk');
  await effort.waitFor({ timeout: 30_000 });
});

