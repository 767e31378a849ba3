// The open chat: sends prompts, folds the turn events into view state (see
// chatReducer.ts), answers permission requests, cancels.
import * as api from '../api';
import { answer as answerReducer, applyEvent, beginTurn, newChatState, type AnswerEffect, type ChatState } from '../chatReducer';
import type { Attachment, ChatEvent, OptionValue, PermissionOption, TurnBatch } from '../types';
import { models, type ModelsStore } from './models.svelte';

/** Events of turns nobody adopted yet (they may arrive before Send resolves). */
const maxBufferedTurns = 64;
const maxBufferedEvents = 200_000;

export interface OpenArgs {
  workspaceId?: string;
  sessionId?: string;
  cwd?: string;
  title?: string;
}

export class ChatStore {
  state = $state<ChatState>(newChatState());
  lastPrompt = $state('');
  sendError = $state('');
  optionError = $state('');
  private lastAttachments: Attachment[] = [];
  private turns = new Set<string>();
  private buffer = new Map<string, ChatEvent[]>();
  private buffered = 0;
  private memory: Record<string, Record<string, string>> = {};
  private unsubscribe: (() => void) | null = null;
  private localSeq = 0;
  private lockedTurn = '';

  constructor(private readonly modelStore: ModelsStore = models) {}

