// The open chats: the shown one (state) and those left running or kept
// open beside it. Each is opened on its agent, shows its history, sends
// prompts, folds its turns' events into its own state (chatReducer.ts),
// answers permission requests, changes its session settings, cancels.
// Leaving a chat never stops its turn: it streams on in the background and
// its end is announced.
import * as api from '../api';
import {
  answer as answerReducer,
  applyEvent,
  beginOpen,
  beginTurn,
  endOpening,
  findInTurn,
  isOpening,
  isRunning,
  newChatState,
  prependHistory,
  requestStop,
  setSession,
  startOpening,
  type AnswerEffect,
  type ChatState,
  type ConfigOption,
} from '../chatReducer';
import type { AgentCheck, Attachment, BarState, ChatEvent, OptionValue, PermissionOption, TurnBatch, TurnStarted } from '../types';
import { models, type ModelsStore } from './models.svelte';
import { chatTitle } from './names.svelte';

/**
 * A new turn's id, chosen here: the chat follows the turn under it from
 * before Go starts it, so no event can come for a turn it does not know.
 * prefix says what the turn does ('t' a message, 'open' an opening).
 */
export function newTurnId(prefix: string): string {
  const b = crypto.getRandomValues(new Uint8Array(8));
  return `${prefix}-${Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')}`;
}

/** Chats kept open besides the shown one; running chats always stay. */
export const maxOpenChats = 8;

/** How a turn that ran while its chat was not shown ended. */
export type Outcome = 'done' | 'failed' | 'stopped' | 'asking';

/** A background turn's end, announced once. */
export interface Announcement {
  id: number;
  title: string;
  workspaceId: string;
  sessionId: string;
  cwd: string;
  outcome: Outcome;
}

/** Messages of the chat's history loaded at a time. */
export const historyPage = 50;

export interface OpenArgs {
  workspaceId?: string;
  sessionId?: string;
  cwd?: string;
  title?: string;
  /** A new build's bar: what it asked for, shown until the agent reports. */
  bar?: BarState | null;
}

/** The bar's options from Go (app.BarState) as the chat holds them. */
export function barOptions(bar: BarState): ConfigOption[] {
  return (bar.options ?? []).filter((o) => o && typeof o.id === 'string') as ConfigOption[];
}

export class ChatStore {
  state = $state<ChatState>(newChatState());
  lastPrompt = $state('');
  sendError = $state('');
  optionError = $state('');
  /** The chat's agent cannot be started (checked when the chat opens). */
  agentProblem = $state<AgentCheck | null>(null);
  agentId = $state('');
  /** The open chats, the shown one included, oldest first. */
  chats = $state.raw<ChatState[]>([]);
  /** Chats whose turn ended while they were not shown, by chat, until shown. */
  outcomes = $state<Record<string, Outcome>>({});
  /** Background endings not yet dismissed. */
  announcements = $state<Announcement[]>([]);
  private announced = 0;
  private lastAttachments: Attachment[] = [];
  /** Each turn's chat, from before Go starts the turn. */
  private owner = new Map<string, ChatState>();
  /** Turns whose id Go has not been given yet: nothing to cancel there. */
  private unsent = new Set<string>();
  /** A sign-in's retried turn: it runs only once signed in, when its first events come. */
  private retried = new Set<string>();
  private unsubscribe: (() => void) | null = null;
  private lockedTurn = '';
  private opened: Promise<void> = Promise.resolve();
  private openDone: (() => void) | null = null;
  private historyReady: Promise<void> = Promise.resolve();

  constructor(
    private readonly modelStore: ModelsStore = models,
    private readonly newId: (prefix: string) => string = newTurnId,
  ) {}

