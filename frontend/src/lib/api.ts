// The only door from the UI to Go. Every bound method of the app services
// (window.go.app.<Service>.<Method>) is called here, with the types Go
// generates (wailsjs/go/models.ts, re-exported by types.ts).
import * as Agents from '../../wailsjs/go/app/Agents';
import * as Builds from '../../wailsjs/go/app/Builds';
import * as Chats from '../../wailsjs/go/app/Chats';
import * as Desktop from '../../wailsjs/go/app/Desktop';
import * as Editor from '../../wailsjs/go/app/Editor';
import * as Library from '../../wailsjs/go/app/Library';
import * as Settings from '../../wailsjs/go/app/Settings';
import * as Themes from '../../wailsjs/go/app/Themes';
import * as Turns from '../../wailsjs/go/app/Turns';
import { ClipboardSetText, EventsEmit, EventsOn, EventsOnce } from '../../wailsjs/runtime/runtime';
import type {
  AgentCheck,
  AgentList,
  Artifact,
  ArtifactsEvent,
  AuthState,
  BarState,
  BuildCard,
  ColorTrial,
  Comparison,
  ThemeRef,
  Version,
  PublishMeta,
  Published,
  DeletedBuild,
  EditorState,
  ExportFormat,
  HistoryPage,
  ImportRequest,
  ImportResult,
  IndexStatus,
  InstallPlan,
  LiveProgram,
  LiveReport,
  ExportFormatInfo,
  TemplateFolder,
  Installed,
  ModelList,
  NewBuildRequest,
  OKLCH,
  OpenRequest,
  OptionChange,
  OptionResult,
  OptionValue,
  PrewarmRequest,
  SelfTestPlan,
  Undone,
  SendRequest,
  SessionFilter,
  SignInRequest,
  SignInResult,
  Target,
  ThemeEvent,
  ThemeState,
  TranscriptPage,
  TurnBatch,
  TurnStarted,
  checkpoint,
  search,
  damaged,
  settings,
  workspace,
} from './types';

export function models(): Promise<ModelList> {
  return Library.Models();
}

export function sessions(search: string, limit: number, filter: SessionFilter = {}): Promise<search.Results> {
  const q = { search, limit, showInternal: !!filter.showInternal, showHidden: !!filter.showHidden };
  return Library.Sessions(q);
}

/** Names a session in the app (Codex's files are not touched); "" gives back its own title. */
export function renameSession(id: string, title: string): Promise<void> {
  return Library.RenameSession(id, title);
}

export function hideSession(id: string, hidden: boolean): Promise<void> {
  return Library.HideSession(id, hidden);
}

export function searchStatus(): Promise<IndexStatus> {
  return Library.SearchStatus();
}

/** Subscribes to the search index's progress and changes. */
export function onSearchIndex(cb: (st: IndexStatus) => void): () => void {
  return EventsOn('search-index', (st: IndexStatus) => {
    if (st && typeof st.building === 'boolean') cb(st);
  });
}

/** The theme builds for Home, newest change first. */
export function builds(): Promise<BuildCard[]> {
  return Builds.Builds().then((l) => l ?? []);
}

export function renameBuild(id: string, title: string): Promise<BuildCard> {
  return Builds.RenameBuild(id, title);
}

/** Subscribes to "a build's name changed" (a rename, or the theme's new name it follows): its card. */
export function onBuild(cb: (card: BuildCard) => void): () => void {
  return EventsOn('build', (card: BuildCard) => {
    if (card && typeof card.id === 'string' && typeof card.title === 'string') cb(card);
  });
}

export function duplicateBuild(id: string): Promise<BuildCard> {
  return Builds.DuplicateBuild(id);
}

/** Moves a build to the trash; restoreBuild undoes it. */
export function deleteBuild(id: string): Promise<void> {
  return Builds.DeleteBuild(id);
}

