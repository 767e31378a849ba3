// Start-up self-test (CDXTHEME_SELFTEST_OUT set by a script): send the given
// prompt through the normal New Build path and report what was rendered, so
// the real window is proven end to end without synthetic keystrokes.
import { syntaxColor } from './theme';
import * as api from './api';
import type { SelfTestPlan } from './types';
import { startBuild } from './build';
import { chat } from './stores/chat.svelte';
import { go } from './stores/router.svelte';
import { isOpening, isRunning } from './chatReducer';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const frame = () => new Promise<void>((r) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => r()) : setTimeout(r, 16)));

/** Text of the newest rendered agent answer or error box. */
export function renderedReply(root: ParentNode = document): string {
  const answers = root.querySelectorAll('[data-testid=message][data-role=assistant]');
  const last = answers[answers.length - 1];
  if (last) return last.textContent?.trim() ?? '';
  const err = root.querySelector('[data-testid=error-box]');
  return err ? 'ERROR: ' + (err.textContent?.trim() ?? '') : '';
}

let active: SelfTestPlan | null = null;
/** The last part reported mounted; Home's mounts before the plan arrives. */
let mounted = '';

/** The self-test plan, or null in normal use. */
export async function selfTestPlan(signal?: AbortSignal): Promise<SelfTestPlan | null> {
  const plan = await api.selfTest(signal);
  active = plan?.active ? plan : null;
  if (mounted) reportMounted(mounted);
  return active;
}

/** Tells a self-test asking for views (plan.view) that a part is mounted and listening. */
export function reportMounted(what: string): void {
  mounted = what;
  if (active?.view) void api.selfTestReport('mounted', what).catch(() => {});
}

/** Reports the route on screen to a self-test that asked for a view (plan.view). */
export function reportRoute(r: { view: string; workspaceId?: string }): void {
  if (active?.view) void api.selfTestReport('route', JSON.stringify({ view: r.view, workspaceId: r.workspaceId ?? '' })).catch(() => {});
}

/** Reports the first painted frame (the start-up benchmark reads it). */
export async function reportPaint(plan: SelfTestPlan | null): Promise<void> {
  if (!plan) return;
  await frame();
  await api.selfTestReport('paint', document.title).catch(() => {});
}

/**
 * Highlights code with the preview's highlighter and the plan's theme and
 * reports the colours it gave: a comment, code after it, an indented
 * comment and code after that, beside the theme's own keyword and comment
 * colours. The window test compares them, in this webview's regex engine.
 */
export async function reportHighlight(plan: SelfTestPlan | null): Promise<void> {
  if (!plan?.theme) return;
  try {
    const doc = JSON.parse(plan.theme) as { syntax?: Record<string, unknown> };
    const { highlight } = await import('./shikiPreview');
    const lines = await highlight("// comment\nimport { a } from 'b';\n  // indented\nconst x = 1;", 'typescript', await api.vscodeTheme(doc));
    const colour = (line: number, text: string) => lines[line]?.find((t) => t.text.trim() === text)?.color?.toLowerCase() ?? '';
    const report = {
      // A syntax role is a colour or, in version 2, {color, fontStyle}.
      keyword: syntaxColor(doc.syntax?.keyword),
      comment: syntaxColor(doc.syntax?.comment),
      firstComment: colour(0, '// comment'),
      import: colour(1, 'import'),
      indentedComment: colour(2, '// indented'),
      const: colour(3, 'const'),
    };
    await api.selfTestReport('highlight', JSON.stringify(report)).catch(() => {});
  } catch (e) {
    await api.selfTestReport('highlight', 'ERROR: ' + api.errorMessage(e)).catch(() => {});
  }
}

/** Whether the chat's newest message is drawn inside the message list's viewport. */
export function lastTurnVisible(root: ParentNode = document): boolean {
  const list = root.querySelector('[data-testid=message-list]');
  const msgs = root.querySelectorAll('[data-testid=message]');
  const last = msgs[msgs.length - 1];
  if (!list || !last) return false;
  const l = list.getBoundingClientRect();
  const m = last.getBoundingClientRect();
  return m.height > 0 && m.bottom > l.top && m.top < l.bottom;
}

/**
 * Reopens the plan's saved chat and reports, once its agent replayed the
 * history and the newest message is on screen, how long that took and how
 * many items the chat holds ("reopened").
 */
