// The hand editor in the page against the real Go side: pick a role in the
// preview, set it by hex, make a failing pair pass, lock a role, undo and
// redo; the next prompt tells the agent and a locked colour survives its
// turn; all of it survives a restart. One launch.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch, agentLog } from '../lib/harness.mjs';
import { resolve, rgb } from '../lib/colour.mjs';

let app;
before(async () => {
  app = await launch({ scenario: 'theme' });
});
after(async () => {
  await app?.close();
});

// E2E_SHOTS=<folder> saves the editor, the own-code preview and the
// workbench mock-up as the README shows them (docs/designer/).
const shot = (page, name) => (process.env.E2E_SHOTS ? page.screenshot({ path: join(process.env.E2E_SHOTS, name) }) : Promise.resolve());


async function turnDone(page, count) {
  await page.waitForFunction((n) => (document.querySelector('[data-testid="message-list"]')?.textContent ?? '').split('Theme ready.').length - 1 >= n, count, { timeout: 60_000 });
  await page.waitForFunction(() => !document.querySelector('[data-testid="running"]'), null, { timeout: 60_000 });
}

async function setHex(page, hex) {
  const field = page.getByTestId('editor-hex');
  await field.fill(hex);
  await field.press('Enter');
}

test('edit by hand, make it pass, lock, undo/redo, tell the agent, keep the lock, survive a restart', async () => {
  const { page } = app;
  await page.getByTestId('nav-new').click();
  await page.getByTestId('prompt').fill('A dusk theme');
  await page.getByTestId('send').click();
  await turnDone(page, 1);
  const root = join(app.dataDir, 'theme_builder');
  const themePath = join(root, readdirSync(root).sort().at(-1), 'theme.json');
  const onDisk = () => JSON.parse(readFileSync(themePath, 'utf8'));

  // A click on the preview's primary button opens the accent in the picker.
  await page.getByTestId('preview-accent-button').click();
  const editor = page.getByTestId('role-editor');
  await editor.waitFor();
  assert.equal(await editor.getAttribute('data-role'), 'ui.accent');
  assert.ok((await page.getByTestId('editor-pair').count()) >= 2, 'the accent takes part in two pairs at least');
  await setHex(page, '#3355ff');
  await page.waitForFunction(() => getComputedStyle(document.querySelector('[data-testid="preview-accent-button"]')).backgroundColor === 'rgb(51, 85, 255)');
  assert.equal(onDisk().ui.accent, '#3355ff');

  // Muted text made to fail by hand, then "make it pass": the contrast table follows.
  await page.locator('[data-testid="role-item"][data-role="ui.mutedText"]').click();
  await page.locator('[data-testid="role-editor"][data-role="ui.mutedText"]').waitFor();
  await setHex(page, '#303040');
  const mutedRow = page.locator('[data-testid="contrast-row"][data-fg-role="ui.mutedText"][data-bg-role="ui.background"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="contrast-row"][data-fg-role="ui.mutedText"][data-bg-role="ui.background"]')?.dataset.pass === 'false');
  // Failures come first in the table.
  assert.equal(await page.getByTestId('contrast-row').first().getAttribute('data-pass'), 'false');
  await page.getByTestId('editor-make-pass').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="contrast-row"][data-fg-role="ui.mutedText"][data-bg-role="ui.background"]')?.dataset.pass === 'true');
  const passed = onDisk().ui.mutedText;
  assert.notEqual(passed, '#303040');
  assert.equal(await mutedRow.getAttribute('data-pass'), 'true');

  // Undo goes back to the failing colour, redo to the passing one.
  await page.getByTestId('editor-undo').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="contrast-row"][data-fg-role="ui.mutedText"][data-bg-role="ui.background"]')?.dataset.pass === 'false');
  assert.equal(onDisk().ui.mutedText, '#303040');
  await page.getByTestId('editor-redo').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="contrast-row"][data-fg-role="ui.mutedText"][data-bg-role="ui.background"]')?.dataset.pass === 'true');
  assert.equal(onDisk().ui.mutedText, passed);

  // Lock the keyword at a colour of the user's; the agent's next turn rewrites it.
  await page.locator('[data-testid="role-item"][data-role="syntax.keyword"]').click();
  await page.locator('[data-testid="role-editor"][data-role="syntax.keyword"]').waitFor();
  await setHex(page, '#d070e0');
  await page.waitForFunction(() => document.querySelector('[data-testid="role-item"][data-role="syntax.keyword"]')?.dataset.changed === 'true');
  await page.getByTestId('editor-lock').check();
  await page.locator('[data-testid="role-item"][data-role="syntax.keyword"][data-locked="true"]').waitFor();
  await shot(page, 'editor.png');

  await page.getByTestId('prompt').fill('Refine it #theme');
  await page.getByTestId('send').click();
  await turnDone(page, 2);
  const prompts = agentLog(app.logFile).filter((m) => m.method === 'session/prompt');
  const last = JSON.stringify(prompts.at(-1).params.prompt);
  for (const want of ['ui.accent = #3355ff', 'syntax.keyword = #d070e0', 'LOCKED']) assert.ok(last.includes(want), `the agent was not told ${want}: ${last}`);
  assert.equal(onDisk().syntax.keyword, '#d070e0', 'the agent undid a locked colour');
  await page.waitForFunction(() => /locked colours.*syntax\.keyword/s.test(document.querySelector('[data-testid="message-list"]')?.textContent ?? ''));
  await page.waitForFunction(() => !document.querySelector('[data-testid="role-item"][data-changed="true"]'));

  // After a restart the edit and the lock are still there.
  await app.restart();
  await page.getByTestId('nav-home').click();
  await page.getByTestId('build-row').first().click();
  await page.locator('[data-testid="role-item"][data-role="syntax.keyword"][data-locked="true"]').waitFor({ timeout: 20_000 });
  assert.equal(await page.getByTestId('preview-accent-button').evaluate((el) => getComputedStyle(el).backgroundColor), rgb(resolve(onDisk(), onDisk().ui.accent)));
  assert.deepEqual(app.pageErrors, []);
});

