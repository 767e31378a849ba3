// Which view is on screen, and what it was opened with.
export type Route =
  | { view: 'home' }
  | { view: 'new' }
  | { view: 'chat'; workspaceId?: string; sessionId?: string; cwd?: string; turnId?: string; prompt?: string; title?: string }
  | { view: 'transcript'; id: string; title?: string; at?: number }
  | { view: 'settings' };

export const router = $state<{ route: Route; history: Route[] }>({ route: { view: 'home' }, history: [] });

export function go(route: Route): void {
  router.history.push(router.route);
  router.route = route;
}

export function back(): void {
  router.route = router.history.pop() ?? { view: 'home' };
}