  /** Starts listening for turn events; call once at app start. */
  start(): void {
    this.unsubscribe ??= api.onTurn((b) => this.receive(b));
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /**
   * Shows a chat. The same session keeps its transcript; another one starts
   * fresh: its bar from what was last known, its history, then the agent
   * opened so the bar goes live.
   */
  open(args: OpenArgs, made?: ChatState): void {
    const same = !made && matches(this.state, args);
    if (same) {
      if (args.cwd) this.state.cwd = args.cwd;
      if (args.workspaceId) this.state.workspaceId = args.workspaceId;
      return;
    }
    // Leaving never cancels: the chat stays open, its turn streams on.
    this.keep(this.state);
    const kept = made ? undefined : this.chats.find((c) => matches(c, args));
    this.settleOpen();
    this.opened = Promise.resolve();
    this.historyReady = Promise.resolve();
    this.sendError = '';
    this.optionError = '';
    this.agentProblem = null;
    this.agentId = '';
    if (kept) {
      this.state = kept;
      this.lastPrompt = [...kept.items].reverse().find((it) => it.kind === 'user')?.text ?? '';
      this.seen(kept);
      if (args.cwd) kept.cwd = args.cwd;
      void this.recheck(kept);
      return;
    }
    this.openDone?.();
    this.openDone = null;
    this.opened = Promise.resolve();
    this.historyReady = Promise.resolve();
    if (made) {
      // A build's chat, following its first turn already (startBuild).
      made.workspaceId = args.workspaceId ?? '';
      made.cwd = args.cwd ?? '';
      if (args.title) made.title = args.title;
    }
    this.state = made ?? newChatState(args);
    // The reactive proxy: what later comparisons (this.state === next) see.
    const next = this.state;
    this.keep(next);
    this.lastPrompt = '';
    if (args.bar) this.takeBar(next, args.bar, 'requested');
    if (args.sessionId) {
      startOpening(next);
      this.beginOpening();
      void this.loadBar(next);
      this.historyReady = this.loadHistory(next, -1);
    }
    void this.recheck(next);
  }

  /**
   * Adds s to the open chats (at the end; one already open keeps its place,
   * so the list does not reorder as the user moves between chats), closing
   * the oldest idle ones past maxOpenChats.
   */
  private keep(s: ChatState): void {
    if (!s.workspaceId && !s.sessionId) return;
    if (this.chats.includes(s)) return;
    let list = [...this.chats, s];
    while (list.length > maxOpenChats) {
      const idle = list.find((c) => c !== this.state && !isRunning(c) && !isOpening(c));
      if (!idle) break; // every one runs: none is closed under a turn
      list = list.filter((c) => c !== idle);
      for (const [id, c] of this.owner) if (c === idle) this.owner.delete(id);
      delete this.outcomes[chatKey(idle)];
    }
    this.chats = list;
  }

  /** Whether s is still open (shown, or kept beside it). */
  private alive(s: ChatState): boolean {
    return s === this.state || this.chats.includes(s);
  }

  /** s is shown: its background ending has been seen. */
  private seen(s: ChatState): void {
    delete this.outcomes[chatKey(s)];
    this.announcements = this.announcements.filter((a) => !matches(s, a));
  }

  dismiss(id: number): void {
    this.announcements = this.announcements.filter((a) => a.id !== id);
  }

  /** Whether any open chat runs a turn. */
  get anyRunning(): boolean {
    // A build's chat runs its first turn before it is shown (startBuild).
    return isRunning(this.state) || this.chats.some((c) => isRunning(c)) || [...this.owner.values()].some((c) => isRunning(c));
  }

  /**
   * Checks the chat's agent can be started (again, e.g. back from
   * Settings) and, for a saved chat not open yet, opens it.
   */
  async recheck(s: ChatState = this.state): Promise<void> {
    await this.checkAgent(s);
    if (this.state !== s) return;
    if (s.openTurn) return; // opening already
    if (!this.agentProblem && s.sessionId && s.optionsSource !== 'live') {
      await this.openOnAgent(s, this.openDone !== null);
      return;
    }
    endOpening(s);
    this.settleOpen();
  }

  private beginOpening(): void {
    this.settleOpen();
    this.opened = new Promise<void>((r) => (this.openDone = r));
  }

  private takeBar(s: ChatState, bar: BarState, source: ChatState['optionsSource']): void {
    s.agentName = bar.agentName || bar.agentId;
    this.agentId = bar.agentId;
    if (s.optionsSource === 'live') return; // the agent already answered
    s.configOptions = barOptions(bar);
    if (bar.modes) setSession(s, { modes: bar.modes });
    s.optionsSource = bar.known || source === 'requested' ? source : 'none';
  }

  private async loadBar(s: ChatState): Promise<void> {
    try {
      const bar = await api.sessionBar(s.workspaceId, s.sessionId);
      if (this.state === s) this.takeBar(s, bar, 'saved');
    } catch {
      // The bar fills in once the agent answers.
    }
  }

  private async checkAgent(s: ChatState): Promise<void> {
    if (this.state !== s) return;
    try {
      const c = await api.checkAgent(s.workspaceId, s.sessionId);
      if (this.state !== s) return;
      this.agentProblem = c.ok ? null : c;
      if (!s.agentName) s.agentName = c.agentName || c.agentId;
      this.agentId ||= c.agentId;
    } catch {
      // Sending reports the problem then.
    }
  }

  /** Opens the saved session on its agent: live settings, and the replay for agents without a rollout. */
  async openOnAgent(s: ChatState = this.state, prepared = false): Promise<void> {
    if (!s.sessionId || s.openTurn || isRunning(s) || (isOpening(s) && !prepared)) {
      if (prepared) {
        // A message went first: its turn opens the session itself.
        endOpening(s);
        this.settleOpen();
      }
      return;
    }
    if (!prepared) this.beginOpening();
    const id = this.newId('open');
    beginOpen(s, id);
    this.owner.set(id, s);
    try {
      await api.openChat({ turnId: id, workspaceId: s.workspaceId, sessionId: s.sessionId, cwd: s.cwd });
    } catch (e) {
      this.owner.delete(id);
      if (!this.alive(s)) return;
      s.openTurn = '';
      endOpening(s);
      applyEvent(s, 'open', { type: 'error', code: 'rpc', text: api.errorMessage(e) });
    } finally {
      if (!isOpening(s)) this.settleOpen();
    }
  }

  private settleOpen(): void {
    this.openDone?.();
    this.openDone = null;
  }

  /**
   * Loads up to historyPage messages before index before (-1: the newest)
   * from the chat's rollout. Without a rollout the agent's replay is the
   * history; that is no error.
   */
  async loadHistory(s: ChatState = this.state, before = s.history.offset): Promise<void> {
    if (!s.sessionId || s.history.loading || s.history.source === 'agent' || (before === 0 && s.history.source === 'rollout')) return;
    s.history.loading = true;
    s.history.error = '';
    try {
      const page = await api.chatHistory(s.sessionId, before, historyPage);
      if (!this.alive(s)) return;
      if (page.source === 'rollout') prependHistory(s, page.messages ?? [], page.offset);
      else if (!s.history.source) s.history.source = 'agent';
    } catch (e) {
      if (this.alive(s)) s.history.error = api.errorMessage(e);
    } finally {
      s.history.loading = false;
    }
  }

  /** Whether older messages can still be loaded. */
  get moreHistory(): boolean {
    return this.state.history.source === 'rollout' && this.state.history.offset > 0;
  }

  /** Resumes the chat in another folder (its own is gone). */
  async moveTo(cwd: string): Promise<void> {
    const s = this.state;
    s.cwd = cwd;
    s.items = s.items.filter((it) => !(it.kind === 'error' && it.open));
    await this.openOnAgent(s);
  }


  /**
   * Starts a New Build's first turn with start (Go's NewBuild under the
   * turn id given): the build's chat follows the turn from its first
   * event and is shown once Go has placed the build. Rejects with Go's
   * error; nothing is shown then.
   */
  async startBuild(prompt: string, bar: BarState | null, start: (turnId: string) => Promise<TurnStarted>): Promise<TurnStarted> {
    const turnId = this.newId('t');
    const s = $state(newChatState());
    beginTurn(s, turnId, prompt);
    this.owner.set(turnId, s);
    this.lock(turnId);
    let res: TurnStarted;
    try {
      res = await start(turnId);
    } catch (e) {
      this.owner.delete(turnId);
      this.unlockIfIdle();
      throw e;
    }
    this.open({ workspaceId: res.workspaceId, cwd: res.cwd, bar }, s);
    this.lastPrompt = prompt;
    return res;
  }

  /**
   * Sends a prompt (with attachments) in the open chat; while the chat is
   * still opening, it goes once the agent is ready. Returns false when a
   * turn is still running.
   */
  async send(prompt: string, attachments: Attachment[] = []): Promise<boolean> {
    const text = prompt.trim();
    if (!text || isRunning(this.state)) return false;
    this.lastPrompt = text;
    this.lastAttachments = attachments;
    this.sendError = '';
    const turnId = this.newId('t');
    const s = this.state;
    beginTurn(s, turnId, text);
    this.owner.set(turnId, s);
    this.unsent.add(turnId);
    this.lock(turnId);
    // History first (it goes above), and the agent opened, so the turn
    // reuses that connection.
    if (s.history.loading) await this.historyReady;
    if (this.openDone) await this.opened;
    if (!this.alive(s)) {
      // Closed meanwhile: the message never left.
      this.owner.delete(turnId);
      this.unsent.delete(turnId);
      this.unlockIfIdle();
      return true;
    }
    try {
      const sent = api.send({
        turnId,
        workspaceId: s.workspaceId,
        sessionId: s.sessionId,
        cwd: s.cwd,
        prompt: text,
        ...(attachments.length ? { attachments } : {}),
      });
      // Go knows the turn from the call on: Stop may ask for it.
      this.unsent.delete(turnId);
      await sent;
      return true;
    } catch (e) {
      const msg = api.errorMessage(e);
      if (this.state === s) this.sendError = msg;
      applyEvent(s, turnId, { type: 'error', code: 'rpc', text: msg });
      this.owner.delete(turnId);
      this.unlockIfIdle();
      return false;
    } finally {
      this.unsent.delete(turnId);
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
    // The retried turn runs only once signed in (maybe minutes, in a
    // browser): the chat follows it from its first event, or from the
    // answer, whichever comes first.
    const retryTurnId = this.newId('t');
    this.owner.set(retryTurnId, s);
    this.retried.add(retryTurnId);
    let res;
    try {
      res = await api.signIn({ turnId, retryTurnId, methodId, apiKey, cwd: s.cwd });
    } catch (e) {
      this.forget(retryTurnId);
      throw e;
    }
    // Nothing retried (e.g. the turn is from before a restart): the user sends again.
    if (!this.alive(s) || res.turnId !== retryTurnId) {
      this.forget(retryTurnId);
      return false;
    }
    this.beginRetried(retryTurnId);
    return true;
  }

  private forget(turnId: string): void {
    this.retried.delete(turnId);
    this.owner.delete(turnId);
  }

  /** A sign-in's retried turn has started: its chat runs it. */
  private beginRetried(turnId: string): void {
    if (!this.retried.delete(turnId)) return;
    const s = this.owner.get(turnId);
    if (!s) return;
    beginTurn(s, turnId, null);
    this.lock(turnId);
  }

  /**
   * Changes a session setting of this chat. The bar shows what the agent
   * answers: its options when it took the change live, the old value and
   * its reason when it refused; with no live agent the value waits for the
   * next message and is marked so.
   */
  async setOption(configId: string, value: OptionValue): Promise<void> {
    const s = this.state;
    if (!s.sessionId || isRunning(s) || isOpening(s)) return;
    this.optionError = '';
    s.refusal = null;
    try {
      const res = await api.setSessionOption({ workspaceId: s.workspaceId, sessionId: s.sessionId, configId, value });
      if (this.state !== s) return;
      if (res.refused) {
        const o = s.configOptions.find((x) => x.id === res.refused!.configId);
        s.refusal = { configId: res.refused.configId, name: res.refused.name || o?.name || configId, value: res.refused.value, current: res.refused.current, reason: res.reason ?? '' };
      }
      if (Array.isArray(res.configOptions) && res.configOptions.length) {
        setSession(s, { configOptions: res.configOptions });
      }
      // An agent with modes but no mode option took session/set_mode: that
      // answer is its report.
      if (res.applied && configId === 'mode' && s.modes && typeof value === 'string' && !s.configOptions.some((o) => o.category === 'mode')) {
        s.modes.current = value;
      }
      if (!res.applied && !res.refused) s.pendingOptions = { ...(res.pending ?? { [configId]: value }) };
    } catch (e) {
      if (this.state === s) this.optionError = api.errorMessage(e);
    }
  }

  async cancel(): Promise<void> {
    const s = this.state;
    const id = s.turnId;
    if (!isRunning(s) || !id || this.unsent.has(id)) return;
    // Said at once: an agent that ignores session/cancel keeps the turn
    // for its grace (5 s) before its process group is ended (issue #36).
    if (!requestStop(s) && s.phase === 'stopping') return;
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

  /** Applies one batch of events from Go to the chat of its turn. */
  receive(batch: TurnBatch): void {
    // Every turn a chat follows was given its id here before it started;
    // others (a chat closed since) have nowhere to go.
    if (!this.owner.has(batch.turnId)) return;
    this.beginRetried(batch.turnId);
    this.applyAll(batch.turnId, batch.events ?? []);
  }

  private applyAll(turnId: string, events: ChatEvent[]): void {
    const s = this.owner.get(turnId);
    if (!s) return;
    const now = Date.now();
    const wasOpening = isOpening(s) && s.openTurn === turnId;
    const wasRunning = isRunning(s) && s.turnId === turnId;
    const asked = s.pending.length;
    for (const ev of events) applyEvent(s, turnId, ev, now);
    if (s === this.state && wasOpening && !isOpening(s)) this.settleOpen();
    if (s !== this.state) {
      if (wasRunning && !isRunning(s)) this.announce(s, turnId);
      else if (s.pending.length > asked) this.announce(s, turnId, 'asking'); // waits for the user
    }
    this.unlockIfIdle();
  }

  /** A turn ended while its chat was not shown: say how, once. */
  private announce(s: ChatState, turnId: string, how?: Outcome): void {
    const last = findInTurn(s, turnId, (it) => it.kind === 'error' || it.kind === 'auth' || it.kind === 'stopped');
    const outcome: Outcome = how ?? (!last ? 'done' : last.kind === 'stopped' ? 'stopped' : 'failed');
    this.outcomes[chatKey(s)] = outcome;
    const first = s.items.find((it) => it.kind === 'user' && !it.history);
    const title = chatTitle(s) || (first && 'text' in first ? first.text.slice(0, 60) : '');
    const a: Announcement = { id: ++this.announced, title, workspaceId: s.workspaceId, sessionId: s.sessionId, cwd: s.cwd, outcome };
    this.announcements = [...this.announcements.filter((x) => !matches(s, x)), a].slice(-maxOpenChats);
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

  private lock(turnId: string): void {
    if (this.lockedTurn) {
      this.lockedTurn = turnId;
      return;
    }
    this.lockedTurn = turnId;
    this.modelStore.begin('turn');
  }

  private unlockIfIdle(): void {
    if (this.lockedTurn && !this.anyRunning) {
      this.lockedTurn = '';
      this.modelStore.end('turn');
    }
  }
}

/** The key of a chat among the open ones: its build, else its session. */
export function chatKey(c: { workspaceId?: string; sessionId?: string }): string {
  return c.workspaceId ? `ws:${c.workspaceId}` : c.sessionId ? `s:${c.sessionId}` : '';
}

/** Whether chat c is the one args name (its session, else its build). */
function matches(c: ChatState, args: { workspaceId?: string; sessionId?: string }): boolean {
  if (args.sessionId) return args.sessionId === c.sessionId;
  return !!args.workspaceId && args.workspaceId === c.workspaceId;
}

export const chat = new ChatStore();
