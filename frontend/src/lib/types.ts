// Payload types crossing the Go ↔ UI boundary (CONTRACTS.md, "desktop app
// bindings"). Kept here, not in wailsjs/go/models.ts, because those files are
// regenerated from Go and may name things differently.

export interface ReasoningLevel {
  effort: string;
  description?: string;
}

export interface ModelInfo {
  id: string;
  name: string;
  description?: string;
  defaultReasoningLevel?: string;
  reasoningLevels?: ReasoningLevel[] | null;
}

export interface ModelsResult {
  current: string;
  source: 'cache' | 'fallback' | string;
  hint?: string;
  /** Names hint for the UI to word it (core/codexhome Hint* codes); hintDir fills it in. */
  hintCode?: string;
  hintDir?: string;
  models: ModelInfo[] | null;
}

export interface SessionSummary {
  id: string;
  title: string;
  updatedAt: string;
  cwd: string;
  path: string;
  archived?: boolean;
  /** A sub-agent session Codex started itself (a review, a guardian). */
  internal?: boolean;
  /** Hidden by the user in the app. */
  hidden?: boolean;
  /** Why the file is no readable rollout; such a row is neither opened nor resumed. */
  unreadable?: string;
  /** With a search: the matched message text (untrusted: render as text). */
  snippet?: string;
  /** Highlighted spans of snippet, [start, end) in code points. */
  marks?: { start: number; end: number }[] | null;
  /** Who wrote the matched message. */
  role?: 'user' | 'assistant' | string;
  /** Transcript index of the matched message; -1 when only the title matched. */
  message?: number;
}

export interface SessionsResult {
  sessions: SessionSummary[] | null;
  hint?: string;
  hintCode?: string;
  hintDir?: string;
  /** The first index build still runs: text matches cover part of the sessions. */
  partial?: boolean;
}

export interface SessionFilter {
  showInternal?: boolean;
  showHidden?: boolean;
}

/** How the full-text index is doing ("search-index" event, SearchStatus). */
export interface IndexStatus {
  building: boolean;
  first: boolean;
  done: number;
  total: number;
  changed: boolean;
  error?: string;
}

export type BuildStatus = 'working' | 'empty' | 'invalid' | 'failing' | 'ready';

/** A theme build as Home shows it. */
export interface BuildCard extends Workspace {
  name: string;
  /** #rrggbb values checked by Go. */
  swatches: string[] | null;
  changed: string;
  status: BuildStatus;
  failing: number;
}

export interface TranscriptTool {
  name?: string;
  command?: string;
  exitCode?: number | null;
  output?: string;
}

export interface TranscriptMessage {
  role: 'user' | 'assistant' | 'tool' | 'notice';
  text: string;
  /** With role notice: what happened. */
  notice?: 'stopped' | 'compacted' | string;
  time?: string;
  tool?: TranscriptTool | null;
}

export interface TranscriptPage {
  id: string;
  title: string;
  cwd: string;
  messages: TranscriptMessage[] | null;
  offset: number;
  nextOffset: number;
  done: boolean;
  skipped?: number;
  /** The session is too large to show whole: it ends here. */
  truncated?: boolean;
}

export interface NewBuildRequest {
  prompt: string;
  /** The session bar's values: config option id → value. */
  options?: Record<string, OptionValue>;
}

/** The chat a view opened, for Prewarm/Release: a saved one (sessionId, in workspaceId or cwd) or, all empty, a new build. */
export interface PrewarmRequest {
  workspaceId?: string;
  sessionId?: string;
  cwd?: string;
}

export interface NewBuildResult {
  turnId: string;
  workspaceId: string;
  cwd: string;
}

export interface SendRequest {
  workspaceId: string;
  sessionId: string;
  cwd: string;
  prompt: string;
  attachments?: Attachment[];
}

export interface OpenRequest {
  workspaceId: string;
  sessionId: string;
  cwd: string;
}