test('own code in the full-window preview, and the VS Code workbench from the exported colours', async () => {
  const { page } = app;
  const root = join(app.dataDir, 'theme_builder');
  const doc = JSON.parse(readFileSync(join(root, readdirSync(root).sort().at(-1), 'theme.json'), 'utf8'));
  await page.getByTestId('preview-full').click();
  await page.getByTestId('full-preview').waitFor();
  await page.getByTestId('full-code-input').fill('def shade(base, step=2):\n    return base * step  # darker\n');
  await page.getByTestId('full-lang').selectOption('python');
  await page.locator('[data-testid="full-code"][data-lang="python"][data-highlighted="shiki"]').waitFor({ timeout: 20_000 });
  const colour = (text) => page.locator('[data-testid="full-code"] .tok', { hasText: new RegExp(`^${text}$`) }).first().evaluate((el) => getComputedStyle(el).color);
  assert.equal(await colour('def'), rgb(resolve(doc, doc.syntax.keyword)));
  assert.equal(await colour('# darker'), rgb(resolve(doc, doc.syntax.comment)));
  await shot(page, 'own-code-preview.png');

  await page.getByTestId('full-view-workbench').click();
  await page.getByTestId('workbench').waitFor();
  const exported = JSON.parse(await page.evaluate((d) => window.go.app.Themes.VSCodeTheme(JSON.stringify(d)), doc)).colors;
  const painted = await page.locator('[data-testid="workbench"] [data-vscode]').evaluateAll((els) =>
    els.map((el) => ({ id: el.dataset.vscode, bg: getComputedStyle(el).backgroundColor, fg: getComputedStyle(el).color })),
  );
  const ids = new Set(painted.map((p) => p.id));
  for (const want of ['activityBar.background', 'sideBar.background', 'tab.activeBackground', 'statusBar.background', 'panel.background', 'terminal.background', 'editor.background']) {
    assert.ok(ids.has(want), `the workbench has no part painted by ${want}`);
  }
  let checked = 0;
  for (const p of painted) {
    const v = exported[p.id];
    if (!v || v.length !== 7) continue; // translucent ids composite over what is under them
    const got = p.id.startsWith('terminal.ansi') ? p.fg : p.bg;
    assert.equal(got, rgb(v), `${p.id} is painted ${got}, the export sets ${v}`);
    checked++;
  }
  assert.ok(checked >= 15, `only ${checked} workbench parts checked against the export`);
  await shot(page, 'workbench.png');
  await page.keyboard.press('Escape');
  await page.getByTestId('full-preview').waitFor({ state: 'detached' });
  assert.deepEqual(app.pageErrors, []);
});