async function reopen(plan: SelfTestPlan, pollMs: number): Promise<void> {
  const start = performance.now();
  go({ view: 'chat', sessionId: plan.open!, cwd: plan.openCwd ?? '' });
  let firstMs = 0;
  // A Codex chat's history is its rollout's, shown while the agent still
  // opens; a chat without one has only what the agent replays.
  const shown = () => {
    const s = chat.state;
    if (s.history.loading || s.items.length === 0 || !lastTurnVisible()) return false;
    if (!firstMs) firstMs = Math.round(performance.now() - start);
    return s.history.source === 'rollout' || !isOpening(s);
  };
  while (!shown()) {
    if (performance.now() - start > 60_000) throw new Error('the reopened chat showed no last turn within 60 s');
    await sleep(pollMs);
  }
  await frame();
  const ms = Math.round(performance.now() - start);
  const last = renderedReply().slice(0, 80);
  await api.selfTestReport('reopened', JSON.stringify({ ms, firstMs, items: chat.state.items.length, last })).catch(() => {});
}

/**
 * Sends the plan's prompt (through New Build, or in the reopened chat) and
 * reports the frame that shows the turn ended ("idle", with send→idle in
 * "turn"), then the rendered reply.
 */
export async function runSelfTest(plan: SelfTestPlan | null, pollMs = 20): Promise<boolean> {
  if (!plan?.prompt && !plan?.open) return false;
  let sent = 0;
  try {
    if (plan.open) await reopen(plan, pollMs);
    if (!plan.prompt) return true;
    sent = performance.now();
    if (plan.open) await chat.send(plan.prompt);
    else await startBuild(plan.prompt);
  } catch (e) {
    await api.selfTestReport('reply', 'ERROR: ' + api.errorMessage(e)).catch(() => {});
    return true;
  }
  while (isRunning(chat.state)) await sleep(pollMs);
  // The frame that shows the turn ended, reported before anything slow
  // (the highlighter below): the bench times Stop to this.
  await frame();
  await api.selfTestReport('turn', String(Math.round(performance.now() - sent))).catch(() => {});
  await api.selfTestReport('idle', document.querySelector('[data-testid=message][data-role=stopped]') ? 'stopped' : 'ended').catch(() => {});
  await reportHighlight(plan);
  await frame();
  await api.selfTestReport('reply', renderedReply()).catch(() => {});
  if (plan.nav) await navSelfTest(plan.nav);
  return true;
}


type Rect = { x: number; y: number; w: number; h: number; hidden?: boolean };

/** Where each ⟦label⟧ed navigation vector of the last reply is drawn: the
 * first visible text or image after its label (the sanitizer may have moved
 * or removed the markup; with nothing left, the spot just right of the
 * label), in viewport pixels; hidden when something else (a scroll edge, an
 * error line) is drawn there. Also the node found, for focusing. */
export function vectorTargets(root: ParentNode = document): Record<string, { rect: Rect; node: Node | null }> {
  const answers = root.querySelectorAll('[data-testid=message][data-role=assistant]');
  const last = answers[answers.length - 1];
  const out: Record<string, { rect: Rect; node: Node | null }> = {};
  if (!last) return out;
  const put = (name: string, r: DOMRect | Rect, node: Node | null) => {
    const rect = 'left' in r ? { x: Math.round(r.left), y: Math.round(r.top), w: Math.round(r.width), h: Math.round(r.height) } : r;
    const hit = document.elementFromPoint(rect.x + Math.min(rect.w / 2, 40), rect.y + rect.h / 2);
    out[name] = { rect: hit && last.contains(hit) ? rect : { ...rect, hidden: true }, node };
  };
  const visible = (r: DOMRect) => r.width > 2 && r.height > 2;
  const walker = document.createTreeWalker(last, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  let current: string | null = null;
  let labelRect: DOMRect | undefined;
  const finish = () => {
    if (current && !out[current] && labelRect) put(current, { x: Math.round(labelRect.right + 20), y: Math.round(labelRect.top), w: 40, h: Math.round(labelRect.height) }, null);
  };
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.nodeType === Node.ELEMENT_NODE) {
      if (current && !out[current] && (n as Element).tagName === 'IMG') {
        const r = (n as Element).getBoundingClientRect();
        if (visible(r)) put(current, r, n);
      }
      continue;
    }
    const text = n.textContent ?? '';
    const m = /⟦([a-z-]+)⟧/.exec(text);
    let from = 0;
    if (m) {
      finish();
      current = m[1];
      const lr = document.createRange();
      lr.setStart(n, m.index);
      lr.setEnd(n, m.index + m[0].length);
      labelRect = lr.getBoundingClientRect();
      from = m.index + m[0].length;
    }
    if (!current || out[current]) continue;
    const rest = text.slice(from);
    if (rest.trim() === '') continue;
    const range = document.createRange();
    range.setStart(n, from + rest.length - rest.trimStart().length);
    range.setEnd(n, text.length);
    const r = Array.from(range.getClientRects()).find(visible);
    if (r) put(current, r, n);
  }
  finish();
  return out;
}

