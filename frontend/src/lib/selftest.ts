// Start-up self-test (CDXTHEME_SELFTEST_OUT set by a script): send the given
// prompt through the normal New Build path and report what was rendered, so
// the real window is proven end to end without synthetic keystrokes.
import * as api from './api';
import type { SelfTestPlan } from './types';
import { startBuild } from './build';
import { chat } from './stores/chat.svelte';

const frame = () => new Promise<void>((r) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => r()) : setTimeout(r, 16)));

/** Text of the newest rendered agent answer or error box. */
export function renderedReply(root: ParentNode = document): string {
  const answers = root.querySelectorAll('[data-testid=message][data-role=assistant]');
  const last = answers[answers.length - 1];
  if (last) return last.textContent?.trim() ?? '';
  const err = root.querySelector('[data-testid=error-box]');
  return err ? 'ERROR: ' + (err.textContent?.trim() ?? '') : '';
}

/** The self-test plan, or null in normal use. */
export async function selfTestPlan(): Promise<SelfTestPlan | null> {
  try {
    const plan = await api.selfTest();
    return plan?.active ? plan : null;
  } catch {
    return null; // bindings without the self-test: normal use
  }
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
    const doc = JSON.parse(plan.theme) as { syntax?: Record<string, string> };
    const { highlight } = await import('./shikiPreview');
    const lines = await highlight("// comment\nimport { a } from 'b';\n  // indented\nconst x = 1;", 'typescript', await api.vscodeTheme(doc));
    const colour = (line: number, text: string) => lines[line]?.find((t) => t.text.trim() === text)?.color?.toLowerCase() ?? '';
    const report = {
      keyword: doc.syntax?.keyword?.toLowerCase(),
      comment: doc.syntax?.comment?.toLowerCase(),
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

/** Sends the plan's prompt through New Build and reports the rendered reply. */
export async function runSelfTest(plan: SelfTestPlan | null, pollMs = 100): Promise<boolean> {
  if (!plan?.prompt) return false;
  try {
    await startBuild(plan.prompt);
  } catch (e) {
    await api.selfTestReport('reply', 'ERROR: ' + api.errorMessage(e)).catch(() => {});
    return true;
  }
  while (chat.state.running) await new Promise((r) => setTimeout(r, pollMs));
  await reportHighlight(plan);
  await frame();
  await api.selfTestReport('reply', renderedReply()).catch(() => {});
  return true;
}