/** A session config option as the agent describes it (ACP SessionConfigOption). */
export interface ConfigOptionWire {
  id: string;
  name?: string;
  description?: string | null;
  category?: string | null;
  type?: string;
  currentValue?: unknown;
  options?: unknown[];
}

export interface ModeState {
  currentModeId: string;
  availableModes: { id: string; name: string; description?: string | null }[] | null;
}

/** What a chat's session bar shows before its agent answers (app.BarState). */
export interface BarState {
  agentId: string;
  agentName: string;
  options: ConfigOptionWire[] | null;
  modes: ModeState | null;
  /** The agent's own report (this chat's last, or a fresh session's). */
  known: boolean;
  defaults: Record<string, OptionValue> | null;
}


export interface HistoryPage {
  source: 'rollout' | 'agent' | string;
  messages: TranscriptMessage[] | null;
  offset: number;
  total: number;
  skipped?: number;
}

export interface AgentCheck {
  ok: boolean;
  agentId: string;
  agentName: string;
  code?: string;
  detail?: string;
}


/** A config option value: a select's value id or a boolean. */
export type OptionValue = string | boolean;

/** An image or file added to a message (core/chat.Attachment). */
export interface Attachment {
  name: string;
  mimeType?: string;
  /** The content in base64 (Go decodes it into bytes). */
  data?: string;
  /** Or a file inside the workspace. */
  path?: string;
}




export interface OptionChange {
  workspaceId: string;
  sessionId: string;
  configId: string;
  value: OptionValue;
}

export interface OptionResult {
  /** The live agent took it now (configOptions as it reports them). */
  applied: boolean;
  configOptions: ConfigOptionWire[] | null;
  /** Not live: the chat's values that go with the next message. */
  pending?: Record<string, OptionValue> | null;
  /** The agent did not take it; reason is its own word. */
  refused?: Refusal | null;
  reason?: string;
}

export interface SignInRequest {
  turnId: string;
  methodId: string;
  apiKey: string;
  cwd: string;
}

export interface SignInResult {
  /** The retried turn ("" when there was nothing to retry). */
  turnId: string;
  auth: AuthState;
}



export type AgentKind = 'codex' | 'codex-rs' | 'claude' | 'custom';

export interface AgentEntry {
  id: string;
  name: string;
  kind: AgentKind | string;
  command: string;
  args: string[] | null;
  env: Record<string, string> | null;
  defaults: Record<string, OptionValue> | null;
  /** The stored secrets (environment variables) this agent is given; set by Go. */
  secrets?: string[] | null;
}

export interface MCPServer {
  name: string;
  type: 'stdio' | 'http' | 'sse' | '';
  command: string;
  args: string[] | null;
  env: Record<string, string> | null;
  url: string;
  headers: Record<string, string> | null;
  disabled: boolean;
}

export interface AgentList {
  default: string;
  agents: AgentEntry[] | null;
  mcpServers: MCPServer[] | null;
}

export type PermissionPolicy = 'ask' | 'allow' | 'deny';

/** Mirrors core/settings.Settings JSON names. */
export interface Settings {
  codexAcpVersion: string;
  permissionPolicy: PermissionPolicy | '';
  turnTimeoutSeconds: number;
  enterSends: boolean;
  codexHome: string;
  language: string;
  warmConnection?: boolean | null;
  model: string;
  reasoningEffort: string;
  /** light, dark, or system / "" (the OS's). */
  appearance?: string;
}

export interface Workspace {
  id: string;
  title: string;
  created: string;
  sessionIds: string[] | null;
  model: string;
  dir: string;
}

export interface ContrastPair {
  fg: string;
  bg: string;
  fgRole: string;
  bgRole: string;
  ratio: number;
  aa: boolean;
  aaa: boolean;
  aaLarge: boolean;
  /** APCA-W3 lightness contrast Lc: positive for dark text on light, negative for light on dark. */
  apca?: number;
}

/** theme.json as the agent wrote it; the shape is read defensively (theme.ts). */
export type ThemeDocument = Record<string, unknown>;

