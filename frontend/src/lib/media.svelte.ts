// Window-size breakpoints the layout switches on, as reactive values. Where
// matchMedia is missing (tests), the wide layout applies.

/** Below this window width the theme preview is an overlay opened by a button, not a column. */
export const previewColumnMin = 1100;

function query(q: string) {
  const mql = typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(q) : null;
  const state = $state({ matches: mql?.matches ?? false });
  mql?.addEventListener('change', (e) => (state.matches = e.matches));
  return state;
}

export const narrow = query(`(max-width: ${previewColumnMin - 1}px)`);
