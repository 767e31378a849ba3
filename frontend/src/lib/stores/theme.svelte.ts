// Theme state per workspace: the last valid document stays on screen while
// the agent's current theme.json has an error.
import * as api from '../api';
import type { Check, ThemeDocument, ThemeState } from '../types';
import type { RoleColor } from '../theme';

export class ThemeStore {
  workspaceId = $state('');
  theme = $state<ThemeDocument | null>(null);
  checks = $state<Check[]>([]);
  /** Every role as Go resolved it (set or derived). */
  roles = $state<RoleColor[]>([]);
  error = $state('');
  /** The theme's other appearance (theme.json's companion), as Go states it. */
  companion = $state<ThemeState | null>(null);
  loading = $state(false);
  private unsubscribe: (() => void) | null = null;
  // Bridge events may arrive out of order (the Wails dev server sends each
  // on its own goroutine): an event shows at once, then the state is
  // fetched again and the answer to the latest fetch wins.
  private latest = 0;

  /** Follows one workspace: loads its theme and listens for changes. */
  async open(workspaceId: string): Promise<void> {
    if (this.workspaceId !== workspaceId) {
      this.theme = null;
      this.checks = [];
      this.roles = [];
      this.companion = null;
      this.error = '';
    }
    this.workspaceId = workspaceId;
    this.unsubscribe ??= api.onTheme((ev) => {
      if (ev.workspaceId !== this.workspaceId) return;
      this.apply(ev);
      void this.refresh(ev.workspaceId, false);
    });
    if (!workspaceId) return;
    this.loading = true;
    try {
      await this.refresh(workspaceId, true);
    } finally {
      this.loading = false;
    }
  }

  private async refresh(workspaceId: string, report: boolean): Promise<void> {
    const mine = ++this.latest;
    try {
      const st = await api.theme(workspaceId);
      if (mine === this.latest && workspaceId === this.workspaceId) this.apply(st);
    } catch (e) {
      if (report) this.error = api.errorMessage(e);
    }
  }

  apply(st: ThemeState): void {
    this.error = st.error ?? '';
    if (st.theme) {
      this.theme = st.theme;
      this.checks = st.checks ?? [];
      this.roles = st.roles ?? [];
      this.companion = st.companion ?? null;
    }
  }

  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.workspaceId = '';
  }

  failures = $derived(this.checks.filter((c) => !c.aa));
}

export const themeStore = new ThemeStore();
