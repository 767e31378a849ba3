// The per-chat event reducer: folds the typed turn events from Go (core/chat
// Event) into what the chat view shows. Plain TypeScript so it is tested
// without a DOM; the chat store runs it on a reactive $state object.
import type { AuthMethod, ChatEvent, Code, Command, Cost, OptionValue, PermissionOption, PlanEntry, PromptCapabilities, SessionMode, Status, Terminal, ToolCall, TranscriptMessage, UsageUpdate } from './types';

export type { PlanEntry };

export interface ToolContent {
  type: string;
  path?: string;
  oldText?: string | null;
  newText?: string | null;
  terminalId?: string;
  text?: string;
}

export interface ToolCallView {
  id: string;
  turnId: string;
  title: string;
  kind: string;
  status: string;
  content: ToolContent[];
  locations: { path: string; line?: number }[];
  rawInput?: unknown;
  rawOutput?: unknown;
  /** The command line it runs, as Go read it from the raw input. */
  command?: string;
  terminal: string;
  exitCode: number | null;
  /** How a permission request for this call was settled, e.g. "allow_once" or "auto:allow_always". */
  decision: string;
  /** The context window as reported when the call completed (what a compaction left). */
  usageAfter?: Usage | null;
}

/** history: from an earlier visit (the rollout, or the agent's replay), above this run's turns. */
type Base = { id: number; turnId: string; history?: boolean };

export type ChatItem =
  | (Base & { kind: 'user'; text: string })
  | (Base & { kind: 'assistant'; text: string })
  | (Base & { kind: 'thought'; text: string })
  | (Base & { kind: 'tool'; toolCallId: string; /** Its card in ChatState.tools (toolKey). */ key: string })
  | (Base & { kind: 'plan'; entries: PlanEntry[] })
  | (Base & { kind: 'error'; code: Code | ''; text: string; stderr: string[]; agent: string; server?: string; status?: Status | null; open?: boolean })
  | (Base & { kind: 'warning'; text: string; action?: string })
  | (Base & { kind: 'auth'; methods: AuthMethod[] })
  | (Base & { kind: 'stopped'; reason: string })
  | InstallItem;

/**
 * The first-run install of the agent before a turn: its latest progress;
 * ended says how it finished ('' while it runs, 'stopped' when the turn
 * ended before the install did: cancelled or failed).
 */
export interface InstallItem extends Base {
  kind: 'install';
  pkg: string;
  phase: string;
  done: number;
  total: number;
  ended: '' | 'done' | 'stopped';
}

export interface PendingPermission {
  turnId: string;
  sessionId: string;
  requestId: string;
  toolCallId: string;
  toolKind: string;
  title: string;
  /** The command line (or the paths) the tool call touches, as Go read it. */
  command: string;
  options: PermissionOption[];
}

export type Usage = Pick<UsageUpdate, 'used' | 'size'> & { cost?: Cost | null };
/**
 * A config option as the bar holds it: from the agent (the generated
 * ConfigOption is one), or saved / requested values; lenient, since saved
 * ones come from disk.
 */
export interface ConfigOption {
  id: string;
  name?: string;
  description?: string | null;
  category?: string | null;
  type?: string;
  currentValue?: unknown;
  options?: unknown[];
}

/** A setting the agent did not take: shown reverted, with its reason. */
export interface OptionRefusal {
  configId: string;
  name: string;
  value: unknown;
  current: unknown;
  reason: string;
}

export interface HistoryState {
  /** Where earlier turns come from: Codex's rollout, the agent's replay, or not known yet. */
  source: '' | 'rollout' | 'agent';
  /** Index of the oldest rollout message shown; 0 = everything is shown. */
  offset: number;
  loading: boolean;
  error: string;
  /** The agent's replay was taken (or cannot come any more): later replays are duplicates. */
  replayDone: boolean;
  /** A turn of this chat finished in this run: what a replay would bring is on screen already. */
  hadTurn: boolean;
  /** User messages the agent's replay brought so far: each begins one of its turns. */
  replayTurns: number;
}

