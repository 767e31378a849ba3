// Theme state per workspace: the last valid document stays on screen while
// the agent's current theme.json has an error.
import * as api from '../api';
import type { ContrastPair, ThemeDocument, ThemeState } from '../types';

export class ThemeStore {
  workspaceId = $state('');
  theme = $state<ThemeDocument | null>(null);
  contrast = $state<ContrastPair[]>([]);
  error = $state('');
  loading = $state(false);
  private unsubscribe: (() => void) | null = null;

  /** Follows one workspace: loads its theme and listens for changes. */
  async open(workspaceId: string): Promise<void> {
    if (this.workspaceId !== workspaceId) {
      this.theme = null;
      this.contrast = [];
      this.error = '';
    }
    this.workspaceId = workspaceId;
    this.unsubscribe ??= api.onTheme((ev) => {
      if (ev.workspaceId === this.workspaceId) this.apply(ev);
    });
    if (!workspaceId) return;
    this.loading = true;
    try {
      this.apply(await api.theme(workspaceId));
    } catch (e) {
      this.error = api.errorMessage(e);
    } finally {
      this.loading = false;
    }
  }

  apply(st: ThemeState): void {
    this.error = st.error ?? '';
    if (st.theme) {
      this.theme = st.theme;
      this.contrast = st.contrast ?? [];
    }
  }

  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.workspaceId = '';
  }

  failures = $derived(this.contrast.filter((c) => !c.aa));
}

export const themeStore = new ThemeStore();