test('a light variant is derived, shown beside the theme, edited by hand, and exported with it as one family', async () => {
  const { page } = app;
  const root = join(app.dataDir, 'theme_builder');
  const ws = readdirSync(root).sort().at(-1);
  const onDisk = () => JSON.parse(readFileSync(join(root, ws, 'theme.json'), 'utf8'));
  await page.getByTestId('variant-add').click();
  await page.locator('[data-testid="variant"][data-has="true"]').waitFor();
  const doc = onDisk();
  assert.equal(doc.companion.appearance, 'light');
  assert.equal(await page.getByTestId('variant-name').textContent(), doc.companion.name);
  // No pair reads worse in the variant than in the theme (this one has a few below AA).
  const mainFailing = await page.locator('[data-testid="contrast-row"][data-pass="false"]').count();
  const variantFailing = Number(await page.getByTestId('variant-contrast').getAttribute('data-failing'));
  assert.ok(variantFailing <= mainFailing, `the variant fails ${variantFailing} pairs, the theme ${mainFailing}`);
  assert.match(await page.getByTestId('variant-preview').getAttribute('style'), new RegExp(resolve(doc.companion, doc.companion.ui.background), 'i'), 'the variant preview is not painted from the companion');
  await page.getByTestId('preview-full').click();
  await page.locator('[data-testid="full-code"][data-appearance="light"]').waitFor();
  assert.equal(await page.getByTestId('full-code').count(), 2);
  await page.keyboard.press('Escape');
  const out = await page.evaluate((id) => window.go.app.Themes.ExportTheme(id, 'zed'), ws);
  const family = JSON.parse(readFileSync(join(out, readdirSync(out).find((f) => f.endsWith('.json'))), 'utf8'));
  assert.deepEqual(family.themes.map((t) => t.appearance), ['dark', 'light']);
  assert.equal(family.themes[1].style['editor.background'], resolve(doc.companion, doc.companion.ui.background));
  // The variant is edited by hand: a click on its preview opens its role on the Variant tab,
  // and the hex goes into theme.json's companion, the theme's own accent untouched.
  await page.getByTestId('variant-preview').getByTestId('preview-accent-button').click();
  await page.locator('[data-testid="role-editor"][data-role="companion.ui.accent"]').waitFor();
  assert.equal(await page.locator('[data-testid="editor-tab"][data-doc="companion"]').getAttribute('aria-selected'), 'true');
  await setHex(page, '#2255cc');
  await page.locator('[data-testid="role-item"][data-role="companion.ui.accent"][data-changed="true"]').waitFor();
  assert.equal(onDisk().companion.ui.accent, '#2255cc');
  assert.equal(onDisk().ui.accent, doc.ui.accent);
  await page.waitForFunction(() => getComputedStyle(document.querySelector('[data-testid="variant-preview"] [data-testid="preview-accent-button"]')).backgroundColor === 'rgb(34, 85, 204)');
  // Undo puts the variant's accent back, a second undo takes the variant away again.
  await page.getByTestId('editor-undo').click();
  await page.waitForFunction((want) => getComputedStyle(document.querySelector('[data-testid="variant-preview"] [data-testid="preview-accent-button"]')).backgroundColor === want, rgb(resolve(doc.companion, doc.companion.ui.accent)));
  assert.equal(onDisk().companion.ui.accent, doc.companion.ui.accent);
  await page.getByTestId('editor-undo').click();
  await page.locator('[data-testid="variant"][data-has="false"]').waitFor();
  assert.equal(onDisk().companion, undefined);
  // The editor hears of the removal from its own reload, a moment after the preview.
  await page.getByTestId('editor-tabs').waitFor({ state: 'detached' });
  assert.deepEqual(app.pageErrors, []);
});
