// The one name a build goes by: Go's record of the build (its workspace
// title). Home's cards, an import, a new build, a rename and Go's "build"
// event (a rename anywhere, or the theme's new name a build follows) keep
// it here; the chat header, the open chats and the announcements read it,
// so no view shows a name the build no longer has. A chat's own title (the
// agent's, a saved session's) is only the fallback for a chat of no build.
import * as api from '../api';
import type { BuildCard } from '../types';

export class BuildNames {
  byId = $state<Record<string, string>>({});
  private off: (() => void) | null = null;
  /** Bumped by every name from a rename or an event, so an older listing never overwrites it. */
  private version = 0;

  /** Follows Go's "build" event; call once at app start. */
  start(): void {
    this.off ??= api.onBuild((card) => this.set(card.id, card.title));
  }

  stop(): void {
    this.off?.();
    this.off = null;
  }

  /** A build's name, "" when it is not known (yet). */
  of(workspaceId: string | undefined): string {
    return (workspaceId && this.byId[workspaceId]) || '';
  }

  set(workspaceId: string, title: string | undefined): void {
    this.version++;
    this.put(workspaceId, title);
  }

  /** Where the names are now: a listing asked for after it (take's since) is newer than them. */
  mark(): number {
    return this.version;
  }

  /** Takes the names of a listing asked for at mark() since; a name set after that stays. */
  take(list: { id: string; title: string }[], since = this.version): void {
    for (const b of list) {
      if (since === this.version || !this.byId[b.id]) this.put(b.id, b.title);
    }
  }

  /** Asks Go for the builds' names when this one is not known. */
  async ensure(workspaceId: string): Promise<void> {
    if (!workspaceId || this.byId[workspaceId]) return;
    const since = this.mark();
    try {
      this.take(await api.workspaces(), since);
    } catch {
      // Without it the chat shows its own title.
    }
  }

  /** Renames a build (the user's name; "" gives it its theme's): its card as Go now has it. */
  async rename(workspaceId: string, title: string): Promise<BuildCard> {
    const card = await api.renameBuild(workspaceId, title);
    this.set(card.id, card.title);
    return card;
  }

  private put(workspaceId: string, title: string | undefined): void {
    if (workspaceId && title && this.byId[workspaceId] !== title) this.byId[workspaceId] = title;
  }
}

export const buildNames = new BuildNames();

/** The name a chat goes by: its build's, else its own title. */
export function chatTitle(c: { workspaceId: string; title: string }): string {
  return buildNames.of(c.workspaceId) || c.title;
}
