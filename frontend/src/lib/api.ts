// The only door from the UI to Go. Every binding of the app package is wrapped
// here with the project's own types, so the generated wailsjs files may change
// shape without the rest of the UI noticing.
import * as App from '../../wailsjs/go/app/App';
import { ClipboardSetText, EventsOn } from '../../wailsjs/runtime/runtime';
import type {
  AgentCheck,
  AgentList,
  BarState,
  HistoryPage,
  OpenRequest,
  ApplyResult,
  Artifact,
  ArtifactsEvent,
  CheckpointSummary,
  Comparison,
  ImportRequest,
  ImportResult,
  AuthState,
  BuildCard,
  IndexStatus,
  SessionFilter,
  OptionChange,
  OptionValue,
  OptionResult,
  SignInRequest,
  SignInResult,
  ExportFormat,
  InstallPlan,
  ApplyTarget,
  ModelsResult,
  NewBuildRequest,
  NewBuildResult,
  PrewarmRequest,
  SendRequest,
  SelfTestPlan,
  SessionsResult,
  Settings,
  ThemeEvent,
  ThemeState,
  TranscriptPage,
  TurnEvents,
  Workspace,
} from './types';

// The generated signatures use Wails' model classes; our plain objects carry
// the same JSON fields, so they are passed through as the generated type.
type Arg<F extends (...a: never[]) => unknown, N extends number = 0> = Parameters<F>[N];

export function models(): Promise<ModelsResult> {
  return App.Models() as unknown as Promise<ModelsResult>;
}

export function sessions(search: string, limit: number, filter: SessionFilter = {}): Promise<SessionsResult> {
  const q = { search, limit, showInternal: !!filter.showInternal, showHidden: !!filter.showHidden };
  return App.Sessions(q as unknown as Arg<typeof App.Sessions>) as unknown as Promise<SessionsResult>;
}

/** Names a session in the app (Codex's files are not touched); "" gives back its own title. */
export function renameSession(id: string, title: string): Promise<void> {
  return App.RenameSession(id, title);
}

export function hideSession(id: string, hidden: boolean): Promise<void> {
  return App.HideSession(id, hidden);
}

export function searchStatus(): Promise<IndexStatus> {
  return App.SearchStatus() as unknown as Promise<IndexStatus>;
}

/** Subscribes to the search index's progress and changes. */
export function onSearchIndex(cb: (st: IndexStatus) => void): () => void {
  return EventsOn('search-index', (st: IndexStatus) => {
    if (st && typeof st.building === 'boolean') cb(st);
  });
}

/** The theme builds for Home, newest change first. */
export function builds(): Promise<BuildCard[]> {
  return App.Builds().then((l) => (l ?? []) as unknown as BuildCard[]);
}

export function renameBuild(id: string, title: string): Promise<BuildCard> {
  return App.RenameBuild(id, title) as unknown as Promise<BuildCard>;
}

export function duplicateBuild(id: string): Promise<BuildCard> {
  return App.DuplicateBuild(id) as unknown as Promise<BuildCard>;
}

/** Moves a build to the trash; restoreBuild undoes it. */
export function deleteBuild(id: string): Promise<void> {
  return App.DeleteBuild(id);
}

export function restoreBuild(id: string): Promise<void> {
  return App.RestoreBuild(id);
}

export function transcriptPage(id: string, offset: number, limit: number): Promise<TranscriptPage> {
  return App.TranscriptPage(id, offset, limit) as unknown as Promise<TranscriptPage>;
}

/** Resolves to the written path, or "" when the user cancelled the save dialog. */
export function exportTranscript(id: string): Promise<string> {
  return App.ExportTranscript(id);
}

export function newBuild(req: NewBuildRequest): Promise<NewBuildResult> {
  return App.NewBuild(req as unknown as Arg<typeof App.NewBuild>) as unknown as Promise<NewBuildResult>;
}

function warmTarget(req: PrewarmRequest): Arg<typeof App.Prewarm> {
  return { workspaceId: req.workspaceId ?? '', sessionId: req.sessionId ?? '', cwd: req.cwd ?? '' };
}

/**
 * Starts the agent of the chat a view just opened, in the background, so
 * its first message goes out on a ready connection. Never fails visibly:
 * if the agent cannot start, the first message says why.
 */
