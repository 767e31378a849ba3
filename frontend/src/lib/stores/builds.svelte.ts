// Home's theme builds: the list, the trash ("Recently deleted") and the
// note that undoes the last delete. Go moves a build between the list and
// the trash; after every action both are asked again and shown together,
// so no moment shows a build in both, or in neither.
import * as api from '../api';
import type { BuildCard, DeletedBuild } from '../types';
import { buildNames } from './names.svelte';

/** How long the "Deleted … Undo" note stays. */
export const undoMs = 10000;

export class BuildsStore {
  list = $state<BuildCard[]>([]);
  trash = $state<DeletedBuild[]>([]);
  /** The last action or listing that failed, in Go's words. */
  error = $state('');
  /** Why the trash could not be listed. */
  trashError = $state('');
  /** The last deleted build, until undone, restored, purged or the note times out. */
  deleted = $state<BuildCard | null>(null);
  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** Lists the builds, then the trash (listing the builds empties old trash), and shows both at once. */
  async load(): Promise<void> {
    const seq = ++this.seq;
    const since = buildNames.mark();
    const [list, trash] = await settle(api.builds()).then(async (l) => [l, await settle(api.deletedBuilds())] as const);
    if (seq !== this.seq) return; // a newer listing superseded this one
    if (list.ok) {
      this.list = list.value;
      buildNames.take(list.value, since);
    } else this.error = api.errorMessage(list.error);
    if (trash.ok) {
      this.trash = trash.value;
      this.trashError = '';
    } else this.trashError = api.errorMessage(trash.error);
    // The note is about a build in the trash; one that left it (restored or purged elsewhere) ends it.
    if (this.deleted && trash.ok && !this.trash.some((d) => d.id === this.deleted!.id)) this.forget();
  }

  /** Go's "build" event: a build's new name. True when a card shown here changed its title. */
  renamed(card: BuildCard): boolean {
    const shown = this.list.find((b) => b.id === card.id);
    if (!shown) return false;
    this.list = this.list.map((b) => (b.id === card.id ? card : b));
    return shown.title !== card.title;
  }

  async rename(id: string, title: string): Promise<void> {
    await this.act(async () => {
      const card = await buildNames.rename(id, title);
      this.list = this.list.map((b) => (b.id === id ? card : b));
    }, false);
  }

  duplicate(id: string): Promise<void> {
    return this.act(() => api.duplicateBuild(id));
  }

  /** Moves a build to the trash; the note offers to undo it. */
  async remove(card: BuildCard): Promise<void> {
    let ok = false;
    await this.act(async () => {
      await api.deleteBuild(card.id);
      ok = true;
    });
    if (!ok) return;
    this.forget();
    this.deleted = card;
    this.timer = setTimeout(() => this.forget(), undoMs);
  }

  /** Undoes the last delete. */
  async undo(): Promise<void> {
    const d = this.deleted;
    if (d) await this.restore(d.id);
  }

  /** Brings a build back from the trash. */
  restore(id: string): Promise<void> {
    if (this.deleted?.id === id) this.forget();
    return this.act(() => api.restoreBuild(id));
  }

  /** Deletes a build in the trash for good. */
  purge(id: string): Promise<void> {
    if (this.deleted?.id === id) this.forget();
    return this.act(() => api.purgeBuild(id));
  }

  /** Home is left: the note and the last error go (the trash still has the build). */
  leave(): void {
    this.forget();
    this.error = '';
  }

  private forget(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.deleted = null;
  }

  /** Runs one action; its error is kept, and the list and the trash are asked again after it (relist). */
  private async act(work: () => Promise<unknown>, relist = true): Promise<void> {
    try {
      await work();
      this.error = '';
    } catch (e) {
      this.error = api.errorMessage(e);
    }
    if (relist) await this.load();
  }
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  return p.then(
    (value) => ({ ok: true as const, value }),
    (error) => ({ ok: false as const, error }),
  );
}

export const builds = new BuildsStore();
