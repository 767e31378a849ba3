// Payload types crossing the Go ↔ UI boundary. The bindings' types are
// generated from Go (`make bindings` writes wailsjs/go/models.ts, checked
// current by `make bindings-check`) and re-exported here under their Go
// names: the flat name where Go's is distinctive (BuildCard, ModelList),
// the package-qualified one where it is not (search.Result, workspace.Meta).
// Hand-written below: what Go sends only as events and the UI's own unions.
import type { app, chat, codexhome, settings, theme } from '../../wailsjs/go/models';

export type { checkpoint, codexhome, search, settings, workspace } from '../../wailsjs/go/models';

export type ReasoningLevel = codexhome.ReasoningLevel;
export type Model = codexhome.Model;
export type ModelList = codexhome.ModelList;
export type TranscriptPage = codexhome.TranscriptPage;
/** codexhome.Message (chatReducer.ts imports it by this name). */
export type TranscriptMessage = codexhome.Message;
export type SessionQuery = app.SessionQuery;
export type IndexStatus = app.IndexStatus;
export type BuildCard = app.BuildCard;
export type NewBuildRequest = app.NewBuildRequest;
export type TurnStarted = app.TurnStarted;
export type PrewarmRequest = app.PrewarmRequest;
export type SendRequest = app.SendRequest;
export type OpenRequest = app.OpenRequest;
export type HistoryPage = app.HistoryPage;
export type AgentCheck = app.AgentCheck;
export type OptionChange = app.OptionChange;
export type SignInRequest = app.SignInRequest;
export type SignInResult = app.SignInResult;
export type AuthState = app.AuthState;
export type Artifact = app.Artifact;
export type ImportRequest = app.ImportRequest;
export type ImportResult = app.ImportResult;
export type ThemeVersion = app.ThemeVersion;
export type Comparison = app.Comparison;
export type Agent = settings.Agent;
export type MCPServer = settings.MCPServer;
export type AgentList = settings.AgentList;
export type Settings = settings.Settings;
export type Check = theme.Check;
export type ThemeState = theme.State;
export type Installed = theme.Installed;
export type InstallPlan = theme.InstallPlan;
export type PlannedFile = theme.PlannedFile;
export type Target = theme.Target;
export type Mapping = theme.Mapping;
export type Derivation = theme.Derivation;

/** A session config option as the agent describes it (ACP SessionConfigOption, as acp.ConfigOption marshals). */
export type ConfigOptionWire = app.BarState['options'][number];
export type BarState = app.BarState;
export type OptionResult = app.OptionResult;


/** Which sessions Home lists besides the user's own. */
export interface SessionFilter {
  showInternal?: boolean;
  showHidden?: boolean;
}

export type BuildStatus = 'working' | 'empty' | 'invalid' | 'failing' | 'ready';

/** A config option value: a select's value id or a boolean. */
export type OptionValue = string | boolean;

/** An image or file added to a message: the content in base64, or a file inside the workspace. */
export type Attachment = chat.Attachment;

export type AgentKind = 'codex' | 'codex-rs' | 'claude' | 'custom';

export type PermissionPolicy = 'ask' | 'allow' | 'deny';

/** theme.json as the agent wrote it; the shape is read defensively (theme.ts). */
export type ThemeDocument = Record<string, unknown>;

/** The self-test plan, sent as the "selftest:plan" event (app/selftest.go). */
export interface SelfTestPlan {
  /** A script asked for reports (first paint; the reply when prompt is set). */
  active: boolean;
  prompt: string;
  /** The navigation window test's loopback page (see navSelfTest), or "". */
  nav?: string;
  /** A theme document to highlight code with and report on ("highlight"). */
  theme?: string;
}

// ---- sent only as events or kept by the UI ----

export interface AgentStatus {
  message: string;
  details?: string;
  code?: string;
  retrying?: boolean;
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

export interface Refusal {
  configId: string;
  name?: string;
  value: unknown;
  current?: unknown;
}

export interface AuthMethod {
  id: string;
  name: string;
  description?: string | null;
}

export interface ArtifactsEvent {
  workspaceId: string;
  artifacts: Artifact[] | null;
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
  | 'status'
  | 'option_refused'
  | 'ready'
  | 'install'
  | 'update';

/** The first-run install of the sidecar's adapter (core/agent InstallProgress). */
export interface InstallProgress {
  /** name@version */
  package: string;
  phase: 'waiting' | 'resolving' | 'downloading' | 'finishing' | 'done' | string;
  /** Bytes of the packages received, of total (0 while unknown). */
  done: number;
  total: number;
}

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
  /** History session/load replays; not output of this turn. */
  replay?: boolean;
  status?: AgentStatus | null;
  refused?: Refusal | null;
  /** model_server error: which server. */
  server?: string;
  install?: InstallProgress | null;
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