/**
 * Where a chat is with its agent, one value where two flags were: idle;
 * opening (the saved session is being opened on its agent, no prompt
 * yet); running (a turn runs); queued (a message was sent while the chat
 * still opened: its turn runs, and goes to the agent once the open ends);
 * stopping (the user pressed Stop: the turn still runs until the agent ends
 * it or its grace runs out, and says so at once instead of looking busy).
 */
export type ChatPhase = 'idle' | 'opening' | 'running' | 'queued' | 'stopping';

/** Whether a turn runs (the spinner, the composer's Stop). */
export function isRunning(s: Pick<ChatState, 'phase'>): boolean {
  return s.phase === 'running' || s.phase === 'queued' || s.phase === 'stopping';
}

/** The user asked the running turn to stop; true when it was running. */
export function requestStop(s: Pick<ChatState, 'phase'>): boolean {
  if (s.phase !== 'running') return false;
  s.phase = 'stopping';
  return true;
}

/** Whether the chat is being opened on its agent. */
export function isOpening(s: Pick<ChatState, 'phase'>): boolean {
  return s.phase === 'opening' || s.phase === 'queued';
}

/** The chat starts opening on its agent (a running turn stays running). */
export function startOpening(s: Pick<ChatState, 'phase'>): void {
  if (s.phase === 'idle') s.phase = 'opening';
  else if (s.phase === 'running') s.phase = 'queued';
}

/** The opening ended (ready, failed, or not needed): a queued turn runs on. */
export function endOpening(s: Pick<ChatState, 'phase'>): void {
  if (s.phase === 'opening') s.phase = 'idle';
  else if (s.phase === 'queued') s.phase = 'running';
}

function startRunning(s: Pick<ChatState, 'phase'>): void {
  if (s.phase === 'idle') s.phase = 'running';
  else if (s.phase === 'opening') s.phase = 'queued';
}

function endRunning(s: Pick<ChatState, 'phase'>): void {
  if (s.phase === 'running' || s.phase === 'stopping') s.phase = 'idle';
  else if (s.phase === 'queued') s.phase = 'opening';
}

export interface ChatState {
  sessionId: string;
  workspaceId: string;
  cwd: string;
  title: string;
  agentName: string;
  items: ChatItem[];
  /** The tool cards by toolKey: a call id names a call only within its turn. */
  tools: Record<string, ToolCallView>;
  pending: PendingPermission[];
  usage: Usage | null;
  configOptions: ConfigOption[];
  /**
   * Where configOptions come from: the agent in this run (live), what it
   * reported last time (saved), the values a new build asked for
   * (requested), or nothing yet.
   */
  optionsSource: 'none' | 'saved' | 'requested' | 'live';
  /** Values chosen while no agent held the session: they go with the next message. */
  pendingOptions: Record<string, OptionValue>;
  refusal: OptionRefusal | null;
  commands: Command[];
  /** The session's modes, for agents that offer modes (used when no config option covers them). */
  modes: { current: string; available: SessionMode[] } | null;
  /** What the agent takes in a prompt (from its initialize); null until a turn ran. */
  capabilities: PromptCapabilities | null;
  turnId: string;
  /** Where the chat is with its agent (see ChatPhase). */
  phase: ChatPhase;
  stopReason: string;
  /** The turn opening the chat on its agent (OpenChat), '' when none is. */
  openTurn: string;
  /** The agent's latest word on the running turn (e.g. reconnecting). */
  status: Status | null;
  /** When the running turn began, and when its last event arrived (ms). */
  startedAt: number;
  lastEventAt: number;
  history: HistoryState;
  nextId: number;
}

/** A side effect the store must carry out: answer a permission request in Go. */
export interface AnswerEffect {
  turnId: string;
  requestId: string;
  optionId: string;
}