/** The rectangles of vectorTargets. */
export function vectorRects(root: ParentNode = document): Record<string, Rect> {
  return Object.fromEntries(Object.entries(vectorTargets(root)).map(([k, v]) => [k, v.rect]));
}

/**
 * The navigation window test, in the page: try to leave for the test's
 * loopback page from script (the page's own guards bypassed: only the Go
 * lock underneath can stop these), then report where each vector is drawn
 * and focus the link meant for a real Enter key. The test's real input
 * does the rest; the report keeps the positions current.
 */
export async function navSelfTest(url: string): Promise<void> {
  const errors: string[] = [];
  document.addEventListener('cdx-link-error', (e) => {
    errors.push(String((e as CustomEvent).detail));
    void api.selfTestReport('linkErrors', JSON.stringify(errors)).catch(() => {});
  });
  const start = location.href;
  const tries: [string, () => void][] = [
    ['href', () => (location.href = `${url}/b/href`)],
    ['assign', () => location.assign(`${url}/b/assign`)],
    ['replace', () => location.replace(`${url}/b/replace`)],
    ['top', () => ((window.top ?? window).location.href = `${url}/b/top`)],
    ['open', () => void window.open(`${url}/b/open`)],
    ['open-named', () => void window.open(`${url}/b/open-named`, 'named', 'popup')],
    ['detached-a', () => Object.assign(document.createElement('a'), { href: `${url}/b/detached-a` }).click()],
    ['detached-blank', () => Object.assign(document.createElement('a'), { href: `${url}/b/detached-blank`, target: '_blank' }).click()],
    ['meta-refresh', () => {
      const m = document.createElement('meta');
      m.httpEquiv = 'refresh';
      m.content = `0;url=${url}/b/meta-refresh`;
      document.head.appendChild(m);
    }],
    ['form', () => {
      const f = Object.assign(document.createElement('form'), { action: `${url}/b/form`, method: 'get' });
      document.body.appendChild(f);
      f.submit();
      f.remove();
    }],
    ['file', () => (location.href = 'file:///etc/passwd')],
    ['data', () => (location.href = `data:text/html,<script>location='${url}/b/data'</script>`)],
  ];
  const done: string[] = [];
  for (const [name, go] of tries) {
    try {
      go();
      done.push(name);
    } catch (e) {
      done.push(`${name}: ${api.errorMessage(e)}`);
    }
    await sleep(250);
  }
  await sleep(1000);
  document.querySelectorAll('meta[http-equiv=refresh]').forEach((m) => m.remove());
  await api.selfTestReport('bypass', JSON.stringify({ tried: done, stayed: location.href === start, at: location.href })).catch(() => {});

  const answers = document.querySelectorAll('[data-testid=message][data-role=assistant]');
  answers[answers.length - 1]?.querySelector('.md > *')?.scrollIntoView({ block: 'start' });
  const widgets = bypassWidgets(url);
  await frame();
  let last = '';
  const report = async () => {
    const now = JSON.stringify({ vw: innerWidth, vh: innerHeight, vectors: { ...vectorRects(), ...widgets() } });
    if (now !== last) {
      last = now;
      await api.selfTestReport('rects', now).catch(() => {});
    }
  };
  await report();
  const enter = vectorTargets().enter?.node?.parentElement?.closest('a');
  enter?.focus();
  await api.selfTestReport('focused', !!enter && document.activeElement === enter ? 'true' : `no: ${enter?.outerHTML ?? 'no link at the enter vector'}; active ${document.activeElement?.tagName}`).catch(() => {});
  setInterval(() => void report(), 300);
}

/**
 * Things for the test's real clicks that the page's guard cannot see: links
 * inside a closed shadow root (the document's listener never learns they
 * were clicked) and a button whose handler calls window.open during the
 * click's user gesture. Only the Go lock can stop what they start.
 */