  /** Starts listening for turn events; call once at app start. */
  start(): void {
    this.unsubscribe ??= api.onTurn((b) => this.receive(b));
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** Shows a chat. The same session keeps its transcript; another one starts fresh. */
  open(args: OpenArgs): void {
    const same =
      (args.sessionId && args.sessionId === this.state.sessionId) ||
      (!args.sessionId && args.workspaceId && args.workspaceId === this.state.workspaceId);
    if (same) {
      if (args.cwd) this.state.cwd = args.cwd;
      if (args.workspaceId) this.state.workspaceId = args.workspaceId;
      return;
    }
    this.remember();
    // Only one chat streams at a time: leaving a running one stops its turn.
    if (this.state.running && this.state.turnId && !this.state.turnId.startsWith('local-')) {
      api.cancel(this.state.turnId).catch(() => {});
    }
    this.turns.clear();
    if (this.lockedTurn) {
      this.lockedTurn = '';
      this.modelStore.end('turn');
    }
    const next = newChatState(args);
    next.always = structuredClone(this.memory);
    this.state = next;
    this.lastPrompt = '';
    this.sendError = '';
  }

  private remember(): void {
    const snap = $state.snapshot(this.state.always) as Record<string, Record<string, string>>;
    for (const [sid, kinds] of Object.entries(snap)) this.memory[sid] = { ...this.memory[sid], ...kinds };
  }

  /** Takes over a turn started elsewhere (New Build). */
  adopt(turnId: string, prompt: string): void {
    this.lastPrompt = prompt;
    this.turns.add(turnId);
    beginTurn(this.state, turnId, prompt);
    this.lock(turnId);
    this.flush(turnId);
  }

  /** Sends a prompt (with attachments) in the open chat. Returns false when a turn is still running. */
  async send(prompt: string, attachments: Attachment[] = []): Promise<boolean> {
    const text = prompt.trim();
    if (!text || this.state.running) return false;
    this.lastPrompt = text;
    this.lastAttachments = attachments;
    this.sendError = '';
    const local = `local-${++this.localSeq}`;
    beginTurn(this.state, local, text);
    this.lock(local);
    const s = this.state;
    try {
      const turnId = await api.send({
        workspaceId: s.workspaceId,
        sessionId: s.sessionId,
        cwd: s.cwd,
        prompt: text,
        model: this.modelStore.model,
        effort: this.modelStore.effort,
        ...(attachments.length ? { attachments } : {}),
      });
      if (this.state !== s) return true; // the user switched chats meanwhile
      for (const it of s.items) if (it.turnId === local) it.turnId = turnId;
      if (s.replayTurn === local) s.replayTurn = turnId;
      if (s.replayCandidate === local) s.replayCandidate = turnId;
      s.turnId = turnId;
      this.turns.add(turnId);
      this.lock(turnId);
      this.flush(turnId);
      return true;
    } catch (e) {
      this.sendError = api.errorMessage(e);
      applyEvent(s, local, { type: 'error', code: 'rpc', text: this.sendError });
      this.unlockIfIdle();
      return false;
    }
  }

  retry(): Promise<boolean> {
    return this.send(this.lastPrompt, this.lastAttachments);
  }

  /**
   * Signs in with one of the agent's methods after "authentication
   * required" (apiKey for a key method); Go retries the interrupted turn,
   * which this chat then follows. Resolves to whether a turn was retried;
   * rejects with Go's message.
   */
  async signIn(turnId: string, methodId: string, apiKey = ''): Promise<boolean> {
    const s = this.state;
    const res = await api.signIn({ turnId, methodId, apiKey, cwd: s.cwd });
    // Nothing retried (e.g. the turn is from before a restart): the user sends again.
    if (this.state !== s || !res.turnId) return false;
    beginTurn(s, res.turnId, null);
    this.turns.add(res.turnId);
    this.lock(res.turnId);
    this.flush(res.turnId);
    return true;
  }

  /**
   * Changes a session setting. The value shows at once; Go applies it live
   * or with the next message, and the agent's answer replaces the list.
   */
  async setOption(configId: string, value: OptionValue): Promise<void> {
    const s = this.state;
    const before = $state.snapshot(s.configOptions);
    const opt = s.configOptions.find((o) => o.id === configId);
    if (opt) opt.currentValue = value;
    // The model menu sends model and effort with every message: keep it in step.
    if (opt?.category === 'model' && typeof value === 'string') this.modelStore.select(value);
    if (opt?.category === 'thought_level' && typeof value === 'string') this.modelStore.setEffort(value);
    else if (configId === 'mode' && s.modes && typeof value === 'string') s.modes.current = value;
    this.optionError = '';
    try {
      const res = await api.setSessionOption({ workspaceId: s.workspaceId, sessionId: s.sessionId, configId, value });
      if (this.state === s && res.applied && Array.isArray(res.configOptions)) s.configOptions = res.configOptions as unknown as typeof s.configOptions;
    } catch (e) {
      if (this.state !== s) return;
      s.configOptions = before as typeof s.configOptions;
      this.optionError = api.errorMessage(e);
    }
  }

  async cancel(): Promise<void> {
    const id = this.state.turnId;
    if (!this.state.running || !id || id.startsWith('local-')) return;
    try {
      await api.cancel(id);
    } catch (e) {
      this.sendError = api.errorMessage(e);
    }
  }

  /** The user's answer in the permission dialog; null cancels the request. */
  async answerPermission(requestId: string, option: PermissionOption | null): Promise<void> {
    await this.run(answerReducer(this.state, requestId, option));
  }

  /** Applies one batch of events from Go. */
  receive(batch: TurnBatch): void {
    if (!this.turns.has(batch.turnId)) {
      this.hold(batch);
      return;
    }
    this.applyAll(batch.turnId, batch.events);
  }

  private applyAll(turnId: string, events: ChatEvent[]): void {
    const effects: AnswerEffect[] = [];
    for (const ev of events) effects.push(...applyEvent(this.state, turnId, ev));
    if (effects.length) void this.run(effects);
    this.unlockIfIdle();
  }

  private async run(effects: AnswerEffect[]): Promise<void> {
    for (const e of effects) {
      try {
        await api.answerPermission(e.turnId, e.requestId, e.optionId);
      } catch (err) {
        this.sendError = api.errorMessage(err);
      }
    }
  }

  private hold(batch: TurnBatch): void {
    let list = this.buffer.get(batch.turnId);
    if (!list) {
      if (this.buffer.size >= maxBufferedTurns) {
        const [oldest, evs] = this.buffer.entries().next().value as [string, ChatEvent[]];
        this.buffered -= evs.length;
        this.buffer.delete(oldest);
      }
      list = [];
      this.buffer.set(batch.turnId, list);
    }
    if (this.buffered + batch.events.length > maxBufferedEvents) return;
    list.push(...batch.events);
    this.buffered += batch.events.length;
  }

  private flush(turnId: string): void {
    const list = this.buffer.get(turnId);
    if (!list) return;
    this.buffer.delete(turnId);
    this.buffered -= list.length;
    this.applyAll(turnId, list);
  }

  private lock(turnId: string): void {
    if (this.lockedTurn) {
      this.lockedTurn = turnId;
      return;
    }
    this.lockedTurn = turnId;
    this.modelStore.begin('turn');
  }

  private unlockIfIdle(): void {
    if (this.lockedTurn && !this.state.running) {
      this.lockedTurn = '';
      this.modelStore.end('turn');
    }
  }
}

export const chat = new ChatStore();