export function newChatState(init: Partial<Pick<ChatState, 'sessionId' | 'workspaceId' | 'cwd' | 'title'>> = {}): ChatState {
  return {
    sessionId: init.sessionId ?? '',
    workspaceId: init.workspaceId ?? '',
    cwd: init.cwd ?? '',
    title: init.title ?? '',
    agentName: '',
    items: [],
    tools: {},
    pending: [],
    usage: null,
    configOptions: [],
    optionsSource: 'none',
    pendingOptions: {},
    refusal: null,
    commands: [],
    modes: null,
    capabilities: null,
    turnId: '',
    phase: 'idle',
    stopReason: '',
    openTurn: '',
    status: null,
    startedAt: 0,
    lastEventAt: 0,
    history: { source: '', offset: 0, loading: false, error: '', replayDone: false, hadTurn: false, replayTurns: 0 },
    nextId: 1,
  };
}

/** Where new items go: history above everything of this run, the rest at the end. */
function insertIndex(s: ChatState, history: boolean): number {
  const n = s.items.length;
  // History sits above the rest, so a last item of history means all are:
  // a replay of 800 messages no longer scans the list for each chunk.
  if (!history || n === 0 || s.items[n - 1].history) return n;
  const i = s.items.findIndex((it) => !it.history);
  return i < 0 ? s.items.length : i;
}

/**
 * The items of turn tid, newest first, until fn returns true. A turn's
 * items are one run at the end of the list (one turn runs at a time), so
 * this stops where the run ends instead of walking a long history: every
 * event of a turn in a 400-turn chat walked all 800 items.
 */
export function findInTurn(s: ChatState, tid: string, fn: (it: ChatItem) => boolean): ChatItem | undefined {
  let seen = false;
  for (let i = s.items.length - 1; i >= 0; i--) {
    const it = s.items[i];
    if (it.turnId === tid) {
      seen = true;
      if (fn(it)) return it;
    } else if (seen) return undefined;
  }
  return undefined;
}

type NewItem = ChatItem extends infer T ? (T extends ChatItem ? Omit<T, 'id'> : never) : never;

function push(s: ChatState, item: NewItem): ChatItem {
  const it = { ...item, id: s.nextId++ } as ChatItem;
  const at = insertIndex(s, !!item.history);
  s.items.splice(at, 0, it);
  return s.items[at];
}

/** Appends a streamed chunk to the open item of that kind, or starts one (true). */
function appendChunk(s: ChatState, kind: 'user' | 'assistant' | 'thought', turnId: string, text: string, history = false): boolean {
  const last = s.items[insertIndex(s, history) - 1];
  if (last && last.kind === kind && last.turnId === turnId && !!last.history === history) {
    last.text += text;
    return false;
  }
  push(s, { kind, turnId, text, ...(history ? { history } : {}) });
  return true;
}

/**
 * Where a tool call's card is kept: agents number calls per turn (a later
 * turn may use an id again), so a card is its turn's call.
 */
export function toolKey(turnId: string, toolCallId: string): string {
  return `${turnId}\u0000${toolCallId}`;
}

/** The card of a turn's tool call, if it has one. */
export function toolOf(s: ChatState, turnId: string, toolCallId: string): ToolCallView | undefined {
  return s.tools[toolKey(turnId, toolCallId)];
}

/** The turn a replayed item belongs to: one of the agent's history turns within the opening turn. */
function replayScope(s: ChatState, tid: string): string {
  return `${tid}\u0001${s.history.replayTurns}`;
}

function contentList(v: ToolCall['content']): ToolContent[] {
  const out: ToolContent[] = [];
  for (const c of v ?? []) {
    if (c.type === 'content') {
      // ACP wraps plain blocks: {type:"content", content:{type:"text", text}}
      out.push({ type: 'text', text: c.content?.text ?? '' });
    } else if (c.type === 'diff') {
      out.push({ type: c.type, path: c.path ?? '', oldText: c.oldText ?? null, newText: c.newText ?? null });
    } else if (c.type === 'terminal') {
      out.push({ type: c.type, terminalId: c.terminalId ?? '' });
    } else if (c.type) {
      out.push({ type: c.type, text: '' });
    }
  }
  return out;
}

