// A workspace's checkpoints (one before every turn, one before every
// restore), followed through the "checkpoints" event, and the restore that
// can still be undone.
import * as api from '../api';
import type { checkpoint } from '../types';

export class CheckpointStore {
  workspaceId = $state('');
  list = $state<checkpoint.Summary[]>([]);
  /** The checkpoint that undoes the last restore, and the turn it restored. */
  undo = $state<{ checkpoint: checkpoint.Summary; turnId: string } | null>(null);
  busy = $state(false);
  error = $state('');
  private off: (() => void) | null = null;
  private latest = 0;

  open(workspaceId: string): void {
    if (workspaceId !== this.workspaceId) {
      this.list = [];
      this.undo = null;
      this.error = '';
    }
    this.workspaceId = workspaceId;
    this.off ??= api.onCheckpoints((id) => {
      if (id === this.workspaceId) void this.refresh();
    });
    if (workspaceId) void this.refresh();
  }

  close(): void {
    this.off?.();
    this.off = null;
    this.workspaceId = '';
  }

  async refresh(): Promise<void> {
    const id = this.workspaceId;
    const mine = ++this.latest;
    try {
      const list = await api.checkpoints(id);
      if (mine === this.latest && id === this.workspaceId) this.list = list;
    } catch (e) {
      if (id === this.workspaceId) this.error = api.errorMessage(e);
    }
  }

  /** The checkpoint taken before a turn. */
  forTurn(turnId: string): checkpoint.Summary | undefined {
    return this.list.find((c) => c.kind === 'turn' && c.turnId === turnId);
  }

  async restore(checkpointId: string, turnId: string): Promise<boolean> {
    if (this.busy) return false;
    return this.restoring(async () => {
      const undo = await api.restoreCheckpoint(this.workspaceId, checkpointId);
      this.undo = { checkpoint: undo, turnId };
    });
  }

  /** Undoes the last restore (restores the checkpoint taken just before it). */
  async undoRestore(): Promise<boolean> {
    const u = this.undo;
    if (!u || this.busy) return false;
    return this.restoring(async () => {
      await api.restoreCheckpoint(this.workspaceId, u.checkpoint.id);
      this.undo = null;
    });
  }

  /** Runs one restore: busy meanwhile, its error kept, the list read again after. */
  private async restoring(work: () => Promise<void>): Promise<boolean> {
    this.busy = true;
    this.error = '';
    try {
      await work();
      return true;
    } catch (e) {
      this.error = api.errorMessage(e);
      return false;
    } finally {
      this.busy = false;
      void this.refresh();
    }
  }
}

export const checkpointStore = new CheckpointStore();