export interface ThemeState {
  workspaceId?: string;
  theme: ThemeDocument | null;
  error: string;
  contrast: ContrastPair[] | null;
}

export interface ApplyResult {
  installed: string[] | null;
  backups: string[] | null;
  /** What the user still has to do, e.g. pick the theme in the program. */
  note?: string;
}

export interface PlannedFile {
  path: string;
  /** The file exists and will be backed up before it is replaced. */
  exists: boolean;
}

export interface InstallPlan {
  target: string;
  theme: string;
  files: PlannedFile[] | null;
  /** Go's English next step (the CLI prints it; the UI words its own per target). */
  note?: string;
  /** A problem met while planning that did not stop it. */
  warning?: string;
}

/** Mirrors core/theme.Target: a program the theme installs into on this system. */
export interface ApplyTarget {
  id: ExportFormat;
  name: string;
  format: string;
}

export interface AuthState {
  apiKeyStored: boolean;
  /** Where the key is kept: keyring or file. */
  store: string;
  /** The agent sign-in method that last succeeded ("" = none). */
  method?: string;
}


export interface SelfTestPlan {
  /** A script asked for reports (first paint; the reply when prompt is set). */
  active: boolean;
  prompt: string;
  /** The navigation window test's loopback page (see navSelfTest), or "". */
  nav?: string;
  /** A theme document to highlight code with and report on ("highlight"). */
  theme?: string;
}

export const exportFormats = [
  'vscode',
  'zed',
  'alacritty',
  'kitty',
  'ghostty',
  'windows-terminal',
  'iterm2',
  'css',
  'base16',
  'base24',
  'helix',
  'neovim',
  'wezterm',
  'foot',
  'tmtheme',
  'tmux',
] as const;
export type ExportFormat = (typeof exportFormats)[number];

// ---- events from Go: generated from the Go types (internal/tsgen, make types) ----
export type {
  Answer,
  Artifact,
  ArtifactsEvent,
  AuthMethod,
  ChatEvent,
  CheckpointsEvent,
  Code,
  Command,
  ConfigOption,
  Cost,
  EventType,
  InstallProgress,
  Permission,
  PermissionOption,
  PermissionOptionKind,
  Plan,
  PlanEntry,
  PromptCapabilities,
  Refusal,
  SessionMode,
  SessionModeState,
  SessionSetup,
  Status,
  Terminal,
  ToolCall,
  ToolCallContent,
  TurnEvents,
  UsageUpdate,
} from './gen/events';
import type { Refusal } from './gen/events';







export interface ThemeEvent extends ThemeState {
  workspaceId: string;
}

// ---- import and checkpoints (app/imports.go, app/checkpoints.go) ----

/** A theme.json role copied from one key of the imported file. */
export interface RoleMapping {
  role: string;
  from: string;
}

/** A role the imported file did not have, and how it was made. */
export interface RoleDerivation {
  role: string;
  from?: string[] | null;
  rule: string;
}

export interface ImportRequest {
  fileName: string;
  /** The file's content in base64 (Go decodes it into bytes). */
  data: string;
  name?: string;
}

export interface ImportResult {
  workspaceId: string;
  dir: string;
  title: string;
  format: string;
  mapped: RoleMapping[] | null;
  derived: RoleDerivation[] | null;
  warnings: string[] | null;
}

export interface CheckpointSummary {
  id: string;
  /** "turn": taken before a prompt; "restore": taken before a restore (its undo). */
  kind: 'turn' | 'restore' | string;
  turnId?: string;
  label: string;
  created: string;
  restoredTo?: string;
  files: number;
  skipped: number;
  size: number;
}

export interface ThemeVersion extends ThemeState {
  /** "" for the workspace as it is now. */
  checkpointId: string;
  label: string;
  created: string;
}

export interface Comparison {
  before: ThemeVersion;
  after: ThemeVersion;
  /** Role paths ("ui.accent", "syntax.keyword", "ansi.red") whose colour differs. */
  changed: string[] | null;
}