function ensureTool(s: ChatState, id: string, turnId: string, history: boolean, scope: string): ToolCallView {
  const key = toolKey(scope, id);
  let t = s.tools[key];
  if (!t) {
    s.tools[key] = {
      id,
      turnId,
      title: '',
      kind: 'other',
      status: 'pending',
      content: [],
      locations: [],
      terminal: '',
      exitCode: null,
      decision: '',
    };
    push(s, { kind: 'tool', turnId, toolCallId: id, key, ...(history ? { history } : {}) });
    t = s.tools[key];
  }
  return t;
}

/**
 * Merges a tool call (or its update, where absent fields stay) and what it
 * says of its command's output into its card in turn scope.
 */
function mergeTool(s: ChatState, turnId: string, u: ToolCall, term: Terminal | undefined, history = false, scope = turnId): ToolCallView | undefined {
  const id = u.toolCallId;
  if (!id) return undefined;
  const t = ensureTool(s, id, turnId, history, scope);
  if (u.title) t.title = u.title;
  if (u.kind) t.kind = u.kind;
  if (u.status) {
    if (u.status === 'completed' && t.status !== 'completed') t.usageAfter = s.usage ? { ...s.usage } : null;
    t.status = u.status;
  }
  if (u.content) t.content = contentList(u.content);
  if (u.locations) t.locations = u.locations.map((l) => ({ path: l.path, line: l.line }));
  if (u.rawInput !== undefined && u.rawInput !== null) t.rawInput = u.rawInput;
  if (u.rawOutput !== undefined && u.rawOutput !== null) t.rawOutput = u.rawOutput;
  if (!term) return t;
  if (term.late) {
    // The Rust adapter reports shell output only once, when it is done.
    if (t.terminal || t.kind !== 'execute') return t;
    if (term.output) t.terminal = term.output;
    if (term.exited) t.exitCode = term.exitCode ?? null;
    return t;
  }
  if (term.output !== undefined) t.terminal = term.output;
  if (term.append) t.terminal += term.append;
  if (term.exited) t.exitCode = term.exitCode ?? null;
  return t;
}

function sessionKey(s: ChatState, ev: ChatEvent): string {
  return ev.sessionId || s.sessionId || '';
}

/**
 * The agent's replay of the session's history (session/load) is shown once,
 * when nothing else shows that history: not when Codex's rollout does, not
 * a second time after a reconnect, not once a turn of this run finished.
 */
function takesReplay(s: ChatState): boolean {
  return s.history.source !== 'rollout' && !s.history.replayDone && !s.history.hadTurn;
}

function applyReplay(s: ChatState, tid: string, ev: ChatEvent): void {
  if (!takesReplay(s)) return;
  s.history.source = 'agent';
  switch (ev.type) {
    case 'text':
      if (ev.text) appendChunk(s, 'assistant', tid, ev.text, true);
      break;
    case 'thought':
      if (ev.text) appendChunk(s, 'thought', tid, ev.text, true);
      break;
    case 'user_text':
      // A new user message begins the next of the replayed turns.
      if (ev.text && appendChunk(s, 'user', tid, ev.text, true)) s.history.replayTurns++;
      break;
    case 'tool_call':
    case 'tool_call_update':
      if (ev.toolCall) mergeTool(s, tid, ev.toolCall, ev.terminal, true, replayScope(s, tid));
      break;
    case 'session_info':
      if (ev.info?.title) s.title = ev.info.title;
      break;
    default:
      break;
  }
}

/** Keeps only pending values the agent does not hold yet. */
function prunePending(s: ChatState): void {
  for (const [id, v] of Object.entries(s.pendingOptions)) {
    const o = s.configOptions.find((x) => x.id === id || x.category === id);
    if (o && o.currentValue === v) delete s.pendingOptions[id];
  }
}

const clearsStatus = new Set<string>(['text', 'thought', 'tool_call', 'tool_call_update', 'plan', 'permission', 'permission_answered']);

