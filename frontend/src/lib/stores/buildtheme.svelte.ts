// The theme of each open build, as one store: both variants (the theme and
// its companion, the other appearance) as Go resolved them, the hand
// editor's roles, palette, locks and undo/redo, which variant the editor's
// tab shows, the role open in the picker, the colour being tried, and what
// the previews paint. Every colour maths (OKLCH, contrast, make-it-pass) is
// Go's; this only asks.
//
// Go's theme state and its editor state are asked together and replaced as
// one snapshot, so the previews and the editor never show two versions of
// the theme: a companion an undo dropped is gone from the variant preview,
// the editor's tabs and the picker at the same moment. Bridge answers and
// events arrive in no promised order: an event or an action's answer only
// says "ask again", and the answer to the latest asking wins.
import * as api from '../api';
import type { Check, ColorTrial, EditorRole, EditorState, OKLCH, ThemeDocument, ThemeState } from '../types';
import type { RoleColor } from '../theme';

const emptyEditor: EditorState = { roles: [], changed: [], canUndo: false, canRedo: false, undoLabel: '', redoLabel: '' };

/** Which variant of the build's theme the editor shows: the theme, or its companion. */
export type EditorDocument = 'theme' | 'companion';

/** Starts the path of a companion's colour in Go (theme.CompanionPrefix; theme.Split decides). */
export const companionPrefix = 'companion.';

/** The path Go takes for a role of the companion ("ui.accent" → "companion.ui.accent"). */
export const companionPath = (role: string): string => companionPrefix + role;

/** A path as its own document names it (the companion's without the prefix), for display. */
export const within = (path: string): string => (path.startsWith(companionPrefix) ? path.slice(companionPrefix.length) : path);

/** What the previews paint: the theme and its companion, a tried colour in place. */
export interface Shown {
  theme: ThemeDocument | null;
  roles: RoleColor[];
  companion: ThemeState | null;
}

/** Go's theme and editor state of one moment; gen counts them. */
interface Snapshot {
  gen: number;
  theme: ThemeState | null;
  editor: EditorState;
}

export class BuildTheme {
  readonly workspaceId: string;
  private snap = $state.raw<Snapshot>({ gen: 0, theme: null, editor: emptyEditor });
  /** What Go says is wrong with theme.json (the last valid theme stays shown), or why it could not be read. */
  broken = $state('');
  /** The last action that failed, in Go's words. */
  error = $state('');
  /** What the app did on its own, e.g. locked colours someone rewrote, put back (Go's words). */
  notice = $state('');
  busy = $state(false);
  loading = $state(false);
  /** The role path open in the picker, or "". */
  selected = $state('');
  /** The variant the designer chose in the editor's tabs (shown only while there is a companion). */
  doc = $state<EditorDocument>('theme');
  /** The colour tried for the selected role, not yet written. */
  trial = $state.raw<ColorTrial | null>(null);
  /** The snapshot the trial was measured on: the previews show it only on that one. */
  private trialGen = $state(-1);
  /** Changed while not shown: asked again when shown. */
  stale = true;
  private latest = 0;
  private latestTrial = 0;

  constructor(workspaceId: string) {
    this.workspaceId = workspaceId;
  }

  /** Asks Go for the theme and the editor state together and shows both at once. */
  async sync(): Promise<void> {
    const mine = ++this.latest;
    this.stale = false;
    const [th, ed] = await Promise.all([settle(api.theme(this.workspaceId)), settle(api.editorState(this.workspaceId))]);
    if (mine === this.latest) this.take(th, ed);
  }

  /** Loads the build's theme (shows a spinner the first time). */
  async load(): Promise<void> {
    this.loading = true;
    try {
      await this.sync();
    } finally {
      this.loading = false;
    }
  }

  /** Go's "theme" event for this build: theme.json changed (the agent, an edit, an undo, a restore). */
  changed(): void {
    // An action of ours asks again when its answer arrives.
    if (!this.busy) void this.sync();
  }

  /** Go's "editor" event: the hand-edit state changed, perhaps with a notice. */
  edited(notice: string): void {
    if (notice) this.notice = notice;
    if (!this.busy) void this.sync();
  }

  private take(th: Settled<ThemeState>, ed: Settled<EditorState>): void {
    if (!th.ok) {
      this.broken = api.errorMessage(th.error);
      return;
    }
    this.broken = th.value.error ?? '';
    // A broken theme.json: the last valid theme stays, with the editor of that theme.
    if (!th.value.theme) return;
    if (!ed.ok) this.error = api.errorMessage(ed.error);
    this.snap = { gen: this.snap.gen + 1, theme: th.value, editor: ed.ok ? ed.value : this.snap.editor };
    // The picker follows: its role as it now is, or closed when the role is
    // gone (the variant removed or undone).
    if (!this.selected) return;
    const r = this.role(this.selected);
    if (r) void this.try({ hex: r.color });
    else this.deselect();
  }

