// Import a theme by dropping a file on Home, see its preview (Shiki code,
// CVD toggle, APCA), let the fake agent change theme.json, restore the
// turn's checkpoint, compare before and after, undo the restore. One launch.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch, repo } from '../lib/harness.mjs';
import { resolve, rgb } from '../lib/colour.mjs';

let app;
before(async () => {
  app = await launch({ scenario: 'normal' });
});
after(async () => {
  await app?.close();
});


const previewName = (page) => page.getByTestId('preview-name').textContent();
const waitName = (page, name) =>
  page.waitForFunction((n) => document.querySelector('[data-testid="preview-name"]')?.textContent === n, name, { timeout: 20_000 });

test('import by drop, change, restore, compare, undo', async () => {
  const { page } = app;
  const source = readFileSync(join(repo, 'core', 'theme', 'testdata', 'import', 'gruvbox-dark-hard.yaml'), 'utf8');
  await page.getByTestId('nav-home').click();
  await page.getByTestId('import-drop').waitFor();
  // A real drag and drop of a file onto Home: dragenter shows the overlay, drop imports.
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'gruvbox-dark-hard.yaml', { type: 'application/yaml' }));
    const target = document.querySelector('[data-testid="import-drop"]');
    target.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true }));
    target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, source);
  await waitName(page, 'Gruvbox dark, hard');
  assert.equal(page.url().startsWith(app.base), true, 'the drop navigated the page');
  const root = join(app.dataDir, 'theme_builder');
  const ws = readdirSync(root).sort().at(-1);
  const themePath = join(root, ws, 'theme.json');
  const imported = readFileSync(themePath, 'utf8');
  const theme = JSON.parse(imported);
  assert.equal(resolve(theme, theme.ui.background), '#1d2021');
  assert.equal(await page.getByTestId('preview-chrome').evaluate((el) => getComputedStyle(el).backgroundColor), rgb('#1d2021'));
  // 36 roles from the file (the cursor from base05, its text base00, as the
  // spec and tinted-terminal); the rest (ui.border, every optional role of
  // the catalogue) derived by their rules, each named with its rule.
  assert.match(await page.getByTestId('import-summary').textContent(), /base16 scheme: 36 roles from the file, \d+ derived/);
  const derived = await page.getByTestId('import-derived').textContent();
  for (const role of ['ui.border', 'editor.lineHighlight', 'terminal.selectionText']) assert.ok(derived.includes(role), `${role} is not reported as derived`);

  // Shiki paints the sample with the VS Code export of the imported theme.
  await page.locator('[data-testid="preview-code"][data-highlighted="shiki"]').waitFor({ timeout: 20_000 });
  const tokColour = (text) =>
    page.locator('[data-testid="preview-code"] .tok', { hasText: new RegExp(`^${text}$`) }).first().evaluate((el) => getComputedStyle(el).color);
  assert.equal(await tokColour('import'), rgb(resolve(theme, theme.syntax.keyword)));
  await page.getByTestId('preview-lang-rust').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="preview-code"]')?.dataset.lang === 'rust' && document.querySelector('[data-testid="preview-code"]')?.dataset.highlighted === 'shiki');
  assert.equal(await tokColour('fn'), rgb(resolve(theme, theme.syntax.keyword)));

  // The CVD toggle filters the whole preview through an SVG colour matrix.
  await page.getByTestId('preview-cvd').selectOption('deuteranopia');
  assert.match(await page.getByTestId('preview-sim').evaluate((el) => getComputedStyle(el).filter), /url\(/);
  await page.getByTestId('preview-cvd').selectOption('none');

  // APCA Lc is beside every WCAG ratio.
  const lc = await page.getByTestId('contrast-apca').first().textContent();
  assert.match(lc, /[−-]?\d+\.\d/);

  // A turn changes theme.json; the checkpoint before it was taken first.
  await page.getByTestId('prompt').fill('Make it dusk #theme');
  await page.getByTestId('send').click();
  await page.waitForFunction(() => (document.querySelector('[data-testid="message-list"]')?.textContent ?? '').includes('Theme ready.'), null, { timeout: 60_000 });
  await page.waitForFunction(() => !document.querySelector('[data-testid="running"]'), null, { timeout: 60_000 });
  await waitName(page, 'Fake Dusk');
  const changed = readFileSync(themePath, 'utf8');
  assert.notEqual(changed, imported);

  // Restore to before the turn: the imported theme is back, on disk and on screen.
  const cp = page.getByTestId('turn-checkpoint').first();
  await cp.getByTestId('restore-checkpoint').click();
  await cp.getByTestId('restored').waitFor();
  await waitName(page, 'Gruvbox dark, hard');
  assert.equal(readFileSync(themePath, 'utf8'), imported);

  // Compare: the turn's before (the import) and after (the agent's theme) side by side.
  await cp.getByTestId('compare-checkpoint').click();
  const dialog = page.getByTestId('compare-dialog');
  await dialog.getByTestId('compare-roles').waitFor();
  assert.match(await dialog.getByTestId('compare-before').textContent(), /Gruvbox dark, hard/);
  assert.match(await dialog.getByTestId('compare-after').textContent(), /Fake Dusk/);
  const roles = await dialog.getByTestId('compare-role').evaluateAll((rows) => rows.map((r) => r.dataset.role));
  const after = JSON.parse(changed);
  for (const role of ['ui.accent', 'ui.background', 'syntax.keyword']) assert.ok(roles.includes(role), `${role} not marked as changed`);
  assert.equal(roles.includes('ansi.black') , resolve(theme, theme.ansi[0]) !== resolve(after, after.ansi[0]));
  const bg = (side) => dialog.getByTestId(`compare-preview-${side}`).getByTestId('preview-chrome').evaluate((el) => getComputedStyle(el).backgroundColor);
  assert.equal(await bg('before'), rgb(resolve(theme, theme.ui.background)));
  assert.equal(await bg('after'), rgb(resolve(after, after.ui.background)));
  await dialog.getByTestId('compare-close').click();

  // The restore is itself undoable.
  await cp.getByTestId('undo-restore').click();
  await waitName(page, 'Fake Dusk');
  assert.equal(readFileSync(themePath, 'utf8'), changed);
  assert.deepEqual(app.pageErrors, []);
});