/** Brings a deleted build back from the trash (an error, never an overwrite, when its folder is taken). */
export function restoreBuild(id: string): Promise<void> {
  return Builds.RestoreBuild(id);
}

/** The builds in the trash, newest deletion first: what Home's "Recently deleted" lists. */
export function deletedBuilds(): Promise<DeletedBuild[]> {
  return Builds.DeletedBuilds().then((l) => l ?? []);
}

/** Deletes a build in the trash for good: restoreBuild can no longer bring it back. */
export function purgeBuild(id: string): Promise<void> {
  return Builds.PurgeBuild(id);
}

export function transcriptPage(id: string, offset: number, limit: number): Promise<TranscriptPage> {
  return Library.TranscriptPage(id, offset, limit);
}

/** Resolves to the written path, or "" when the user cancelled the save dialog. */
export function exportTranscript(id: string): Promise<string> {
  return Library.ExportTranscript(id);
}

export function newBuild(req: NewBuildRequest): Promise<TurnStarted> {
  return Turns.NewBuild(req);
}

function warmTarget(req: Partial<PrewarmRequest>): PrewarmRequest {
  return { workspaceId: req.workspaceId ?? '', sessionId: req.sessionId ?? '', cwd: req.cwd ?? '' };
}

/**
 * Starts the agent of the chat a view just opened, in the background, so
 * its first message goes out on a ready connection. Never fails visibly:
 * if the agent cannot start, the first message says why.
 */
export async function prewarm(req: Partial<PrewarmRequest> = {}): Promise<void> {
  try {
    await Turns.Prewarm(warmTarget(req));
  } catch {
    // The first message runs the normal path and reports.
  }
}

/** The view that called prewarm closed: an agent nobody used is stopped. */
export async function release(req: Partial<PrewarmRequest> = {}): Promise<void> {
  try {
    await Turns.Release(warmTarget(req));
  } catch {
    // Nothing to give up.
  }
}

/** Resolves to the new turn's id. */
export function send(req: SendRequest): Promise<string> {
  return Turns.Send(req);
}

export function cancel(turnId: string): Promise<void> {
  return Turns.Cancel(turnId);
}

/** optionId "" cancels the request. */
export function answerPermission(turnId: string, requestId: string, optionId: string): Promise<void> {
  return Turns.AnswerPermission(turnId, requestId, optionId);
}

export function getSettings(): Promise<settings.Settings> {
  return Settings.GetSettings();
}

export function saveSettings(s: settings.Settings): Promise<void> {
  return Settings.SaveSettings(s);
}

/** The user's files found damaged in this run and set aside (where the copy is). */
export async function damagedFiles(): Promise<damaged.Notice[]> {
  return (await Settings.DamagedFiles()) ?? [];
}

/** Subscribes to "a damaged file was set aside"; returns the unsubscribe function. */
export function onDamaged(cb: (n: damaged.Notice) => void): () => void {
  return EventsOn('damaged', (n: damaged.Notice) => {
    if (n && typeof n.path === 'string' && typeof n.copy === 'string') cb(n);
  });
}

export function workspaces(): Promise<workspace.Meta[]> {
  return Builds.Workspaces();
}

export function openWorkspaceFolder(workspaceId: string): Promise<void> {
  return Builds.OpenWorkspaceFolder(workspaceId);
}

export function theme(workspaceId: string): Promise<ThemeState> {
  return Themes.Theme(workspaceId);
}

/** Resolves to the directory written; format "all" writes every format. */
export function exportTheme(workspaceId: string, format: ExportFormat | 'all'): Promise<string> {
  return Themes.ExportTheme(workspaceId, format);
}

/** The build's publish metadata; the version is the one the next publish writes. */
export function publishMeta(workspaceId: string): Promise<PublishMeta> {
  return Themes.PublishMeta(workspaceId);
}

/** Saves the metadata, writes the .vsix and the Zed extension with it, and bumps the version for the next publish. */
/** Checks and saves the build's publish metadata without publishing; Go names every wrong field. */
export function setPublishMeta(workspaceId: string, meta: PublishMeta): Promise<PublishMeta> {
  return Themes.SetPublishMeta(workspaceId, meta);
}