/**
 * Applies one event to the state. now stamps the running turn's last
 * activity.
 */
export function applyEvent(s: ChatState, turnId: string, ev: ChatEvent, now = Date.now()): void {
  const tid = ev.turnId || turnId;
  if (tid === s.turnId || tid === s.openTurn) s.lastEventAt = now;
  if (ev.replay) {
    applyReplay(s, tid, ev);
    return;
  }
  if (clearsStatus.has(ev.type) && tid === s.turnId) s.status = null;
  switch (ev.type) {
    case 'text':
      if (ev.text) appendChunk(s, 'assistant', tid, ev.text);
      break;
    case 'thought':
      if (ev.text) appendChunk(s, 'thought', tid, ev.text);
      break;
    case 'user_text':
      if (ev.text) appendChunk(s, 'user', tid, ev.text);
      break;
    case 'tool_call':
    case 'tool_call_update':
      if (ev.toolCall) {
        const t = mergeTool(s, tid, ev.toolCall, ev.terminal);
        if (t && ev.command) t.command = ev.command;
      }
      break;
    case 'status':
      if (ev.status && typeof ev.status.message === 'string') s.status = { ...ev.status };
      break;
    case 'option_refused': {
      const r = ev.refused;
      if (!r || !r.configId) break;
      const o = s.configOptions.find((x) => x.id === r.configId || x.category === r.configId);
      s.refusal = { configId: o?.id ?? r.configId, name: r.name || o?.name || r.configId, value: r.value, current: r.current ?? o?.currentValue, reason: ev.text ?? '' };
      delete s.pendingOptions[r.configId];
      if (o) delete s.pendingOptions[o.id];
      break;
    }
    case 'ready':
      if (ev.sessionId) s.sessionId = ev.sessionId;
      // A replay comes while the session opens, or not at all.
      if (tid === s.openTurn) s.history.replayDone = true;
      finishTurn(s, tid);
      break;
    case 'plan': {
      const entries: PlanEntry[] = (ev.plan?.entries ?? []).map((e) => ({ ...e, status: e.status || 'pending' }));
      // A plan update replaces the whole plan (ACP); keep one plan per turn.
      const existing = findInTurn(s, tid, (it) => it.kind === 'plan');
      if (existing && existing.kind === 'plan') existing.entries = entries;
      else push(s, { kind: 'plan', turnId: tid, entries });
      break;
    }
    case 'usage':
      if (ev.usage) s.usage = { used: ev.usage.used, size: ev.usage.size, cost: ev.usage.cost ?? null };
      break;
    case 'permission': {
      const p = ev.permission;
      if (!p || !p.requestId) break;
      const toolCall = p.toolCall;
      const toolCallId = toolCall?.toolCallId ?? '';
      // The Rust adapter asks before it announces the tool call: show a card now.
      if (toolCall && toolCallId) mergeTool(s, tid, { ...toolCall, status: toolCall.status || 'pending' }, undefined);
      const tool = toolCallId ? toolOf(s, tid, toolCallId) : undefined;
      s.pending.push({
        turnId: tid,
        sessionId: sessionKey(s, ev),
        requestId: p.requestId,
        toolCallId,
        toolKind: toolCall?.kind || tool?.kind || 'other',
        title: toolCall?.title || tool?.title || '',
        command: p.command || tool?.command || tool?.locations.map((l) => l.path).join('\n') || '',
        options: p.options ?? [],
      });
      break;
    }
    case 'permission_answered': {
      // How Go answered: the user's choice, or an earlier "always" of the
      // user for this kind of tool (remembered, nobody was asked).
      const a = ev.answer;
      if (!a) break;
      const toolCall = ev.permission?.toolCall;
      if (toolCall?.toolCallId) mergeTool(s, tid, { ...toolCall, status: toolCall.status || 'pending' }, undefined);
      const id = toolCall?.toolCallId || s.pending.find((p) => p.requestId === a.requestId)?.toolCallId || '';
      const tool = id ? toolOf(s, tid, id) : undefined;
      if (tool) tool.decision = a.optionId ? (a.remembered ? 'auto:' : '') + (a.kind ?? '') : 'cancelled';
      s.pending = s.pending.filter((p) => p.requestId !== a.requestId);
      break;
    }
    case 'error':
      // The sign-in box already explains an auth failure and offers the way out.
      if (ev.code === 'auth' && findInTurn(s, tid, (it) => it.kind === 'auth')) {
        finishTurn(s, tid);
        break;
      }
      push(s, {
        kind: 'error',
        turnId: tid,
        code: ev.code ?? '',
        text: ev.text ?? '',
        stderr: Array.isArray(ev.stderr) ? ev.stderr : [],
        agent: ev.agent ?? '',
        ...(ev.server ? { server: ev.server } : {}),
        ...(ev.status ? { status: ev.status } : {}),
        ...(tid === s.openTurn ? { open: true } : {}),
      });
      finishTurn(s, tid);
      break;
    case 'warning':
      if (ev.text) push(s, { kind: 'warning', turnId: tid, text: ev.text, ...(ev.action ? { action: ev.action } : {}) });
      break;
    case 'auth_required':
      // Go's auth_required names the methods only: AuthBox words the ask.
      push(s, { kind: 'auth', turnId: tid, methods: ev.authMethods ?? [] });
      break;
    case 'session':
      if (ev.sessionId) s.sessionId = ev.sessionId;
      // The whole state the agent holds now: a value shown before it
      // answered (Codex's configuration, a saved report) that it does not
      // report goes.
      if (ev.setup) setSession(s, { configOptions: ev.setup.configOptions ?? [], modes: ev.setup.modes ?? null }, true);
      break;
    case 'mode':
      if (ev.mode && s.modes) {
        s.modes.current = ev.mode;
        s.optionsSource = 'live';
      }
      break;
    case 'agent': {
      const caps = ev.capabilities;
      s.capabilities = { image: caps?.image === true, audio: caps?.audio === true, embeddedContext: caps?.embeddedContext === true };
      break;
    }
    case 'config_options':
      s.configOptions = ev.configOptions ?? [];
      s.optionsSource = 'live';
      prunePending(s);
      break;
    case 'commands':
      s.commands = ev.commands ?? [];
      break;
    case 'session_info':
      if (ev.info?.title) s.title = ev.info.title;
      break;
    case 'install': {
      const p = ev.install;
      if (!p) break;
      let it = findInTurn(s, tid, (x) => x.kind === 'install') as InstallItem | undefined;
      if (!it) it = push(s, { kind: 'install', turnId: tid, pkg: '', phase: '', done: 0, total: 0, ended: '' }) as InstallItem;
      it.pkg = p.package;
      it.phase = p.phase;
      // Go only reports growing counts; batches are put in order, so keep the larger.
      it.done = Math.max(it.done, p.done);
      it.total = Math.max(it.total, p.total);
      if (it.phase === 'done') it.ended = 'done';
      break;
    }
    case 'done':
      if (ev.sessionId) s.sessionId = ev.sessionId;
      s.stopReason = ev.stopReason ?? '';
      s.history.hadTurn = true;
      if (ev.stopReason && ev.stopReason !== 'end_turn') push(s, { kind: 'stopped', turnId: tid, reason: ev.stopReason });
      finishTurn(s, tid);
      break;
    default: {
      // "update": a session/update variant this app does not know, nothing
      // to show. A kind Go adds and this switch lacks fails to compile here.
      const unknownUpdate: 'update' = ev.type;
      void unknownUpdate;
      break;
    }
  }
}