  /** The theme as Go last read it (the last valid one). */
  get theme(): ThemeDocument | null {
    return (this.snap.theme?.theme as ThemeDocument | undefined) ?? null;
  }

  get checks(): Check[] {
    return this.snap.theme?.checks ?? [];
  }

  /** Every role as Go resolved it (set or derived). */
  get roles(): RoleColor[] {
    return this.snap.theme?.roles ?? [];
  }

  /** The theme's other appearance (theme.json's companion), as Go states it. */
  get companion(): ThemeState | null {
    const c = this.snap.theme?.companion;
    return c?.theme ? c : null;
  }

  /** The contrast pairs below AA. */
  get failures(): Check[] {
    return this.checks.filter((c) => !c.aa);
  }

  /** Go's editor state: every role of both variants (palette entries first), locks, undo/redo. */
  get state(): EditorState {
    return this.snap.editor;
  }

  /** Whether the theme has a companion. */
  get hasCompanion(): boolean {
    return !!this.companion;
  }

  /** The variant the editor shows: the companion only while there is one. */
  get shown(): EditorDocument {
    return this.hasCompanion ? this.doc : 'theme';
  }

  role(path: string): EditorRole | undefined {
    return this.state.roles.find((r) => r.path === path);
  }

  /** The editor's roles of a variant (of the one shown by default). */
  rolesOf(doc: EditorDocument = this.shown): EditorRole[] {
    const companion = doc === 'companion';
    if (companion && !this.hasCompanion) return [];
    return this.state.roles.filter((r) => !!r.companion === companion);
  }

  /** A variant's palette entries. */
  paletteOf(doc: EditorDocument = this.shown): EditorRole[] {
    return this.rolesOf(doc).filter((r) => r.group === 'palette');
  }

  /**
   * What the previews paint: Go's theme, or the tried colour in place while
   * it was measured on it. A getter, not $derived: a store made inside a
   * view's effect outlives that effect, and a derived it owned would go stale.
   */
  get preview(): Shown {
    const tr = this.trialGen === this.snap.gen ? this.trial : null;
    const companion = this.companion;
    const doc = (tr?.theme as ThemeDocument | undefined) ?? this.theme;
    const triedCompanion = tr?.theme?.companion as ThemeDocument | undefined;
    return {
      theme: doc,
      roles: tr?.roles ?? this.roles,
      companion: companion && triedCompanion && tr?.companionRoles ? { ...companion, theme: triedCompanion, roles: tr.companionRoles } : companion,
    };
  }

  /** Shows a variant's roles; a picker open on the other one closes. */
  show(doc: EditorDocument): void {
    if (doc === this.doc) return;
    this.doc = doc;
    if (this.selected && !!this.role(this.selected)?.companion !== (doc === 'companion')) this.deselect();
  }

  /** Opens the picker on a role (of either variant, which is then shown) and measures its current colour. */
  async select(path: string): Promise<void> {
    this.selected = path;
    this.error = '';
    const r = this.role(path);
    if (r) this.doc = r.companion ? 'companion' : 'theme';
    this.trial = null;
    if (r) await this.try({ hex: r.color });
  }

  deselect(): void {
    this.selected = '';
    this.trial = null;
  }

  /** Tries a colour for the selected role: live contrast, previews only. */
  async try(c: { hex: string } | { oklch: OKLCH }): Promise<void> {
    const path = this.selected;
    if (!path) return;
    const mine = ++this.latestTrial;
    const gen = this.snap.gen;
    try {
      const tr = await api.tryColor(this.workspaceId, path, c);
      if (mine === this.latestTrial && path === this.selected) {
        this.trial = tr;
        this.trialGen = gen;
        this.error = '';
      }
    } catch (e) {
      if (mine === this.latestTrial) this.error = api.errorMessage(e);
    }
  }

  /** Runs one edit in Go, then shows the theme and the editor as Go now has them. */
  private async run(edit: () => Promise<unknown>): Promise<boolean> {
    this.busy = true;
    try {
      await edit();
      this.error = '';
    } catch (e) {
      this.error = api.errorMessage(e);
      return false;
    } finally {
      this.busy = false;
    }
    await this.sync();
    return true;
  }