export function publish(workspaceId: string, meta: PublishMeta): Promise<Published> {
  return Themes.Publish(workspaceId, meta);
}

/** Every export format in menu order, the targets defined as data among them (Go's list). */
export function exportFormats(): Promise<ExportFormatInfo[]> {
  return Themes.ExportFormats().then((l) => l ?? []);
}

/** The settings' tinted-theming template folders, each with its templates or why it cannot be read. */
export function templateFolders(): Promise<TemplateFolder[]> {
  return Themes.TemplateFolders().then((l) => l ?? []);
}

/** Renders one of the settings' template folders with the theme; resolves to the directory written. */
export function exportTemplate(workspaceId: string, dir: string): Promise<string> {
  return Themes.ExportTemplate(workspaceId, dir);
}

/** The programs a theme can be installed into on this system (Go decides per OS), in menu order. */
export function applyTargets(): Promise<Target[]> {
  return Themes.ApplyTargets();
}

/** What applying to target would write and replace; writes nothing. */
export function planApply(workspaceId: string, target: string): Promise<InstallPlan> {
  return Themes.PlanApply(workspaceId, target);
}

/**
 * Installs the plan the user confirmed, named by its token: Go refuses (writing nothing) when planning again gives another plan.
 * settings are the plan's steps (indexes) whose setting the user let Apply change too.
 */
export function applyTheme(workspaceId: string, target: string, token: string, settings: number[] = []): Promise<Installed> {
  return Themes.ApplyTheme(workspaceId, target, token, settings);
}

/** Undoes the last apply into target: what it replaced comes back, what it created goes. */
export function undoApply(target: string): Promise<Undone> {
  return Themes.UndoApply(target);
}

/** The programs this build's theme was applied to, each with its live switch and what the latest change did there. */
export async function livePrograms(workspaceId: string): Promise<LiveProgram[]> {
  return (await Themes.LivePrograms(workspaceId)) ?? [];
}

/** Turns the live updates of one applied program on or off for a build (off until the designer turns it on). */
export function setLive(workspaceId: string, target: string, on: boolean): Promise<void> {
  return Themes.SetLive(workspaceId, target, on);
}

/** Subscribes to what each live change did in a program; returns the unsubscribe function. */
export function onLive(cb: (r: LiveReport) => void): () => void {
  return EventsOn('live', (r: LiveReport) => {
    if (r && typeof r.build === 'string' && typeof r.target === 'string') cb(r);
  });
}

/** The targets with an apply to undo. */
export async function undoableApplies(): Promise<string[]> {
  return (await Themes.UndoableApplies()) ?? [];
}

export function getAuthState(): Promise<AuthState> {
  return Agents.GetAuthState();
}

/** Stores an OpenAI API key for later agents (keyring, else a private file). */
export function saveAPIKey(key: string): Promise<AuthState> {
  return Agents.SaveAPIKey(key);
}

export function signOut(): Promise<void> {
  return Agents.SignOut();
}

/**
 * Answers "authentication required": stores the API key (for a key method)
 * or runs the agent's method, then retries the interrupted turn; resolves
 * to the retried turn's id and the new sign-in state.
 */
export function signIn(req: SignInRequest): Promise<SignInResult> {
  return Agents.SignIn(req);
}

/** What a chat's session bar shows before its agent answers; sessionId "" = a new build. */
export function sessionBar(workspaceId: string, sessionId: string): Promise<BarState> {
  return Chats.SessionBar(workspaceId, sessionId);
}

/** Makes values the settings new builds with this agent start with. */
export function saveBuildDefaults(agentId: string, values: Record<string, OptionValue>): Promise<void> {
  return Chats.SaveBuildDefaults(agentId, values);
}