/** A session's modes, as the agent reports them (or as they were saved). */
interface Modes {
  currentModeId: string;
  availableModes: { id: string; name: string; description?: string | null }[] | null;
}

/**
 * Takes a session setup: with whole, the session/new|load|resume result as
 * the agent holds it now (what it lacks is gone); else the parts given.
 */
export function setSession(s: ChatState, u: { configOptions?: ConfigOption[] | null; modes?: Modes | null }, whole = false): void {
  if (u.configOptions || whole) {
    s.configOptions = u.configOptions ?? [];
    s.optionsSource = 'live';
  }
  if (u.modes?.availableModes) {
    s.modes = {
      current: u.modes.currentModeId,
      available: u.modes.availableModes.map((m) => ({ id: m.id, name: m.name || m.id, description: m.description || undefined })),
    };
    s.optionsSource = 'live';
  } else if (whole) {
    s.modes = null;
  }
  prunePending(s);
}

function finishTurn(s: ChatState, tid: string): void {
  findInTurn(s, tid, (it) => {
    if (it.kind === 'install' && !it.ended) it.ended = 'stopped';
    return false;
  });
  // The agent no longer waits on this turn's questions.
  s.pending = s.pending.filter((p) => p.turnId !== tid);
  if (tid === s.openTurn) {
    // Failed (no ready): a later opening may still bring the replay.
    endOpening(s);
    s.openTurn = '';
    return;
  }
  if (s.turnId === tid || !s.turnId) {
    endRunning(s);
    s.status = null;
    // What was pending went with this turn (applied, or refused and said so).
    s.pendingOptions = {};
  }
}

