// Go's hints about CODEX_HOME come with a code: say them in the UI's
// language, and keep Go's English sentence only for a code this UI does not
// know yet.
import { has, t } from './i18n.svelte';

export function hintText(h: { hint?: string; hintCode?: string; hintDir?: string }): string {
  if (h.hintCode && has('hint.' + h.hintCode)) return t('hint.' + h.hintCode, { dir: h.hintDir ?? '' });
  return h.hint ?? '';
}
