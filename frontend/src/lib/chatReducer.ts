// The per-chat event reducer: folds the typed turn events from Go (core/chat
// Event) into what the chat view shows. Plain TypeScript so it is tested
// without a DOM; the chat store runs it on a reactive $state object.
import type { AuthMethod, ChatEvent, PermissionOption, PromptCapabilities, SessionMode, SlashCommand } from './types';

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
}

export interface PlanEntry {
  content: string;
  priority?: string;
  status: string;
}

export type ChatItem =
  | { kind: 'user'; id: number; turnId: string; text: string }
  | { kind: 'assistant'; id: number; turnId: string; text: string }
  | { kind: 'thought'; id: number; turnId: string; text: string }
  | { kind: 'tool'; id: number; turnId: string; toolCallId: string }
  | { kind: 'plan'; id: number; turnId: string; entries: PlanEntry[] }
  | { kind: 'error'; id: number; turnId: string; code: string; text: string; stderr: string[]; agent: string }
  | { kind: 'warning'; id: number; turnId: string; text: string }
  | { kind: 'auth'; id: number; turnId: string; text: string; methods: AuthMethod[] }
  | { kind: 'stopped'; id: number; turnId: string; reason: string }
  | InstallItem;

/**
 * The first-run install of the agent before a turn: its latest progress;
 * ended says how it finished ('' while it runs, 'stopped' when the turn
 * ended before the install did: cancelled or failed).
 */
