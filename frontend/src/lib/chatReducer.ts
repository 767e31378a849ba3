// The per-chat event reducer: folds the typed turn events from Go (core/chat
// Event) into what the chat view shows. Plain TypeScript so it is tested
// without a DOM; the chat store runs it on a reactive $state object.
import type { AgentStatus, AuthMethod, ChatEvent, OptionValue, PermissionOption, PromptCapabilities, SessionMode, SlashCommand, TranscriptMessage } from './types';

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
  terminal: string;
  exitCode: number | null;
  /** How a permission request for this call was settled, e.g. "allow_once" or "auto:allow_always". */
  decision: string;
  /** The context window as reported when the call completed (what a compaction left). */
  usageAfter?: Usage | null;
}

export interface PlanEntry {
  content: string;
  priority?: string;
  status: string;
}

/** history: from an earlier visit (the rollout, or the agent's replay), above this run's turns. */
type Base = { id: number; turnId: string; history?: boolean };

export type ChatItem =
  | (Base & { kind: 'user'; text: string })
  | (Base & { kind: 'assistant'; text: string })
  | (Base & { kind: 'thought'; text: string })
  | (Base & { kind: 'tool'; toolCallId: string })
  | (Base & { kind: 'plan'; entries: PlanEntry[] })
  | (Base & { kind: 'error'; code: string; text: string; stderr: string[]; agent: string; server?: string; status?: AgentStatus | null; open?: boolean })
  | (Base & { kind: 'warning'; text: string })
  | (Base & { kind: 'auth'; text: string; methods: AuthMethod[] })
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
  options: PermissionOption[];
}

export interface Usage {
  used: number;
  size: number;
  cost?: { amount: number; currency: string } | null;
}

export interface ConfigOption {
  id: string;
  name?: string;
  description?: string;
  category?: string;
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
}

export interface ChatState {
  sessionId: string;
  workspaceId: string;
  cwd: string;
  title: string;
  agentName: string;
  items: ChatItem[];
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
  commands: SlashCommand[];
  /** The session's modes, for agents that offer modes (used when no config option covers them). */
  modes: { current: string; available: SessionMode[] } | null;
  /** What the agent takes in a prompt (from its initialize); null until a turn ran. */
  capabilities: PromptCapabilities | null;
  turnId: string;
  running: boolean;
  stopReason: string;
  /** The chat is being opened on its agent (OpenChat), no prompt yet. */
  opening: boolean;
  openTurn: string;
  /** The agent's latest word on the running turn (e.g. reconnecting). */
  status: AgentStatus | null;
  /** When the running turn began, and when its last event arrived (ms). */
  startedAt: number;
  lastEventAt: number;
  history: HistoryState;
  /** Per session: tool kind → the "always" option kind the user chose for it. */
  always: Record<string, Record<string, string>>;
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
    running: false,
    stopReason: '',
    opening: false,
    openTurn: '',
    status: null,
    startedAt: 0,
    lastEventAt: 0,
    history: { source: '', offset: 0, loading: false, error: '', replayDone: false, hadTurn: false },
    always: {},
    nextId: 1,
  };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Where new items go: history above everything of this run, the rest at the end. */
function insertIndex(s: ChatState, history: boolean): number {
  if (!history) return s.items.length;
  const i = s.items.findIndex((it) => !it.history);
  return i < 0 ? s.items.length : i;
}

type NewItem = ChatItem extends infer T ? (T extends ChatItem ? Omit<T, 'id'> : never) : never;

function push(s: ChatState, item: NewItem): ChatItem {
  const it = { ...item, id: s.nextId++ } as ChatItem;
  const at = insertIndex(s, !!item.history);
  s.items.splice(at, 0, it);
  return s.items[at];
}

/** Appends a streamed chunk to the open item of that kind, or starts one. */
function appendChunk(s: ChatState, kind: 'user' | 'assistant' | 'thought', turnId: string, text: string, history = false): void {
  const last = s.items[insertIndex(s, history) - 1];
  if (last && last.kind === kind && last.turnId === turnId && !!last.history === history) {
    last.text += text;
    return;
  }
  push(s, { kind, turnId, text, ...(history ? { history } : {}) });
}

function terminalText(meta: unknown): { append: string; replace?: string; exit?: number | null } {
  const out: { append: string; replace?: string; exit?: number | null } = { append: '' };
  if (!isObj(meta)) return out;
  const delta = meta.terminal_output_delta;
  if (isObj(delta)) out.append += str(delta.data);
  const full = meta.terminal_output;
  if (typeof full === 'string') out.replace = full;
  else if (isObj(full) && typeof full.data === 'string') out.replace = full.data;
  else if (isObj(full) && typeof full.output === 'string') out.replace = full.output;
  const exit = meta.terminal_exit;
  if (isObj(exit) && (typeof exit.exit_code === 'number' || exit.exit_code === null)) out.exit = exit.exit_code as number | null;
  return out;
}