function bypassWidgets(url: string): () => Record<string, Rect> {
  const box = document.createElement('div');
  Object.assign(box.style, { position: 'fixed', top: '80px', right: '24px', zIndex: '1000', display: 'flex', gap: '24px', padding: '8px', background: '#fff', color: '#000' });
  const host = document.createElement('span');
  const shadow = host.attachShadow({ mode: 'closed' });
  const link = Object.assign(document.createElement('a'), { href: `${url}/b/shadow-link`, textContent: 'shadow link' });
  const blank = Object.assign(document.createElement('a'), { href: `${url}/b/shadow-blank`, target: '_blank', textContent: 'shadow blank' });
  shadow.append(link, document.createTextNode('  '), blank);
  const open = Object.assign(document.createElement('button'), { type: 'button', textContent: 'gesture open' });
  open.addEventListener('click', () => void window.open(`${url}/b/gesture-open`));
  box.append(host, open);
  document.body.appendChild(box);
  const r = (el: Element) => {
    const b = el.getBoundingClientRect();
    return { x: Math.round(b.left), y: Math.round(b.top), w: Math.round(b.width), h: Math.round(b.height) };
  };
  return () => ({ 'shadow-link': r(link), 'shadow-blank': r(blank), 'gesture-open': r(open) });
}

/** What the editor window test reads of one element (see elementStates). */
export type ElementState = Rect & {
  data: Record<string, string>;
  text: string;
  value?: string;
  checked?: boolean;
  color: string;
  bg: string;
};

/** How much of an element's text is reported: enough for a chat's turns, bounded so each report stays small. */
const maxElementText = 20_000;

/**
 * The first match of each named selector: where it is drawn in viewport
 * pixels (hidden when it is off screen or something else is drawn at its
 * centre, so a real click would miss), its data attributes, text, form
 * value and computed colours. A selector that matches nothing is left out.
 * Also which element has the keyboard focus (its data-testid).
 */
export function elementStates(selectors: Record<string, string>, root: Document = document): { vw: number; vh: number; active: string; els: Record<string, ElementState> } {
  const els: Record<string, ElementState> = {};
  for (const [name, sel] of Object.entries(selectors)) {
    let el: Element | null = null;
    try {
      el = root.querySelector(sel);
    } catch {
      continue; // a bad selector is the test's mistake; it times out naming the element
    }
    if (!el) continue;
    const b = el.getBoundingClientRect();
    const rect = { x: Math.round(b.left), y: Math.round(b.top), w: Math.round(b.width), h: Math.round(b.height) };
    const cx = b.left + b.width / 2;
    const cy = b.top + b.height / 2;
    const onScreen = b.width > 0 && b.height > 0 && cx >= 0 && cy >= 0 && cx < innerWidth && cy < innerHeight;
    const hit = onScreen && typeof root.elementFromPoint === 'function' ? root.elementFromPoint(cx, cy) : null;
    const style = getComputedStyle(el);
    const state: ElementState = {
      ...rect,
      data: { ...(el as HTMLElement).dataset } as Record<string, string>,
      text: (el.textContent ?? '').trim().slice(-maxElementText),
      color: style.color,
      bg: style.backgroundColor,
    };
    if (!hit || !el.contains(hit)) state.hidden = true;
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) state.value = el.value;
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) state.checked = el.checked;
    els[name] = state;
  }
  const active = root.activeElement as HTMLElement | null;
  return { vw: innerWidth, vh: innerHeight, active: active?.dataset?.testid ?? active?.tagName?.toLowerCase() ?? '', els };
}

/**
 * The editor window test (plan.elements): reports elementStates as
 * "elements" whenever it changes, polled, so the test's real clicks aim at
 * where things are now and its checks read what the page shows. Returns
 * the stop. Nothing happens without the plan, which Go gives only when the
 * test's environment asked for it at start-up.
 */
export function watchElements(plan: SelfTestPlan | null, everyMs = 150): () => void {
  if (!plan?.elements) return () => {};
  let selectors: Record<string, string>;
  try {
    selectors = JSON.parse(plan.elements) as Record<string, string>;
  } catch (e) {
    void api.selfTestReport('elements', 'ERROR: ' + api.errorMessage(e)).catch(() => {});
    return () => {};
  }
  let last = '';
  const report = () => {
    const now = JSON.stringify(elementStates(selectors));
    if (now === last) return;
    last = now;
    void api.selfTestReport('elements', now).catch(() => {});
  };
  report();
  const timer = setInterval(report, everyMs);
  return () => clearInterval(timer);
}