/** Opens a saved chat on its agent before the first message; resolves to the turn id of the opening. */
export function openChat(req: OpenRequest): Promise<string> {
  return Turns.OpenChat(req);
}

/** Up to limit messages of a chat's history before index before (-1: the newest). */
export function chatHistory(sessionId: string, before: number, limit: number): Promise<HistoryPage> {
  return Chats.ChatHistory(sessionId, before, limit);
}

/** Saves the chat as Markdown (the Codex session when there is one, else markdown); "" when cancelled. */
export function exportChat(sessionId: string, title: string, markdown: string): Promise<string> {
  return Chats.ExportChat(sessionId, title, markdown);
}

/** The native folder picker; "" when cancelled. */
export function chooseFolder(title: string): Promise<string> {
  return Desktop.ChooseFolder(title);
}

/** Whether the agent of a chat (or of new builds, with empty ids) can be started. */
export function checkAgent(workspaceId: string, sessionId: string): Promise<AgentCheck> {
  return Chats.CheckAgent(workspaceId, sessionId);
}

/** Changes a session setting: live when an agent holds the session, else with the next message. */
export function setSessionOption(req: OptionChange): Promise<OptionResult> {
  return Chats.SetSessionOption(req);
}

/** The agents list (agents.toml) with the MCP servers. */
export function agents(): Promise<AgentList> {
  return Agents.Agents();
}

export function saveAgents(list: AgentList): Promise<void> {
  return Agents.SaveAgents(list);
}

/** Chooses the agent New Build starts. */
export function setBuildAgent(id: string): Promise<void> {
  return Agents.SetBuildAgent(id);
}

/** Files and links the agent produced in the workspace, checked now. */
export function artifacts(workspaceId: string): Promise<Artifact[]> {
  return Builds.Artifacts(workspaceId).then((l) => l ?? []);
}

/** Opens an artifact; Go refuses files outside the workspace. */
export function openArtifact(workspaceId: string, uri: string): Promise<void> {
  return Builds.OpenArtifact(workspaceId, uri);
}

/** How long the page waits for a self-test plan: Go answers only when a script set CDXTHEME_SELFTEST_OUT. */
export const selfTestWaitMs = 3000;

/**
 * The start-up self-test plan, or null in normal use. The self-test is no
 * binding: the page asks with the event "selftest:ask" (again every 200 ms,
 * since Go may still be starting up) and Go answers "selftest:plan". An
 * abort (the view that asked is gone) stops asking and gives null.
 */
export function selfTest(signal?: AbortSignal): Promise<SelfTestPlan | null> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setInterval> | undefined;
    let over = false;
    const done = (plan: SelfTestPlan | null) => {
      if (over) return;
      over = true;
      clearInterval(timer);
      clearTimeout(giveUp);
      signal?.removeEventListener('abort', aborted);
      off();
      resolve(plan);
    };
    const aborted = () => done(null);
    const off = EventsOnce('selftest:plan', (plan: SelfTestPlan) => done(plan && typeof plan.active === 'boolean' ? plan : null));
    const giveUp = setTimeout(() => done(null), selfTestWaitMs);
    if (signal?.aborted) return done(null);
    signal?.addEventListener('abort', aborted);
    // The timer exists before the first ask: an answer that comes back at
    // once (inside EventsEmit) must still find it to clear.
    timer = setInterval(() => EventsEmit('selftest:ask'), 200);
    EventsEmit('selftest:ask');
  });
}

/** Reports what the UI rendered: kind "paint" (first frame), "reopened" (a saved chat's last turn on screen), "turn" (send→idle ms), "idle" (the frame after the turn ended: "stopped" or "ended"), "reply", "highlight" (the preview highlighter's colours), the navigation test's "rects", "bypass", "focused", "linkErrors", the drop test's "route", "mounted", or the editor test's "elements". */
export async function selfTestReport(kind: 'paint' | 'reopened' | 'turn' | 'idle' | 'reply' | 'highlight' | 'rects' | 'bypass' | 'focused' | 'linkErrors' | 'route' | 'mounted' | 'elements', text: string): Promise<void> {
  EventsEmit('selftest:report', kind, text);
}