function contentList(v: unknown): ToolContent[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: ToolContent[] = [];
  for (const c of v) {
    if (!isObj(c)) continue;
    const type = str(c.type);
    if (type === 'content' && isObj(c.content)) {
      // ACP wraps plain blocks: {type:"content", content:{type:"text", text}}
      out.push({ type: 'text', text: str(c.content.text) });
    } else if (type === 'diff') {
      out.push({ type, path: str(c.path), oldText: (c.oldText as string | null) ?? null, newText: (c.newText as string | null) ?? null });
    } else if (type === 'terminal') {
      out.push({ type, terminalId: str(c.terminalId) });
    } else if (type) {
      out.push({ type, text: str(c.text) });
    }
  }
  return out;
}

function ensureTool(s: ChatState, id: string, turnId: string, history = false): ToolCallView {
  let t = s.tools[id];
  if (!t) {
    s.tools[id] = {
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
    push(s, { kind: 'tool', turnId, toolCallId: id, ...(history ? { history } : {}) });
    t = s.tools[id];
  }
  return t;
}

/** Merges a tool_call or tool_call_update object: fields present win, absent ones stay. */
function mergeTool(s: ChatState, turnId: string, u: Obj, history = false): void {
  const id = str(u.toolCallId);
  if (!id) return;
  const t = ensureTool(s, id, turnId, history);
  if (typeof u.title === 'string' && u.title) t.title = u.title;
  if (typeof u.kind === 'string' && u.kind) t.kind = u.kind;
  if (typeof u.status === 'string' && u.status) {
    if (u.status === 'completed' && t.status !== 'completed') t.usageAfter = s.usage ? { ...s.usage } : null;
    t.status = u.status;
  }
  const content = contentList(u.content);
  if (content) t.content = content;
  if (Array.isArray(u.locations)) {
    t.locations = u.locations.filter(isObj).map((l) => ({ path: str(l.path), line: typeof l.line === 'number' ? l.line : undefined }));
  }
  if (u.rawInput !== undefined && u.rawInput !== null) t.rawInput = u.rawInput;
  if (u.rawOutput !== undefined && u.rawOutput !== null) {
    t.rawOutput = u.rawOutput;
    // The Rust adapter reports shell output only in rawOutput.
    if (isObj(u.rawOutput) && !t.terminal) {
      const o = u.rawOutput;
      const text = str(o.formatted_output) || str(o.aggregated_output) || str(o.stdout);
      if (text && t.kind === 'execute') t.terminal = text;
      if (typeof o.exit_code === 'number' && t.kind === 'execute') t.exitCode = o.exit_code;
    }
  }
  const term = terminalText(u._meta);
  if (term.replace !== undefined) t.terminal = term.replace;
  if (term.append) t.terminal += term.append;
  if (term.exit !== undefined) t.exitCode = term.exit;
}

function authMethods(v: unknown): AuthMethod[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObj).filter((m) => str(m.id)).map((m) => ({ id: str(m.id), name: str(m.name) || str(m.id), description: str(m.description) || null }));
}

function toolKindOf(s: ChatState, toolCall: Obj | null): string {
  if (toolCall && typeof toolCall.kind === 'string' && toolCall.kind) return toolCall.kind;
  const id = toolCall ? str(toolCall.toolCallId) : '';
  return (id && s.tools[id]?.kind) || 'other';
}

function sessionKey(s: ChatState, ev: ChatEvent): string {
  return ev.sessionId || s.sessionId || '';
}

/** Chooses the option for a remembered "always" answer, or undefined. */
function rememberedOption(s: ChatState, sid: string, toolKind: string, options: PermissionOption[]): PermissionOption | undefined {
  const kind = s.always[sid]?.[toolKind];
  if (!kind) return undefined;
  return options.find((o) => o.kind === kind);
}

/**
 * The agent's replay of the session's history (session/load) is shown once,
 * when nothing else shows that history: not when Codex's rollout does, not
 * a second time after a reconnect, not once a turn of this run finished.
 */
function takesReplay(s: ChatState): boolean {
  return s.history.source !== 'rollout' && !s.history.replayDone && !s.history.hadTurn;
}

