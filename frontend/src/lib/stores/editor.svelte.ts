// The hand editor of one workspace's theme: which role is open in the
// picker, the colour being tried (shown in the preview before it is
// written), which document of the family is shown (the theme or its
// companion, the other appearance), and Go's editor state (roles, locks,
// undo/redo). Every colour maths (OKLCH, contrast, make-it-pass) is Go's;
// this only asks.
import * as api from '../api';
import type { ColorTrial, EditorRole, EditorState, OKLCH, ThemeDocument, ThemeState } from '../types';

const empty: EditorState = { roles: [], changed: [], canUndo: false, canRedo: false, undoLabel: '', redoLabel: '' };

/** Which document of the family the editor shows: the theme, or its companion. */
export type EditorDocument = 'theme' | 'companion';

/** Starts the path of a companion's colour in Go (theme.CompanionPrefix; theme.Split decides). */
export const companionPrefix = 'companion.';

/** The path Go takes for a role of the companion ("ui.accent" → "companion.ui.accent"). */
export const companionPath = (role: string): string => companionPrefix + role;

/** A path as its own document names it (the companion's without the prefix), for display. */
export const within = (path: string): string => (path.startsWith(companionPrefix) ? path.slice(companionPrefix.length) : path);

export class EditorStore {
  workspaceId = $state('');
  state = $state<EditorState>(empty);
  /** The role path open in the picker, or "". */
  selected = $state('');
  /** The document whose roles the editor lists (the theme's until the designer picks the variant). */
  doc = $state<EditorDocument>('theme');
  /** The colour tried for the selected role, not yet written. */
  trial = $state<ColorTrial | null>(null);
  error = $state('');
  /** What the app did on its own, e.g. locked colours someone rewrote, put back (Go's words). */
  notice = $state('');
  busy = $state(false);
  private unsubscribe: (() => void)[] = [];
  // The answer to the latest ask wins; state and trials are asked apart.
  private latest = 0;
  private latestTrial = 0;

  async open(workspaceId: string): Promise<void> {
    if (this.workspaceId !== workspaceId) {
      this.state = empty;
      this.selected = '';
      this.doc = 'theme';
      this.trial = null;
      this.error = '';
      this.notice = '';
    }
    this.workspaceId = workspaceId;
    if (!this.unsubscribe.length) {
      // theme.json changed (the agent, an edit, an undo): the roles are
      // read again and the picker shows its role's colour as it now is.
      const again = async (ws: string) => {
        if (ws !== this.workspaceId) return;
        await this.refresh();
        if (!this.selected) return;
        const r = this.role(this.selected);
        // A role gone (the variant removed or undone) closes the picker.
        if (r) void this.try({ hex: r.color });
        else this.deselect();
      };
      this.unsubscribe.push(
        api.onTheme((ev) => void again(ev.workspaceId)),
        api.onEditor((ws, notice) => {
          if (notice && ws === this.workspaceId) this.notice = notice;
          void again(ws);
        }),
      );
    }
    if (workspaceId) await this.refresh();
  }

  close(): void {
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    this.workspaceId = '';
    this.selected = '';
    this.doc = 'theme';
    this.trial = null;
  }

  async refresh(): Promise<void> {
    const ws = this.workspaceId;
    const mine = ++this.latest;
    try {
      const st = await api.editorState(ws);
      if (mine === this.latest && ws === this.workspaceId) this.state = st;
    } catch (e) {
      if (mine === this.latest) this.error = api.errorMessage(e);
    }
  }

  role(path: string): EditorRole | undefined {
    return this.state.roles.find((r) => r.path === path);
  }

  /** Whether the theme has a companion (Go lists its roles). */
  get hasCompanion(): boolean {
    return this.state.roles.some((r) => r.companion);
  }

  /** The document shown: the companion only while there is one. */
  get shown(): EditorDocument {
    return this.hasCompanion ? this.doc : 'theme';
  }

  /** The roles of a document (of the one shown by default). */
  rolesOf(doc: EditorDocument = this.shown): EditorRole[] {
    const companion = doc === 'companion';
    return this.state.roles.filter((r) => !!r.companion === companion);
  }

  /** Shows a document's roles; a picker open on the other one closes. */
  show(doc: EditorDocument): void {
    if (doc === this.doc) return;
    this.doc = doc;
    if (this.selected && !!this.role(this.selected)?.companion !== (doc === 'companion')) this.deselect();
  }