export async function prewarm(req: PrewarmRequest = {}): Promise<void> {
  try {
    await App.Prewarm(warmTarget(req));
  } catch {
    // The first message runs the normal path and reports.
  }
}

/** The view that called prewarm closed: an agent nobody used is stopped. */
export async function release(req: PrewarmRequest = {}): Promise<void> {
  try {
    await App.Release(warmTarget(req));
  } catch {
    // Nothing to give up.
  }
}

/** Resolves to the new turn's id. */
export function send(req: SendRequest): Promise<string> {
  return App.Send(req as unknown as Arg<typeof App.Send>);
}

export function cancel(turnId: string): Promise<void> {
  return App.Cancel(turnId);
}

/** optionId "" cancels the request. */
export function answerPermission(turnId: string, requestId: string, optionId: string): Promise<void> {
  return App.AnswerPermission(turnId, requestId, optionId);
}

export function getSettings(): Promise<Settings> {
  return App.GetSettings() as unknown as Promise<Settings>;
}

export function saveSettings(s: Settings): Promise<void> {
  return App.SaveSettings(s as unknown as Arg<typeof App.SaveSettings>);
}

export function workspaces(): Promise<Workspace[]> {
  return App.Workspaces() as unknown as Promise<Workspace[]>;
}

export function openWorkspaceFolder(workspaceId: string): Promise<void> {
  return App.OpenWorkspaceFolder(workspaceId);
}

export function theme(workspaceId: string): Promise<ThemeState> {
  return App.Theme(workspaceId) as unknown as Promise<ThemeState>;
}

/** Resolves to the directory written; format "all" writes every format. */
export function exportTheme(workspaceId: string, format: ExportFormat | 'all'): Promise<string> {
  return App.ExportTheme(workspaceId, format);
}

/** The programs a theme can be installed into on this system (Go decides per OS), in menu order. */
export function applyTargets(): Promise<ApplyTarget[]> {
  return App.ApplyTargets() as unknown as Promise<ApplyTarget[]>;
}

/** What applying to target would write and replace; writes nothing. */
export function planApply(workspaceId: string, target: ExportFormat): Promise<InstallPlan> {
  return App.PlanApply(workspaceId, target) as unknown as Promise<InstallPlan>;
}

export function applyTheme(workspaceId: string, target: ExportFormat): Promise<ApplyResult> {
  return App.ApplyTheme(workspaceId, target) as unknown as Promise<ApplyResult>;
}

export function getAuthState(): Promise<AuthState> {
  return App.GetAuthState() as unknown as Promise<AuthState>;
}

/** Stores an OpenAI API key for later agents (keyring, else a private file). */
export function saveAPIKey(key: string): Promise<AuthState> {
  return App.SaveAPIKey(key) as unknown as Promise<AuthState>;
}

export function signOut(): Promise<void> {
  return App.SignOut();
}

/** Runs the agent's sign-in method (e.g. ChatGPT in the browser) in cwd. */
export function authenticate(methodId: string, cwd: string): Promise<void> {
  return App.Authenticate(methodId, cwd);
}

/**
 * Answers "authentication required": stores the API key (for a key method)
 * or runs the agent's method, then retries the interrupted turn; resolves
 * to the retried turn's id and the new sign-in state.
 */
export function signIn(req: SignInRequest): Promise<SignInResult> {
  return App.SignIn(req as unknown as Arg<typeof App.SignIn>) as unknown as Promise<SignInResult>;
}

/** What a chat's session bar shows before its agent answers; sessionId "" = a new build. */
export function sessionBar(workspaceId: string, sessionId: string): Promise<BarState> {
  return App.SessionBar(workspaceId, sessionId) as unknown as Promise<BarState>;
}

/** Makes values the settings new builds with this agent start with. */
export function saveBuildDefaults(agentId: string, values: Record<string, OptionValue>): Promise<void> {
  return App.SaveBuildDefaults(agentId, values);
}

/** Opens a saved chat on its agent before the first message; resolves to the turn id of the opening. */
export function openChat(req: OpenRequest): Promise<string> {
  return App.OpenChat(req as unknown as Arg<typeof App.OpenChat>);
}

