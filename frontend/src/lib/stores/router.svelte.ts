// Which view is on screen, and what it was opened with.
export type Route =
  | { view: 'home' }
  | { view: 'new' }
  | { view: 'chat'; workspaceId?: string; sessionId?: string; cwd?: string; turnId?: string; prompt?: string; title?: string }
  | { view: 'transcript'; id: string; title?: string; at?: number }
  | { view: 'settings' };

export const router = $state<{ route: Route; history: Route[] }>({ route: { view: 'home' }, history: [] });

/**
 * A view with unsaved edits vetoes leaving: it returns false and takes over
 * (asks the user, then calls go(next, { force: true }) or stays).
 */
export type LeaveGuard = (next: Route) => boolean;

let guard: LeaveGuard | null = null;

/** Installs the guard of the view on screen; the returned function removes it. */
export function setLeaveGuard(g: LeaveGuard): () => void {
  guard = g;
  return () => {
    if (guard === g) guard = null;
  };
}

export function go(route: Route, opts: { force?: boolean } = {}): void {
  if (!opts.force && guard && !guard(route)) return;
  router.history.push(router.route);
  router.route = route;
}

export function back(): void {
  const prev = router.history.at(-1) ?? { view: 'home' as const };
  if (guard && !guard(prev)) return;
  router.history.pop();
  router.route = prev;
}