  /** Opens the picker on a role (of either document, which is then shown) and measures its current colour. */
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

  /** Tries a colour for the selected role: live contrast, preview only. */
  async try(c: { hex: string } | { oklch: OKLCH }): Promise<void> {
    const path = this.selected;
    if (!path) return;
    const mine = ++this.latestTrial;
    try {
      const tr = await api.tryColor(this.workspaceId, path, c);
      if (mine === this.latestTrial && path === this.selected) {
        this.trial = tr;
        this.error = '';
      }
    } catch (e) {
      if (mine === this.latestTrial) this.error = api.errorMessage(e);
    }
  }

  private async run(f: () => Promise<EditorState>): Promise<boolean> {
    this.busy = true;
    try {
      this.state = await f();
      this.error = '';
      return true;
    } catch (e) {
      this.error = api.errorMessage(e);
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** Writes the colour (the tried one by default) into theme.json. */
  async commit(hex?: string): Promise<void> {
    const path = this.selected;
    const value = hex ?? this.trial?.hex;
    if (!path || !value) return;
    // A palette entry goes through the palette's own binding: the entry and
    // every role following it move as one step.
    const entry = /^(companion\.)?palette\.(.+)$/.exec(path);
    const write = entry ? () => api.setPaletteEntry(this.workspaceId, (entry[1] ?? '') + entry[2], value) : () => api.editColor(this.workspaceId, path, value);
    if (await this.run(write)) await this.try({ hex: value });
  }

  /** Moves the selected role's lightness to the nearest value meeting target, and writes it. */
  async makePass(target: number): Promise<void> {
    const path = this.selected;
    if (!path) return;
    try {
      const tr = await api.makePass(this.workspaceId, path, target);
      this.trial = tr;
      await this.commit(tr.hex);
    } catch (e) {
      this.error = api.errorMessage(e);
    }
  }

  /** Makes the selected palette entry a ramp (or a single colour again); one undo step. */
  async ramp(path: string, on: boolean): Promise<void> {
    const entry = /^(companion\.)?palette\.(.+)$/.exec(path);
    if (!entry) return;
    if (await this.run(() => api.setPaletteRamp(this.workspaceId, (entry[1] ?? '') + entry[2], on ? {} : null))) this.retry();
  }

  /** Makes a role follow a palette entry or ramp step; one undo step. */
  async attach(path: string, ref: string): Promise<void> {
    if (await this.run(() => api.attachRole(this.workspaceId, path, ref))) this.retry();
  }

  /** Gives a role its own colour instead of following the palette; one undo step. */
  async detach(path: string): Promise<void> {
    if (await this.run(() => api.detachRole(this.workspaceId, path))) this.retry();
  }

  async lock(path: string, locked: boolean): Promise<void> {
    await this.run(() => api.setLock(this.workspaceId, path, locked));
  }

  /** Derives the other appearance (again); removes it with remove. */
  async companion(remove = false): Promise<void> {
    await this.run(() => (remove ? api.removeCompanion(this.workspaceId) : api.deriveCompanion(this.workspaceId)));
  }

  async undo(): Promise<void> {
    if (await this.run(() => api.undoEdit(this.workspaceId))) this.retry();
  }

  async redo(): Promise<void> {
    if (await this.run(() => api.redoEdit(this.workspaceId))) this.retry();
  }

  private retry(): void {
    const r = this.selected && this.role(this.selected);
    if (r) void this.try({ hex: r.color });
  }

  /** The theme with the tried colour in place (Go's), for the preview while the picker moves. */
  preview(doc: ThemeDocument | null): ThemeDocument | null {
    return (this.trial?.theme as ThemeDocument | undefined) ?? doc;
  }

  /** Every role as the tried colour paints it (derived ones follow), else roles. */
  resolved<R>(roles: R[]): R[] | ColorTrial['roles'] {
    return this.trial?.roles ?? roles;
  }

  /** The companion as the tried colour paints it (a trial of one of its roles moves it), else companion. */
  previewCompanion(companion: ThemeState | null): ThemeState | null {
    const doc = this.trial?.theme?.companion as ThemeDocument | undefined;
    const roles = this.trial?.companionRoles;
    if (!companion || !doc || !roles) return companion;
    return { ...companion, theme: doc, roles };
  }
}

export const editorStore = new EditorStore();