/** Up to limit messages of a chat's history before index before (-1: the newest). */
export function chatHistory(sessionId: string, before: number, limit: number): Promise<HistoryPage> {
  return App.ChatHistory(sessionId, before, limit) as unknown as Promise<HistoryPage>;
}

/** Saves the chat as Markdown (the Codex session when there is one, else markdown); "" when cancelled. */
export function exportChat(sessionId: string, title: string, markdown: string): Promise<string> {
  return App.ExportChat(sessionId, title, markdown);
}

/** The native folder picker; "" when cancelled. */
export function chooseFolder(title: string): Promise<string> {
  return App.ChooseFolder(title);
}

/** Whether the agent of a chat (or of new builds, with empty ids) can be started. */
export function checkAgent(workspaceId: string, sessionId: string): Promise<AgentCheck> {
  return App.CheckAgent(workspaceId, sessionId) as unknown as Promise<AgentCheck>;
}

/** Changes a session setting: live when an agent holds the session, else with the next message. */
export function setSessionOption(req: OptionChange): Promise<OptionResult> {
  return App.SetSessionOption(req as unknown as Arg<typeof App.SetSessionOption>) as unknown as Promise<OptionResult>;
}

/** The agents list (agents.toml) with the MCP servers. */
export function agents(): Promise<AgentList> {
  return App.Agents() as unknown as Promise<AgentList>;
}

export function saveAgents(list: AgentList): Promise<void> {
  return App.SaveAgents(list as unknown as Arg<typeof App.SaveAgents>);
}

/** Chooses the agent New Build starts. */
export function setBuildAgent(id: string): Promise<void> {
  return App.SetBuildAgent(id);
}

/** Files and links the agent produced in the workspace, checked now. */
export function artifacts(workspaceId: string): Promise<Artifact[]> {
  return App.Artifacts(workspaceId).then((l) => (l ?? []) as unknown as Artifact[]);
}

/** Opens an artifact; Go refuses files outside the workspace. */
export function openArtifact(workspaceId: string, uri: string): Promise<void> {
  return App.OpenArtifact(workspaceId, uri);
}

/** The start-up self-test plan; empty prompt in normal use. */
export function selfTest(): Promise<SelfTestPlan> {
  return App.SelfTest() as unknown as Promise<SelfTestPlan>;
}

/** Reports what the UI rendered: kind "paint" (first frame), "reply", "highlight" (the preview highlighter's colours), or the navigation test's "rects", "bypass", "focused", "linkErrors". */
export function selfTestReport(kind: 'paint' | 'reply' | 'highlight' | 'rects' | 'bypass' | 'focused' | 'linkErrors', text: string): Promise<void> {
  return App.SelfTestReport(kind, text);
}

/** Opens a web/mail link in the system browser; Go refuses other schemes. */
export function openLink(url: string): Promise<void> {
  return App.OpenLink(url);
}

/** Opens a file inside the workspace with the OS; Go refuses paths outside it. */
export function openPath(workspaceId: string, path: string): Promise<void> {
  return App.OpenPath(workspaceId, path);
}

/** Creates a build from a dropped theme file (VS Code, base16/24, iTerm2, Alacritty, …). */
export function importTheme(req: ImportRequest): Promise<ImportResult> {
  return App.ImportTheme(req as unknown as Arg<typeof App.ImportTheme>) as unknown as Promise<ImportResult>;
}

/** The VS Code colour theme (JSON text) the vscode exporter makes of a theme document. */
export function vscodeTheme(doc: unknown): Promise<string> {
  return App.VSCodeTheme(JSON.stringify(doc));
}

/** A workspace's checkpoints, oldest first. */
export function checkpoints(workspaceId: string): Promise<CheckpointSummary[]> {
  return App.Checkpoints(workspaceId).then((l) => (l ?? []) as unknown as CheckpointSummary[]);
}

/** Restores a checkpoint; resolves to the checkpoint that undoes the restore. */
export function restoreCheckpoint(workspaceId: string, checkpointId: string): Promise<CheckpointSummary> {
  return App.RestoreCheckpoint(workspaceId, checkpointId) as unknown as Promise<CheckpointSummary>;
}