  /** Writes the colour (the tried one by default) into theme.json. */
  async commit(hex?: string): Promise<void> {
    const path = this.selected;
    const value = hex ?? this.trial?.hex;
    if (!path || !value) return;
    // A palette entry goes through the palette's own binding: the entry and
    // every role following it move as one step.
    const entry = /^(companion\.)?palette\.(.+)$/.exec(path);
    await this.run(() => (entry ? api.setPaletteEntry(this.workspaceId, (entry[1] ?? '') + entry[2], value) : api.editColor(this.workspaceId, path, value)));
  }

  /** Moves the selected role's lightness to the nearest value meeting target, and writes it. */
  async makePass(target: number): Promise<void> {
    const path = this.selected;
    if (!path) return;
    try {
      const tr = await api.makePass(this.workspaceId, path, target);
      this.trial = tr;
      this.trialGen = this.snap.gen;
      await this.commit(tr.hex);
    } catch (e) {
      this.error = api.errorMessage(e);
    }
  }

  /** Makes a palette entry a ramp (or a single colour again); one undo step. */
  async ramp(path: string, on: boolean): Promise<void> {
    const entry = /^(companion\.)?palette\.(.+)$/.exec(path);
    if (!entry) return;
    await this.run(() => api.setPaletteRamp(this.workspaceId, (entry[1] ?? '') + entry[2], on ? {} : null));
  }

  /** Makes a role follow a palette entry or ramp step ("" gives it its own colour); one undo step. */
  async follow(path: string, ref: string): Promise<void> {
    await this.run(() => (ref ? api.attachRole(this.workspaceId, path, ref) : api.detachRole(this.workspaceId, path)));
  }

  /** Gives a role its own colour instead of following the palette; one undo step. */
  detach(path: string): Promise<void> {
    return this.follow(path, '');
  }

  async lock(path: string, locked: boolean): Promise<void> {
    await this.run(() => api.setLock(this.workspaceId, path, locked));
  }

  /** Derives the other appearance (again over one the theme has); one undo step. */
  async deriveCompanion(): Promise<void> {
    await this.run(() => api.deriveCompanion(this.workspaceId));
  }

  /** Drops the other appearance; one undo step. */
  async removeCompanion(): Promise<void> {
    await this.run(() => api.removeCompanion(this.workspaceId));
  }

  async undo(): Promise<void> {
    await this.run(() => api.undoEdit(this.workspaceId));
  }

  async redo(): Promise<void> {
    await this.run(() => api.redoEdit(this.workspaceId));
  }
}

/** Builds whose theme is kept besides the shown one (their chats are open). */
export const maxKeptBuilds = 8;

/**
 * The open builds' themes, one BuildTheme each, fed by Go's "theme" and
 * "editor" events (routed by workspace, like the chat store routes turns).
 * The shown build follows them live; a kept one is asked again when shown.
 */
export class BuildThemes {
  /** The build the chat shows, or null. */
  current = $state.raw<BuildTheme | null>(null);
  private kept = new Map<string, BuildTheme>();
  private off: (() => void)[] = [];

  /** Shows a build's theme; keeps those of the builds in open (the other open chats), drops the rest. */
  show(workspaceId: string, open: string[] = []): BuildTheme | null {
    if (!this.off.length) {
      this.off.push(
        api.onTheme((ev) => this.route(ev.workspaceId, (b) => b.changed())),
        api.onEditor((ws, notice) => {
          // A notice waits for its build to be shown again.
          const b = this.kept.get(ws);
          if (b && notice) b.notice = notice;
          this.route(ws, (b) => b.edited(''));
        }),
      );
    }
    const keep = new Set([...open, workspaceId]);
    for (const id of this.kept.keys()) if (!keep.has(id)) this.kept.delete(id);
    while (this.kept.size >= maxKeptBuilds && !this.kept.has(workspaceId)) this.kept.delete(this.kept.keys().next().value!);
    if (!workspaceId) {
      this.current = null;
      return null;
    }
    let b = this.kept.get(workspaceId);
    if (!b) {
      b = new BuildTheme(workspaceId);
      this.kept.set(workspaceId, b);
    }
    this.current = b;
    if (b.stale) void b.load();
    return b;
  }

  /** The chat view closed: nothing is shown, and every kept build is asked again when shown. */
  hide(): void {
    for (const u of this.off) u();
    this.off = [];
    for (const b of this.kept.values()) b.stale = true;
    this.current = null;
  }

  /** A kept build's theme, if any. */
  get(workspaceId: string): BuildTheme | undefined {
    return this.kept.get(workspaceId);
  }

  private route(workspaceId: string, f: (b: BuildTheme) => void): void {
    const b = this.kept.get(workspaceId);
    if (!b) return;
    if (b === this.current) f(b);
    else b.stale = true;
  }
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  return p.then(
    (value) => ({ ok: true as const, value }),
    (error) => ({ ok: false as const, error }),
  );
}

export const buildThemes = new BuildThemes();
