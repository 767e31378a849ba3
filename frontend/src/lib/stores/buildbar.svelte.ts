// The session bar of New build: the values the first message will ask the
// agent for. They start as the agent's defaults over what a fresh session
// of it reported (Go's SessionBar); the user may change them here, and make
// them the defaults explicitly.
import * as api from '../api';
import type { ConfigOption } from '../chatReducer';
import type { BarState, OptionValue } from '../types';
import { barOptions } from './chat.svelte';
import { models, type ModelsStore } from './models.svelte';

export class BuildBarStore {
  bar = $state<BarState | null>(null);
  options = $state<ConfigOption[]>([]);
  error = $state('');
  defaultNote = $state('');
  /** Another agent was chosen and its bar is being read: nothing shows meanwhile. */
  switching = $state(false);
  // Only the newest read is shown: an older one, or one from before the
  // agent changed, may answer last.
  private reads = 0;
  private reading: Promise<void> | null = null;
  private switched: { done: Promise<void>; end: () => void } | null = null;
  // Values the user chose here: a newer report of the same agent keeps them
  // where it still offers them.
  private chosen: Record<string, OptionValue> = {};

  constructor(private readonly modelStore: ModelsStore = models) {}

  /** Reads the bar afresh: Go's values, none chosen here yet. */
  load(): Promise<void> {
    this.chosen = {};
    this.defaultNote = '';
    return this.reload();
  }

  /**
   * Reads the bar again, keeping the values chosen here. Resolves once the
   * newest read landed: one started meanwhile supersedes this one.
   */
  private async reload(): Promise<void> {
    const n = ++this.reads;
    const p = this.read(n);
    this.reading = p;
    void p.finally(() => {
      if (this.reading === p) this.reading = null;
    });
    await p;
    await this.ready();
  }

  private async read(n: number): Promise<void> {
    try {
      const bar = await api.sessionBar('', '');
      if (n !== this.reads) return;
      this.bar = bar;
      this.options = barOptions(bar);
      for (const [id, v] of Object.entries(this.chosen)) {
        const o = this.options.find((x) => x.id === id);
        if (o && offers(o, v)) o.currentValue = v;
      }
      this.error = '';
    } catch (e) {
      if (n !== this.reads) return;
      this.error = api.errorMessage(e);
    } finally {
      if (n === this.reads) this.settle();
    }
  }

  private settle(): void {
    this.switching = false;
    this.switched?.end();
    this.switched = null;
  }

  /** Resolves once the bar shows what the first message would ask for. */
  async ready(): Promise<void> {
    while (this.reading || this.switched) await (this.switched?.done ?? this.reading);
  }

  /**
   * The user chose another agent for new builds: the bar drops the previous
   * agent's values and says it is asking, until the load() after Go took
   * the choice brings the chosen agent's own.
   */
  choose(agentId: string): void {
    this.reads++; // a read under way is of the previous agent
    this.switching = true;
    this.chosen = {};
    if (!this.switched) {
      let end = () => {};
      const done = new Promise<void>((r) => (end = r));
      this.switched = { done, end };
    }
    this.defaultNote = '';
    this.options = [];
    if (this.bar) this.bar = { ...this.bar, agentId, agentName: '', options: [], modes: undefined, known: false, defaults: {} };
  }

  /**
   * The pre-warmed agent reported its own options: shown now, before the
   * first message, in place of any report remembered from before (values
   * chosen here stay). One that lands while the bar is being read may be
   * newer than what Go read: read again. While a choice is being saved the
   * read after it sees it.
   */
  async reported(agentId: string): Promise<void> {
    if (this.reading) await this.reload();
    else if (!this.switching && this.bar?.agentId === agentId) await this.reload();
  }

  /** Sets a value; a model change puts the effort to that model's default. */
  set(configId: string, value: OptionValue): void {
    const o = this.options.find((x) => x.id === configId);
    if (!o) return;
    o.currentValue = value;
    this.chosen[configId] = value;
    this.defaultNote = '';
    if (o.category !== 'model' || typeof value !== 'string') return;
    const effort = this.options.find((x) => x.category === 'thought_level');
    const def = this.modelStore.list.find((m) => m.id === value)?.defaultReasoningLevel;
    if (effort && def && (effort.options ?? []).some((c) => (c as { value?: unknown }).value === def)) effort.currentValue = def;
  }

  /** The values to send with the first message: option id → value. */
  values(): Record<string, OptionValue> {
    const out: Record<string, OptionValue> = {};
    for (const o of this.options) {
      if (typeof o.currentValue === 'string' || typeof o.currentValue === 'boolean') out[o.id] = o.currentValue;
    }
    if (this.bar?.modes && !this.options.some((o) => o.category === 'mode') && this.bar.modes.currentModeId) out.mode = this.bar.modes.currentModeId;
    return out;
  }

  /** The bar as the new chat starts with it. */
  snapshot(): BarState | null {
    if (!this.bar) return null;
    return { ...$state.snapshot(this.bar), options: $state.snapshot(this.options) as BarState['options'] } as BarState;
  }

  async saveDefaults(saved: string): Promise<void> {
    if (!this.bar || this.switching) return;
    try {
      await api.saveBuildDefaults(this.bar.agentId, this.values());
      this.defaultNote = saved;
    } catch (e) {
      this.error = api.errorMessage(e);
    }
  }
}

export const buildBar = new BuildBarStore();

/** Whether the option can take v (a select lists it; a boolean is true/false). */
function offers(o: ConfigOption, v: OptionValue): boolean {
  if (o.type === 'boolean') return typeof v === 'boolean';
  return typeof v === 'string' && (o.options ?? []).some((c) => (c as { value?: unknown }).value === v || ((c as { options?: unknown[] }).options ?? []).some((g) => (g as { value?: unknown }).value === v));
}