/** Opens a web/mail link in the system browser; Go refuses other schemes. */
export function openLink(url: string): Promise<void> {
  return Desktop.OpenLink(url);
}

/** Opens a file inside the workspace with the OS; Go refuses paths outside it. */
export function openPath(workspaceId: string, path: string): Promise<void> {
  return Builds.OpenPath(workspaceId, path);
}

/** Creates a build from a dropped theme file (VS Code, base16/24, iTerm2, Alacritty, …). */
export function importTheme(req: ImportRequest): Promise<ImportResult> {
  return Themes.ImportTheme(req);
}

/** A file another program dropped onto the window, which Go read from GTK (app/drop.go). */
export interface FileDrop {
  token: string;
  x: number;
  y: number;
  names: string[];
}

/**
 * Whether Go takes the window's file drops (Wails' file drop, on Linux,
 * where WebKitGTK hands the page no File): then the page answers Go's
 * "file-drop" event instead of reading the drop itself.
 */
export function goTakesFileDrops(): boolean {
  const w = window as unknown as { wails?: { flags?: { enableWailsDragAndDrop?: boolean } } };
  return w.wails?.flags?.enableWailsDragAndDrop === true;
}

export function onFileDrop(cb: (d: FileDrop) => void): () => void {
  return EventsOn('file-drop', (d: FileDrop) => {
    if (d && typeof d.token === 'string' && typeof d.x === 'number' && typeof d.y === 'number') cb(d);
  });
}

/** Imports the file of Go's drop token as a new build. */
export function importDropped(token: string): Promise<ImportResult> {
  return Themes.ImportDropped(token);
}

/** Saves the build's theme as it is now as a named version. */
export function saveVersion(workspaceId: string, name: string): Promise<Version> {
  return Themes.SaveVersion(workspaceId, name);
}

/** A build's saved versions, newest first. */
export function versions(workspaceId: string): Promise<Version[]> {
  return Themes.Versions(workspaceId);
}

/** Compares any two themes: versions, turns (checkpoints) or builds. */
export function compareThemes(before: ThemeRef, after: ThemeRef): Promise<Comparison> {
  return Themes.CompareThemes(before, after);
}

/** The VS Code colour theme (JSON text) the vscode exporter makes of a theme document. */
export function vscodeTheme(doc: unknown): Promise<string> {
  return Themes.VSCodeTheme(JSON.stringify(doc));
}

/** A workspace's checkpoints, oldest first. */
export function checkpoints(workspaceId: string): Promise<checkpoint.Summary[]> {
  return Builds.Checkpoints(workspaceId).then((l) => l ?? []);
}

/** Restores a checkpoint; resolves to the checkpoint that undoes the restore. */
export function restoreCheckpoint(workspaceId: string, checkpointId: string): Promise<checkpoint.Summary> {
  return Builds.RestoreCheckpoint(workspaceId, checkpointId);
}

/** The theme before a turn (at the checkpoint) and after it, with the changed roles. */
export function compareCheckpoint(workspaceId: string, checkpointId: string): Promise<Comparison> {
  return Builds.CompareCheckpoint(workspaceId, checkpointId);
}

/** How long a gap in a turn's batch numbers is waited for before the held
 * batches are delivered anyway (a lost batch must not freeze the chat). */
export const reorderWaitMs = 250;

/**
 * Subscribes to batched turn events; returns the unsubscribe function.
 * Each turn's batches reach cb in the order Go sent them (by seq): the dev
 * bridge emits every event on a goroutine of its own, so they can overtake.
 */
