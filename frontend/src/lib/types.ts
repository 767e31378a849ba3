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
  model: string;
  effort: string;
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
  model: string;
  effort: string;
  /** Session settings for this turn on top of the remembered ones. */
  mode?: string;
  options?: Record<string, OptionValue>;
  attachments?: Attachment[];
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

/** What the agent's initialize said it takes in a prompt. */
export interface PromptCapabilities {
  image: boolean;
  audio: boolean;
  embeddedContext: boolean;
}

export interface SlashCommand {
  name: string;
  description?: string;
  /** What to type after the command, when it takes input. */
  hint?: string;
}

export interface SessionMode {
  id: string;
  name: string;
  description?: string | null;
}

export interface OptionChange {
  workspaceId: string;
  sessionId: string;
  configId: string;
  value: OptionValue;
}

export interface OptionResult {
  /** The live agent took it now; otherwise it goes with the next message. */
  applied: boolean;
  configOptions: Record<string, unknown>[] | null;
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

export interface Artifact {
  uri: string;
  name: string;
  mimeType?: string;
  source: 'link' | 'edit' | string;
  inside: boolean;
  web?: boolean;
  problem?: string;
  path?: string;
  size?: number;
  /** data: URL of a small image. */
  preview?: string;
}

export interface ArtifactsEvent {
  workspaceId: string;
  artifacts: Artifact[] | null;
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
  agentCommand: string;
  codexAcpVersion: string;
  permissionPolicy: PermissionPolicy | '';
  turnTimeoutSeconds: number;
  enterSends: boolean;
  codexHome: string;
  language: string;
  warmConnection?: boolean | null;
  model: string;
  reasoningEffort: string;
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
  note?: string;
}

export interface AuthState {
  apiKeyStored: boolean;
  /** Where the key is kept: keyring or file. */
  store: string;
  /** The agent sign-in method that last succeeded ("" = none). */
  method?: string;
}

export interface AuthMethod {
  id: string;
  name: string;
  description?: string | null;
}

export interface SelfTestPlan {
  /** A script asked for reports (first paint; the reply when prompt is set). */
  active: boolean;
  prompt: string;
  /** The navigation window test's loopback page (see navSelfTest), or "". */
  nav?: string;
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
] as const;
export type ExportFormat = (typeof exportFormats)[number];

// ---- turn events (core/chat.Event) ----

export type PermissionOptionKind = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';

export interface PermissionOption {
  optionId: string;
  name: string;
  kind: PermissionOptionKind | string;
}

export interface Permission {
  requestId: string;
  toolCall: Record<string, unknown> | null;
  options: PermissionOption[] | null;
}

export type EventType =
  | 'text'
  | 'thought'
  | 'tool_call'
  | 'tool_call_update'
  | 'plan'
  | 'permission'
  | 'usage'
  | 'error'
  | 'warning'
  | 'auth_required'
  | 'session'
  | 'config_options'
  | 'commands'
  | 'session_info'
  | 'user_text'
  | 'agent'
  | 'mode'
  | 'done'
  | 'update';

export interface ChatEvent {
  type: EventType | string;
  turnId?: string;
  sessionId?: string;
  text?: string;
  update?: Record<string, unknown> | null;
  permission?: Permission | null;
  authMethods?: unknown;
  stopReason?: string;
  code?: string;
  stderr?: string[] | null;
  agent?: string;
}

export interface TurnBatch {
  turnId: string;
  /** 1, 2, 3… per turn, in the order Go emitted the batches. */
  seq?: number;
  events: ChatEvent[];
}

export interface ThemeEvent extends ThemeState {
  workspaceId: string;
}
