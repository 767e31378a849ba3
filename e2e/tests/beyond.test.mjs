// Beyond text (issue 7): sign in with an API key and see the interrupted
// turn retried; a boolean session option reaching the agent; a slash
// command picked from the composer menu; a pasted image arriving as an
// image block; an artifact outside the workspace refused.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { launch, agentLog } from '../lib/harness.mjs';

async function newBuild(page, prompt) {
  await page.getByTestId('nav-new').click();
  await page.getByTestId('prompt').fill(prompt);
  await page.getByTestId('send').click();
}

async function idle(page, timeout = 30_000) {
  await page.getByTestId('send').waitFor({ timeout });
  await page.waitForFunction(() => !document.querySelector('[data-testid="running"]'), null, { timeout });
}

async function send(page, prompt) {
  await page.getByTestId('prompt').fill(prompt);
  await page.getByTestId('send').click();
  await idle(page);
}

function messages(page) {
  return page.getByTestId('message-list').innerText();
}

describe('sign-in', () => {
  let app;
  before(async () => {
    app = await launch({ scenario: 'auth', env: { CDXTHEME_NO_KEYRING: '1' } });
  });
  after(async () => {
    await app?.close();
  });

  test('authentication required offers the agent methods; a key signs in and the turn is retried', async () => {
    const { page } = app;
    await newBuild(page, 'A sunset theme');
    const box = page.getByTestId('auth-box');
    await box.waitFor({ timeout: 30_000 });
    // Choices, not an error.
    assert.equal(await page.locator('[data-testid="message"][data-role="error"]').count(), 0, 'an error is shown next to the sign-in');
    const names = await box.getByTestId('auth-method').allInnerTexts();
    assert.equal(names.length, 2, names.join(','));
    await box.locator('[data-testid="auth-method"][data-method-id="api-key"]').click();
    const key = box.getByTestId('auth-key');
    assert.equal(await key.getAttribute('type'), 'password', 'the key field is not masked');
    await key.fill('sk-e2e-secret');
    await box.getByTestId('auth-key-submit').click();
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="message-list"]')?.textContent ?? '').includes('Hello from the fake agent.'),
      null,
      { timeout: 30_000 },
    );
    const log = agentLog(app.logFile);
    assert.ok(log.some((m) => m.method === 'authenticate' && m.params.methodId === 'api-key'), 'authenticate not called');
    const prompts = log.filter((m) => m.method === 'session/prompt');
    assert.equal(prompts.length, 1);
    assert.equal(prompts[0].params.prompt[0].text, 'A sunset theme', 'the retried turn is not the interrupted one');
    assert.ok(!(await page.content()).includes('sk-e2e-secret'), 'the key is still on the page');
    // Settings shows the state and offers sign-out.
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('settings-auth-state').waitFor();
    assert.match(await page.getByTestId('settings-auth-state').innerText(), /api-key|API/i);
    await page.getByTestId('settings-sign-out').click();
    await page.waitForFunction(() => {
      const log = document.querySelector('[data-testid="settings-auth-state"]')?.getAttribute('data-signed-in');
      return log === 'false';
    }, null, { timeout: 30_000 });
    assert.ok(agentLog(app.logFile).some((m) => m.method === 'logout'), 'the agent logout was not called');
  });

  test('after sign-out, the agent’s own method (ChatGPT) signs in and the turn is retried', async () => {
    const { page } = app;
    await newBuild(page, 'A harbour night theme');
    const box = page.getByTestId('auth-box');
    await box.waitFor({ timeout: 30_000 });
    await box.locator('[data-testid="auth-method"][data-method-id="chat-gpt"]').click();
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="message-list"]')?.textContent ?? '').includes('You said: A harbour night theme'),
      null,
      { timeout: 30_000 },
    );
    const log = agentLog(app.logFile);
    assert.ok(log.some((m) => m.method === 'authenticate' && m.params.methodId === 'chat-gpt'), 'authenticate(chat-gpt) not called');
    assert.equal(log.filter((m) => m.method === 'session/prompt').at(-1).params.prompt[0].text, 'A harbour night theme');
  });
});