export function onTurn(cb: (batch: TurnBatch) => void): () => void {
  const next = new Map<string, number>();
  const held = new Map<string, Map<number, TurnBatch>>();
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
  const off = EventsOn('turn', (batch: TurnBatch) => {
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

/** Subscribes to "a fresh session of this agent reported its options" (a pre-warm opened). */
export function onAgentOptions(cb: (agentId: string) => void): () => void {
  return EventsOn('agent-options', (ev: { agentId?: unknown }) => {
    if (ev && typeof ev.agentId === 'string') cb(ev.agentId);
  });
}

/** The editor's roles (palette entries first, then every role Go knows), locks, pending changes and undo/redo. */
export function editorState(workspaceId: string): Promise<EditorState> {
  return Editor.EditorState(workspaceId);
}

/** Measures a colour for a role without writing it: its hex, OKLCH and the pairs' contrast. */
export function tryColor(workspaceId: string, path: string, c: { hex: string } | { oklch: OKLCH }): Promise<ColorTrial> {
  return Editor.TryColor({ workspaceId, path, hex: 'hex' in c ? c.hex : '', oklch: 'oklch' in c ? c.oklch : undefined });
}

/** The colour nearest the role's own in OKLCH lightness meeting target against all its pairs (not written). */
export function makePass(workspaceId: string, path: string, target: number): Promise<ColorTrial> {
  return Editor.MakePass(workspaceId, path, target);
}

/** Writes one colour into theme.json (a checkpoint first; undoable; told to the agent next prompt). */
export function editColor(workspaceId: string, path: string, hex: string): Promise<EditorState> {
  return Editor.EditColor({ workspaceId, path, hex });
}

/**
 * Gives a palette entry a colour (adds it when new); every role following it
 * moves with it. One undo step. name is "blue", or "companion.blue" for the
 * companion's palette.
 */
export function setPaletteEntry(workspaceId: string, name: string, hex: string): Promise<EditorState> {
  return Editor.SetPaletteEntry({ workspaceId, name, hex });
}

/**
 * Makes a palette entry a ramp generated from its colour (steps 50 … 950 by
 * default; roles may then follow "blue.600"), or a single colour again
 * (ramp null). One undo step.
 */
export function setPaletteRamp(workspaceId: string, name: string, ramp: { steps?: number[]; at?: number } | null): Promise<EditorState> {
  return Editor.SetPaletteRamp({ workspaceId, name, ramp: ramp ?? undefined });
}

/** Makes a role follow a palette entry ("blue") or ramp step ("blue.600"). One undo step. */
export function attachRole(workspaceId: string, path: string, ref: string): Promise<EditorState> {
  return Editor.AttachRole(workspaceId, path, ref);
}

/** Gives a role its own colour (the one it has) instead of following the palette. One undo step. */
export function detachRole(workspaceId: string, path: string): Promise<EditorState> {
  return Editor.DetachRole(workspaceId, path);
}

export function setLock(workspaceId: string, path: string, locked: boolean): Promise<EditorState> {
  return Editor.SetLock(workspaceId, path, locked);
}

/** Derives the theme's other appearance into theme.json (again, over one it has); an undoable edit. */
export function deriveCompanion(workspaceId: string): Promise<EditorState> {
  return Editor.DeriveCompanion(workspaceId);
}

/** Drops the theme's other appearance; an undoable edit. */
export function removeCompanion(workspaceId: string): Promise<EditorState> {
  return Editor.RemoveCompanion(workspaceId);
}

export function undoEdit(workspaceId: string): Promise<EditorState> {
  return Editor.UndoEdit(workspaceId);
}

export function redoEdit(workspaceId: string): Promise<EditorState> {
  return Editor.RedoEdit(workspaceId);
}

/** Subscribes to "a workspace's hand-edit state changed" (locked colours someone rewrote, put back: `notice` says which). */
export function onEditor(cb: (workspaceId: string, notice: string) => void): () => void {
  return EventsOn('editor', (ev: { workspaceId?: unknown; notice?: unknown }) => {
    if (ev && typeof ev.workspaceId === 'string') cb(ev.workspaceId, typeof ev.notice === 'string' ? ev.notice : '');
  });
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