function applyReplay(s: ChatState, tid: string, ev: ChatEvent, u: Obj | null): void {
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
      if (ev.text) appendChunk(s, 'user', tid, ev.text, true);
      break;
    case 'tool_call':
    case 'tool_call_update':
      if (u) mergeTool(s, tid, u, true);
      break;
    case 'session_info':
      if (u && typeof u.title === 'string' && u.title) s.title = u.title;
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

const clearsStatus = new Set(['text', 'thought', 'tool_call', 'tool_call_update', 'plan', 'permission']);

/**
 * Applies one event to the state. Returns the permission answers to send
 * (remembered "always" choices answered without asking again). now stamps
 * the running turn's last activity.
 */
export function applyEvent(s: ChatState, turnId: string, ev: ChatEvent, now = Date.now()): AnswerEffect[] {
  const tid = ev.turnId || turnId;
  const u = isObj(ev.update) ? ev.update : null;
  if (tid === s.turnId || tid === s.openTurn) s.lastEventAt = now;
  if (ev.replay) {
    applyReplay(s, tid, ev, u);
    return [];
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
      if (u) mergeTool(s, tid, u);
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
      const entries: PlanEntry[] = u && Array.isArray(u.entries)
        ? u.entries.filter(isObj).map((e) => ({ content: str(e.content), priority: str(e.priority) || undefined, status: str(e.status) || 'pending' }))
        : [];
      // A plan update replaces the whole plan (ACP); keep one plan per turn.
      const existing = s.items.find((it) => it.kind === 'plan' && it.turnId === tid);
      if (existing && existing.kind === 'plan') existing.entries = entries;
      else push(s, { kind: 'plan', turnId: tid, entries });
      break;
    }
    case 'usage':
      if (u && typeof u.used === 'number' && typeof u.size === 'number') {
        const cost = isObj(u.cost) && typeof u.cost.amount === 'number' ? { amount: u.cost.amount, currency: str(u.cost.currency) } : null;
        s.usage = { used: u.used, size: u.size, cost };
      }
      break;
    case 'permission': {
      const p = ev.permission;
      if (!p || !p.requestId) break;
      const toolCall = isObj(p.toolCall) ? p.toolCall : null;
      const options = Array.isArray(p.options) ? p.options : [];
      const toolCallId = toolCall ? str(toolCall.toolCallId) : '';
      // The Rust adapter asks before it announces the tool call: show a card now.
      if (toolCall && toolCallId) mergeTool(s, tid, { ...toolCall, status: str(toolCall.status) || 'pending' });
      const sid = sessionKey(s, ev);
      const toolKind = toolKindOf(s, toolCall);
      const auto = rememberedOption(s, sid, toolKind, options);
      if (auto) {
        if (toolCallId && s.tools[toolCallId]) s.tools[toolCallId].decision = 'auto:' + auto.kind;
        return [{ turnId: tid, requestId: p.requestId, optionId: auto.optionId }];
      }
      s.pending.push({
        turnId: tid,
        sessionId: sid,
        requestId: p.requestId,
        toolCallId,
        toolKind,
        title: (toolCall && str(toolCall.title)) || (toolCallId && s.tools[toolCallId]?.title) || '',
        options,
      });
      break;
    }
    case 'error':
      // The sign-in box already explains an auth failure and offers the way out.
      if (ev.code === 'auth' && s.items.some((it) => it.kind === 'auth' && it.turnId === tid)) {
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
      if (ev.text) push(s, { kind: 'warning', turnId: tid, text: ev.text });
      break;
    case 'auth_required':
      push(s, { kind: 'auth', turnId: tid, text: ev.text ?? '', methods: authMethods(ev.authMethods) });
      break;
    case 'session':
      if (ev.sessionId) s.sessionId = ev.sessionId;
      if (u) setSession(s, u);
      break;
    case 'mode':
      if (u && s.modes && typeof u.currentModeId === 'string') {
        s.modes.current = u.currentModeId;
        s.optionsSource = 'live';
      }
      break;
    case 'agent': {
      const caps = u && isObj(u.agentCapabilities) && isObj(u.agentCapabilities.promptCapabilities) ? u.agentCapabilities.promptCapabilities : null;
      s.capabilities = { image: caps?.image === true, audio: caps?.audio === true, embeddedContext: caps?.embeddedContext === true };
      break;
    }
    case 'config_options':
      if (u && Array.isArray(u.configOptions)) {
        s.configOptions = u.configOptions.filter(isObj) as unknown as ConfigOption[];
        s.optionsSource = 'live';
        prunePending(s);
      }
      break;
    case 'commands':
      if (u && Array.isArray(u.availableCommands)) {
        s.commands = u.availableCommands
          .filter(isObj)
          .map((c) => ({ name: str(c.name), description: str(c.description) || undefined, hint: (isObj(c.input) && str(c.input.hint)) || undefined }))
          .filter((c) => c.name);
      }
      break;
    case 'session_info':
      if (u && typeof u.title === 'string' && u.title) s.title = u.title;
      break;
    case 'install': {
      const p = ev.install;
      if (!p) break;
      let it = s.items.find((x): x is InstallItem => x.kind === 'install' && x.turnId === tid);
      if (!it) it = push(s, { kind: 'install', turnId: tid, pkg: '', phase: '', done: 0, total: 0, ended: '' }) as InstallItem;
      it.pkg = str(p.package);
      it.phase = str(p.phase);
      // Go only reports growing counts; batches are put in order, so keep the larger.
      it.done = Math.max(it.done, typeof p.done === 'number' ? p.done : 0);
      it.total = Math.max(it.total, typeof p.total === 'number' ? p.total : 0);
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
    default:
      // "update" (a session/update variant this app does not know) and any
      // future event type: nothing to show, and nothing must break.
      break;
  }
  return [];
}

/** Takes a session setup (session/new|load|resume result as the agent holds it now). */
export function setSession(s: ChatState, u: Obj): void {
  if (Array.isArray(u.configOptions)) {
    s.configOptions = u.configOptions.filter(isObj) as unknown as ConfigOption[];
    s.optionsSource = 'live';
  }
  if (isObj(u.modes) && Array.isArray(u.modes.availableModes)) {
    s.modes = {
      current: str(u.modes.currentModeId),
      available: u.modes.availableModes.filter(isObj).map((m) => ({ id: str(m.id), name: str(m.name) || str(m.id), description: str(m.description) || undefined })),
    };
    s.optionsSource = 'live';
  }
  prunePending(s);
}

function finishTurn(s: ChatState, tid: string): void {
  for (const it of s.items) if (it.kind === 'install' && it.turnId === tid && !it.ended) it.ended = 'stopped';
  // The agent no longer waits on this turn's questions.
  s.pending = s.pending.filter((p) => p.turnId !== tid);
  if (tid === s.openTurn) {
    // Failed (no ready): a later opening may still bring the replay.
    s.opening = false;
    s.openTurn = '';
    return;
  }
  if (s.turnId === tid || !s.turnId) {
    s.running = false;
    s.status = null;
    // What was pending went with this turn (applied, or refused and said so).
    s.pendingOptions = {};
  }
}

/**
 * Records the user's answer to a pending request. An allow_always /
 * reject_always choice is remembered for the tool kind in this session, and
 * other queued requests it now covers are answered too.
 */
export function answer(s: ChatState, requestId: string, option: PermissionOption | null): AnswerEffect[] {
  const idx = s.pending.findIndex((p) => p.requestId === requestId);
  if (idx < 0) return [];
  const p = s.pending[idx];
  s.pending.splice(idx, 1);
  const effects: AnswerEffect[] = [{ turnId: p.turnId, requestId: p.requestId, optionId: option?.optionId ?? '' }];
  if (p.toolCallId && s.tools[p.toolCallId]) s.tools[p.toolCallId].decision = option?.kind ?? 'cancelled';
  if (option && (option.kind === 'allow_always' || option.kind === 'reject_always')) {
    (s.always[p.sessionId] ??= {})[p.toolKind] = option.kind;
    for (const q of [...s.pending]) {
      const auto = q.sessionId === p.sessionId && q.toolKind === p.toolKind ? rememberedOption(s, q.sessionId, q.toolKind, q.options) : undefined;
      if (!auto) continue;
      s.pending.splice(s.pending.indexOf(q), 1);
      if (q.toolCallId && s.tools[q.toolCallId]) s.tools[q.toolCallId].decision = 'auto:' + auto.kind;
      effects.push({ turnId: q.turnId, requestId: q.requestId, optionId: auto.optionId });
    }
  }
  return effects;
}

/** Marks the start of a turn the user just sent. */
export function beginTurn(s: ChatState, turnId: string, prompt: string | null, now = Date.now()): void {
  s.turnId = turnId;
  s.running = true;
  s.stopReason = '';
  s.status = null;
  s.refusal = null;
  s.startedAt = now;
  s.lastEventAt = now;
  if (prompt !== null) push(s, { kind: 'user', turnId, text: prompt });
}

/** Marks the start of opening the chat on its agent (no prompt). */
export function beginOpen(s: ChatState, turnId: string): void {
  s.opening = true;
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
      s.tools[tcid] = {
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
      items.push({ kind: 'tool', id, turnId, toolCallId: tcid, history: true });
    }
  });
  s.items.splice(0, 0, ...items);
  s.history.offset = offset;
  s.history.source = 'rollout';
}