describe('session options, commands, attachments and artifacts', () => {
  let app;
  before(async () => {
    app = await launch({ scenario: 'normal' });
  });
  after(async () => {
    await app?.close();
  });

  test('a boolean option is rendered from its description and reaches the agent', async () => {
    const { page } = app;
    await newBuild(page, 'Show the options #options');
    await idle(page);
    const fast = page.locator('[data-testid="bar-option"][data-config-id="fast-mode"]');
    await fast.waitFor({ timeout: 10_000 });
    assert.match(await fast.innerText(), /Fast mode/);
    // The grouped select shows its groups.
    const family = page.locator('[data-testid="bar-option"][data-config-id="palette_family"] select');
    assert.deepEqual(await family.locator('optgroup').evaluateAll((gs) => gs.map((g) => g.label)), ['Dark', 'Light']);
    await fast.locator('input[type="checkbox"]').check();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="bar-option"][data-config-id="fast-mode"] input')?.checked === true,
    );
    const deadline = Date.now() + 15_000;
    let set;
    while (!set && Date.now() < deadline) {
      set = agentLog(app.logFile).find((m) => m.method === 'session/set_config_option' && m.params.configId === 'fast-mode');
      if (!set) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(set, 'set_config_option for fast-mode never reached the agent');
    assert.equal(set.params.value, true);
    assert.equal(set.params.type, 'boolean');
    await send(page, 'And now? #options');
    assert.match(await messages(page), /fast-mode=true/);
  });

  test('typing / offers the agent commands with description and hint; picking one fills the prompt', async () => {
    const { page } = app;
    await newBuild(page, 'Which commands? #commands');
    await idle(page);
    const prompt = page.getByTestId('prompt');
    await prompt.fill('');
    await prompt.pressSequentially('/re');
    const menu = page.getByTestId('slash-menu');
    await menu.waitFor({ timeout: 5_000 });
    const items = menu.getByTestId('slash-item');
    const names = await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));
    assert.deepEqual(names, ['review', 'rename']);
    assert.match(await menu.innerText(), /Review uncommitted changes/);
    assert.match(await menu.innerText(), /optional review instructions/);
    await prompt.press('Enter');
    assert.equal(await prompt.inputValue(), '/review ');
    await prompt.pressSequentially('the contrast');
    await page.getByTestId('send').click();
    await idle(page);
    const last = agentLog(app.logFile).filter((m) => m.method === 'session/prompt').at(-1);
    assert.equal(last.params.prompt[0].text, '/review the contrast');
  });

  test('a pasted image is sent as an image block', async () => {
    const { page } = app;
    await newBuild(page, 'Start #echo-blocks');
    await idle(page);
    await page.getByTestId('prompt').fill('What is in this picture? #echo-blocks');
    await page.getByTestId('prompt').evaluate((el) => {
      // A 1×1 PNG, as a screenshot paste delivers it.
      const b64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'paste.png', { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    });
    const chip = page.getByTestId('attachment');
    await chip.waitFor({ timeout: 5_000 });
    assert.match(await chip.innerText(), /paste\.png/);
    await page.getByTestId('send').click();
    await idle(page);
    assert.match(await messages(page), /Blocks: text, image/);
    const last = agentLog(app.logFile).filter((m) => m.method === 'session/prompt').at(-1);
    assert.equal(last.params.prompt[1].type, 'image');
    assert.equal(last.params.prompt[1].mimeType, 'image/png');
  });

  test('artifacts list the links; the one outside the workspace is refused', async () => {
    const { page } = app;
    await newBuild(page, 'Which files? #links');
    await idle(page);
    const outside = page.locator('[data-testid="artifact"][data-name="passwd"]');
    try {
      await outside.waitFor({ timeout: 10_000 });
    } catch (e) {
      const debug = await page.evaluate(async () => {
        const ws = await window.go.app.Builds.Workspaces();
        const arts = ws.length ? await window.go.app.Builds.Artifacts(ws[0].id) : null;
        return { aside: document.querySelector('aside')?.innerText ?? 'no aside', ws: ws.map((w) => w.id + ' ' + w.title), arts };
      });
      throw new Error(e.message + '\n' + JSON.stringify(debug, null, 1));
    }
    assert.equal(await outside.getAttribute('data-inside'), 'false');
    assert.match(await outside.innerText(), /outside the workspace/i);
    await outside.getByTestId('artifact-open').click({ force: true });
    const notice = page.getByTestId('artifact-error');
    await notice.waitFor({ timeout: 5_000 });
    assert.match(await notice.innerText(), /outside the workspace/);
  });
});