/**
 * Records the user's answer to a pending request; Go remembers an "always"
 * and answers later requests it covers itself (permission_answered).
 */
export function answer(s: ChatState, requestId: string, option: PermissionOption | null): AnswerEffect[] {
  const idx = s.pending.findIndex((p) => p.requestId === requestId);
  if (idx < 0) return [];
  const p = s.pending[idx];
  s.pending.splice(idx, 1);
  const tool = p.toolCallId ? toolOf(s, p.turnId, p.toolCallId) : undefined;
  if (tool) tool.decision = option?.kind ?? 'cancelled';
  return [{ turnId: p.turnId, requestId: p.requestId, optionId: option?.optionId ?? '' }];
}

/** Marks the start of a turn the user just sent. */
export function beginTurn(s: ChatState, turnId: string, prompt: string | null, now = Date.now()): void {
  s.turnId = turnId;
  startRunning(s);
  s.stopReason = '';
  s.status = null;
  s.refusal = null;
  s.startedAt = now;
  s.lastEventAt = now;
  if (prompt !== null) push(s, { kind: 'user', turnId, text: prompt });
}

/** Marks the start of opening the chat on its agent (no prompt). */
export function beginOpen(s: ChatState, turnId: string): void {
  startOpening(s);
  s.openTurn = turnId;
}

/**
 * Puts older messages of the chat's rollout above everything shown, as
 * items of earlier turns. offset is the index of messages[0].
 */
export function prependHistory(s: ChatState, messages: TranscriptMessage[], offset: number): void {
  const items: ChatItem[] = [];
  messages.forEach((m, i) => {
    const id = s.nextId++;
    const turnId = 'history';
    if (m.role === 'user') items.push({ kind: 'user', id, turnId, text: m.text, history: true });
    else if (m.role === 'assistant') items.push({ kind: 'assistant', id, turnId, text: m.text, history: true });
    else if (m.role === 'tool') {
      const tcid = `history-${offset + i}`;
      const exit = typeof m.tool?.exitCode === 'number' ? m.tool.exitCode : null;
      const command = m.tool?.command || '';
      const key = toolKey(turnId, tcid);
      s.tools[key] = {
        id: tcid,
        turnId,
        title: command || m.tool?.name || m.text,
        kind: command ? 'execute' : 'other',
        status: exit !== null && exit !== 0 ? 'failed' : 'completed',
        content: [],
        locations: [],
        rawInput: command ? { command } : undefined,
        terminal: m.tool?.output || (command || m.tool?.name ? m.text : ''),
        exitCode: exit,
        decision: '',
      };
      items.push({ kind: 'tool', id, turnId, toolCallId: tcid, key, history: true });
    }
  });
  s.items.splice(0, 0, ...items);
  s.history.offset = offset;
  s.history.source = 'rollout';
}