/** The theme before a turn (at the checkpoint) and after it, with the changed roles. */
export function compareCheckpoint(workspaceId: string, checkpointId: string): Promise<Comparison> {
  return App.CompareCheckpoint(workspaceId, checkpointId) as unknown as Promise<Comparison>;
}

/** How long a gap in a turn's batch numbers is waited for before the held
 * batches are delivered anyway (a lost batch must not freeze the chat). */
export const reorderWaitMs = 250;

/**
 * Subscribes to batched turn events; returns the unsubscribe function.
 * Each turn's batches reach cb in the order Go sent them (by seq): the dev
 * bridge emits every event on a goroutine of its own, so they can overtake.
 */
export function onTurn(cb: (batch: TurnEvents) => void): () => void {
  const next = new Map<string, number>();
  const held = new Map<string, Map<number, TurnEvents>>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const drain = (turnId: string, force: boolean) => {
    const h = held.get(turnId);
    let n = next.get(turnId) ?? 1;
    while (h && h.size > 0) {
      if (!h.has(n)) {
        if (!force) break;
        n = Math.min(...h.keys()); // give up on the gap
      }
      cb(h.get(n)!);
      h.delete(n);
      n++;
    }
    next.set(turnId, n);
    clearTimeout(timers.get(turnId));
    timers.delete(turnId);
    if (h && h.size > 0) timers.set(turnId, setTimeout(() => drain(turnId, true), reorderWaitMs));
  };
  const off = EventsOn('turn', (batch: TurnEvents) => {
    if (!batch || typeof batch.turnId !== 'string' || !Array.isArray(batch.events)) return;
    if (typeof batch.seq !== 'number') {
      cb(batch);
      return;
    }
    let h = held.get(batch.turnId);
    if (!h) held.set(batch.turnId, (h = new Map()));
    h.set(batch.seq, batch);
    drain(batch.turnId, false);
  });
  return () => {
    off();
    for (const t of timers.values()) clearTimeout(t);
  };
}

/** Subscribes to "the agent's session list changed what Home shows". */
export function onSessions(cb: () => void): () => void {
  return EventsOn('sessions', () => cb());
}

/** Subscribes to theme.json changes of any workspace; returns the unsubscribe function. */
export function onTheme(cb: (ev: ThemeEvent) => void): () => void {
  return EventsOn('theme', (ev: ThemeEvent) => {
    if (ev && typeof ev.workspaceId === 'string') cb(ev);
  });
}

/** Subscribes to "a workspace's checkpoint list changed"; returns the unsubscribe function. */
export function onCheckpoints(cb: (workspaceId: string) => void): () => void {
  return EventsOn('checkpoints', (ev: { workspaceId?: unknown }) => {
    if (ev && typeof ev.workspaceId === 'string') cb(ev.workspaceId);
  });
}

/** Subscribes to a workspace's artifact list changes; returns the unsubscribe function. */
export function onArtifacts(cb: (ev: ArtifactsEvent) => void): () => void {
  return EventsOn('artifacts', (ev: ArtifactsEvent) => {
    if (ev && typeof ev.workspaceId === 'string') cb({ workspaceId: ev.workspaceId, artifacts: Array.isArray(ev.artifacts) ? ev.artifacts : [] });
  });
}

/** The native menu asks for a view ("home", "new", "settings"). */
export function onMenu(cb: (view: string) => void): () => void {
  return EventsOn('menu', (ev: { view?: unknown }) => {
    if (ev && typeof ev.view === 'string') cb(ev.view);
  });
}

/** Turns a rejected binding call (Go error string or Error) into a message. */
export function errorMessage(err: unknown): string {
  if (typeof err === 'string') return err;
  if (err instanceof Error) return err.message;
  try {
    return JSON.stringify(err);
  } catch {
    return String(err);
  }
}

/**
 * Puts text on the clipboard: the web Clipboard API where the webview grants
 * it, else the OS clipboard through Wails (WebKitGTK's custom scheme is not
 * always a secure context).
 */
export async function copyText(text: string): Promise<void> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return;
    }
  } catch {
    // Fall through to the OS clipboard.
  }
  if (!(await ClipboardSetText(text))) throw new Error('the clipboard refused the text');
}
