// One model + reasoning effort choice shared by New Build and Chat. The menu
// is disabled while anything that uses the model is in flight.
import * as api from '../api';
import type { Model } from '../types';

export class ModelsStore {
  list = $state<Model[]>([]);
  source = $state('');
  hint = $state('');
  /** Go's code and folder for hint, which lib/hints.ts words in the UI language. */
  hintCode = $state('');
  hintDir = $state('');
  error = $state('');
  loaded = $state(false);
  model = $state('');
  effort = $state('');
  /** Reasons the model may not change right now ("turn", "generate", "apply"). */
  busyReasons = $state<string[]>([]);

  busy = $derived(this.busyReasons.length > 0);
  selected = $derived(this.list.find((m) => m.id === this.model));
  levels = $derived(this.selected?.reasoningLevels ?? []);

  /** Loads the model list; preferred is the remembered choice from settings. */
  async load(preferred?: { model?: string; effort?: string }): Promise<void> {
    try {
      const res = await api.models();
      this.list = res.models ?? [];
      this.source = res.source ?? '';
      this.hint = res.hint ?? '';
      this.hintCode = res.hintCode ?? '';
      this.hintDir = res.hintDir ?? '';
      this.error = '';
      const want = preferred?.model && this.list.some((m) => m.id === preferred.model) ? preferred.model : res.current;
      const id = this.list.some((m) => m.id === want) ? want : (this.list[0]?.id ?? want ?? '');
      this.model = id;
      this.effort = this.pickEffort(id, preferred?.effort || this.effort);
    } catch (e) {
      this.error = api.errorMessage(e);
    } finally {
      this.loaded = true;
    }
  }

  /** Keeps effort when the model offers it, else the model's default level. */
  pickEffort(modelId: string, effort: string): string {
    const m = this.list.find((x) => x.id === modelId);
    const levels = m?.reasoningLevels ?? [];
    if (levels.length === 0) return '';
    if (effort && levels.some((l) => l.effort === effort)) return effort;
    return m?.defaultReasoningLevel && levels.some((l) => l.effort === m.defaultReasoningLevel) ? m.defaultReasoningLevel : levels[0].effort;
  }

  /** Returns false when the choice is locked by a running operation. */
  select(modelId: string): boolean {
    if (this.busy) return false;
    this.model = modelId;
    this.effort = this.pickEffort(modelId, this.effort);
    return true;
  }

  setEffort(effort: string): boolean {
    if (this.busy) return false;
    if (this.levels.some((l) => l.effort === effort)) this.effort = effort;
    return true;
  }

  begin(reason: string): void {
    this.busyReasons = [...this.busyReasons, reason];
  }

  end(reason: string): void {
    const i = this.busyReasons.indexOf(reason);
    if (i >= 0) this.busyReasons = this.busyReasons.filter((_, j) => j !== i);
  }

  /** Runs op with the menu locked. */
  async during<T>(reason: string, op: () => Promise<T>): Promise<T> {
    this.begin(reason);
    try {
      return await op();
    } finally {
      this.end(reason);
    }
  }
}

export const models = new ModelsStore();
