// Saved Codex sessions for Home: search with debounce, paging by limit,
// the internal/hidden filters, and the search index's first build.
import * as api from '../api';
import type { IndexStatus, search } from '../types';

export const pageSize = 50;

export class SessionsStore {
  list = $state<search.Result[]>([]);
  query = $state('');
  limit = $state(pageSize);
  loading = $state(false);
  error = $state('');
  hint = $state('');
  /** Text matches cover only the sessions indexed so far. */
  partial = $state(false);
  /** Why message text was not searched (no index): only titles and folders matched. */
  titlesOnly = $state('');
  /** Why the index could not be brought up to date: text matches are from its last update. */
  stale = $state('');
  showInternal = $state(false);
  showHidden = $state(false);
  index = $state<IndexStatus>({ building: false, first: false, done: 0, total: 0, changed: false });
  /** Go's code and folder for hint, which lib/hints.ts words in the UI language. */
  hintCode = $state('');
  hintDir = $state('');
  /** True when the last answer filled the limit, so more may exist. */
  more = $state(false);
  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Settles the debounced search a newer one replaced, so nobody awaits it forever. */
  private superseded: (() => void) | undefined;

  async load(): Promise<void> {
    const seq = ++this.seq;
    this.loading = true;
    try {
      const res = await api.sessions(this.query.trim(), this.limit, { showInternal: this.showInternal, showHidden: this.showHidden });
      if (seq !== this.seq) return; // a newer search superseded this one
      this.list = res.sessions ?? [];
      this.hint = res.hint ?? '';
      this.partial = !!res.partial;
      this.titlesOnly = res.titlesOnly ?? '';
      this.stale = res.stale ?? '';
      this.hintCode = res.hintCode ?? '';
      this.hintDir = res.hintDir ?? '';
      this.error = '';
      this.more = this.list.length >= this.limit;
    } catch (e) {
      if (seq === this.seq) this.error = api.errorMessage(e);
    } finally {
      if (seq === this.seq) this.loading = false;
    }
  }

  /** Sets the search text; the list reloads after a short pause in typing. */
  search(q: string, delayMs = 200): Promise<void> {
    this.query = q;
    this.limit = pageSize;
    clearTimeout(this.timer);
    this.superseded?.();
    this.superseded = undefined;
    if (delayMs <= 0) return this.load();
    return new Promise((resolve) => {
      this.superseded = resolve;
      this.timer = setTimeout(() => {
        this.superseded = undefined;
        resolve(this.load());
      }, delayMs);
    });
  }

  loadMore(): Promise<void> {
    this.limit += pageSize;
    return this.load();
  }

  setFilter(f: { showInternal?: boolean; showHidden?: boolean }): Promise<void> {
    if (f.showInternal !== undefined) this.showInternal = f.showInternal;
    if (f.showHidden !== undefined) this.showHidden = f.showHidden;
    return this.load();
  }

  /** The index reported progress or a change: a search in view is run again when its answer may differ. */
  indexed(st: IndexStatus): Promise<void> | void {
    const wasPartial = this.index.building && this.index.first;
    this.index = st;
    if (this.query.trim() && !st.building && (st.changed || wasPartial)) return this.load();
  }

  async rename(id: string, title: string): Promise<void> {
    await api.renameSession(id, title);
    await this.load();
  }

  async hide(id: string, hidden: boolean): Promise<void> {
    await api.hideSession(id, hidden);
    await this.load();
  }
}

export const sessions = new SessionsStore();