export interface InstallItem {
  kind: 'install';
  id: number;
  turnId: string;
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

export interface ChatState {
  sessionId: string;
  workspaceId: string;
  cwd: string;
  title: string;
  items: ChatItem[];
  tools: Record<string, ToolCallView>;
  pending: PendingPermission[];
  usage: Usage | null;
  configOptions: ConfigOption[];
  commands: SlashCommand[];
  /** The session's modes, for agents that offer modes (used when no config option covers them). */
  modes: { current: string; available: SessionMode[] } | null;
  /** What the agent takes in a prompt (from its initialize); null until a turn ran. */
  capabilities: PromptCapabilities | null;
  turnId: string;
  running: boolean;
  stopReason: string;
  /** Per session: tool kind → the "always" option kind the user chose for it. */
  always: Record<string, Record<string, string>>;
  nextId: number;
  /**
   * session/load replays history as ordinary updates before the answer. A
   * turn is a replay candidate until its first content event; if that is a
   * user_text, everything up to the `session` event is history (replayTurn)
   * and goes above the prompt the user just sent (promptItemId).
   */
  replayCandidate: string;
  replayTurn: string;
  promptItemId: number;
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
    items: [],
    tools: {},
    pending: [],
    usage: null,
    configOptions: [],
    commands: [],
    modes: null,
    capabilities: null,
    turnId: '',
    running: false,
    stopReason: '',
    always: {},
    nextId: 1,
    replayCandidate: '',
    replayTurn: '',
    promptItemId: 0,
  };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Where new items go. While session/load replays history (before the
 * `session` event of the turn), they go above the prompt the user just sent.
 */
function insertIndex(s: ChatState, turnId: string): number {
  if (s.replayTurn && s.replayTurn === turnId) {
    const i = s.items.findIndex((it) => it.id === s.promptItemId);
    if (i >= 0) return i;
  }
  return s.items.length;
}

type NewItem = ChatItem extends infer T ? (T extends ChatItem ? Omit<T, 'id'> : never) : never;

function push(s: ChatState, item: NewItem): ChatItem {
  const it = { ...item, id: s.nextId++ } as ChatItem;
  const at = insertIndex(s, item.turnId);
  s.items.splice(at, 0, it);
  return s.items[at];
}

/** Appends a streamed chunk to the open item of that kind, or starts one. */
function appendChunk(s: ChatState, kind: 'user' | 'assistant' | 'thought', turnId: string, text: string): void {
  const last = s.items[insertIndex(s, turnId) - 1];
  if (last && last.kind === kind && last.turnId === turnId) {
    last.text += text;
    return;
  }
  push(s, { kind, turnId, text });
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

function ensureTool(s: ChatState, id: string, turnId: string): ToolCallView {
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
    push(s, { kind: 'tool', turnId, toolCallId: id });
    t = s.tools[id];
  }
  return t;
}

/** Merges a tool_call or tool_call_update object: fields present win, absent ones stay. */
function mergeTool(s: ChatState, turnId: string, u: Obj): void {
  const id = str(u.toolCallId);
  if (!id) return;
  const t = ensureTool(s, id, turnId);
  if (typeof u.title === 'string' && u.title) t.title = u.title;
  if (typeof u.kind === 'string' && u.kind) t.kind = u.kind;
  if (typeof u.status === 'string' && u.status) t.status = u.status;
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

const endsReplay = new Set(['text', 'thought', 'tool_call', 'tool_call_update', 'plan', 'permission', 'error', 'done', 'auth_required', 'session']);

/**
 * Applies one event to the state. Returns the permission answers to send
 * (remembered "always" choices answered without asking again).
 */
export function applyEvent(s: ChatState, turnId: string, ev: ChatEvent): AnswerEffect[] {
  const tid = ev.turnId || turnId;
  const u = isObj(ev.update) ? ev.update : null;
  if (s.replayCandidate === tid && ev.type !== 'user_text' && endsReplay.has(ev.type)) s.replayCandidate = '';
  if (s.replayCandidate === tid && ev.type === 'user_text') {
    s.replayCandidate = '';
    s.replayTurn = tid;
  }
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
      if (s.replayTurn === tid) s.replayTurn = '';
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
      });
      finishTurn(s, tid);
      break;
    case 'warning':
      if (ev.text) push(s, { kind: 'warning', turnId: tid, text: ev.text });
      break;
    case 'auth_required':
      if (s.replayTurn === tid) s.replayTurn = '';
      push(s, { kind: 'auth', turnId: tid, text: ev.text ?? '', methods: authMethods(ev.authMethods) });
      break;
    case 'session':
      if (ev.sessionId) s.sessionId = ev.sessionId;
      if (s.replayTurn === tid) s.replayTurn = '';
      if (u && Array.isArray(u.configOptions)) s.configOptions = u.configOptions.filter(isObj) as unknown as ConfigOption[];
      if (u && isObj(u.modes) && Array.isArray(u.modes.availableModes)) {
        s.modes = {
          current: str(u.modes.currentModeId),
          available: u.modes.availableModes.filter(isObj).map((m) => ({ id: str(m.id), name: str(m.name) || str(m.id), description: str(m.description) || undefined })),
        };
      }
      break;
    case 'mode':
      if (u && s.modes && typeof u.currentModeId === 'string') s.modes.current = u.currentModeId;
      break;
    case 'agent': {
      const caps = u && isObj(u.agentCapabilities) && isObj(u.agentCapabilities.promptCapabilities) ? u.agentCapabilities.promptCapabilities : null;
      s.capabilities = { image: caps?.image === true, audio: caps?.audio === true, embeddedContext: caps?.embeddedContext === true };
      break;
    }
    case 'config_options':
      if (u && Array.isArray(u.configOptions)) s.configOptions = u.configOptions.filter(isObj) as unknown as ConfigOption[];
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
      if (s.replayTurn === tid) s.replayTurn = '';
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

function finishTurn(s: ChatState, tid: string): void {
  for (const it of s.items) if (it.kind === 'install' && it.turnId === tid && !it.ended) it.ended = 'stopped';
  // The agent no longer waits on this turn's questions.
  s.pending = s.pending.filter((p) => p.turnId !== tid);
  if (s.replayTurn === tid) s.replayTurn = '';
  if (s.turnId === tid || !s.turnId) s.running = false;
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
export function beginTurn(s: ChatState, turnId: string, prompt: string | null): void {
  s.turnId = turnId;
  s.running = true;
  s.stopReason = '';
  s.replayTurn = '';
  s.replayCandidate = '';
  if (prompt !== null) {
    const it = push(s, { kind: 'user', turnId, text: prompt });
    s.promptItemId = it.id;
    s.replayCandidate = turnId;
  }
}
