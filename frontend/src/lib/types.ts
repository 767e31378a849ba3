// Payload types crossing the Go ↔ UI boundary. The bindings' types are
// generated from Go (`make bindings` writes wailsjs/go/models.ts, checked
// current by `make bindings-check`) and re-exported here under their Go
// names: the flat name where Go's is distinctive (BuildCard, ModelList),
// the package-qualified one where it is not (search.Result, workspace.Meta).
// Hand-written below: what Go sends only as events and the UI's own unions.
import type { app, apply, codexhome, colour, contrast, install, live, prompt, publish, settings, targets, theme, themeimport, themewatch, versions } from '../../wailsjs/go/models';

export type { checkpoint, codexhome, damaged, search, settings, workspace } from '../../wailsjs/go/models';

export type ReasoningLevel = codexhome.ReasoningLevel;
export type Model = codexhome.Model;
export type ModelList = codexhome.ModelList;
export type TranscriptPage = codexhome.TranscriptPage;
/** codexhome.Message (chatReducer.ts imports it by this name). */
export type TranscriptMessage = codexhome.Message;
export type SessionQuery = app.SessionQuery;
export type IndexStatus = app.IndexStatus;
export type BuildCard = app.BuildCard;
export type DeletedBuild = app.DeletedBuild;
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
/** A build's publish metadata (core/publish): what its .vsix and Zed extension carry; version is the next publish's. */
export type PublishMeta = publish.Meta;
/** What a publish wrote: the export folder, the version the packages carry, and the metadata of the next publish. */
export type Published = app.Published;
/** A saved, named version of a build's theme (core/versions). */
export type Version = versions.Version;
/** One side of a comparison: a build now, one of its versions, or before one of its turns. */
export type ThemeRef = app.ThemeRef;
export type Agent = settings.Agent;
export type MCPServer = settings.MCPServer;
export type AgentList = settings.AgentList;
export type Settings = settings.Settings;
export type Check = contrast.Check;
export type ThemeState = themewatch.State;
export type Installed = apply.Installed;
export type Undone = apply.Undone;
export type Step = install.Step;
export type InstallPlan = apply.InstallPlan;
export type PlannedFile = apply.PlannedFile;
export type Target = install.Target;
/** A program the build was applied to and its live switch (app.LiveProgram). */
export type LiveProgram = app.LiveProgram;
/** What one live change did in one program (live.Report). */
export type LiveReport = live.Report;
export type ExportFormatInfo = targets.Format;
export type TemplateFolder = app.TemplateFolder;
export type Mapping = themeimport.Mapping;
export type Derivation = themeimport.Derivation;

export type BarState = app.BarState;
export type EditorState = app.EditorState;
export type EditorRole = app.EditorRole;
export type ColorTrial = app.ColorTrial;
export type OKLCH = colour.OKLCH;
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
export type Attachment = prompt.Attachment;

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
  /** The view to open at start ("home", "new") for the drop window test; routes are then reported. */
  view?: string;
  /** A saved chat (session id, in openCwd) to reopen at start: "reopened" is reported when its last turn is on screen, then prompt is sent in it. */
  open?: string;
  openCwd?: string;
  /** The editor window test's elements (a JSON object of name → CSS selector), reported as "elements" (see watchElements). */
  elements?: string;
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
  'vsix',
  'zed-extension',
] as const;
/** A format id: one of exportFormats (named in the locales) or a target defined as data in Go (named by Go). */
export type ExportFormat = (typeof exportFormats)[number] | (string & {});

// ---- events from Go: generated from the Go types (internal/tools/tsgen, make types) ----
export type {
  Answer,
  ArtifactsEvent,
  AuthMethod,
  ChatEvent,
  ChatEventBase,
  ChatEventOf,
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
  TurnBatch,
  UsageUpdate,
} from './gen/events';

export interface ThemeEvent extends ThemeState {
  workspaceId: string;
}
