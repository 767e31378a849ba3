// Saved Codex sessions for Home: search with debounce, paging by limit.
import * as api from '../api';
import type { SessionSummary } from '../types';

export const pageSize = 50;

export class SessionsStore {
  list = $state<SessionSummary[]>([]);
  query = $state('');
  limit = $state(pageSize);
  loading = $state(false);
  error = $state('');
  hint = $state('');
  /** Go's code and folder for hint, which lib/hints.ts words in the UI language. */
  hintCode = $state('');
  hintDir = $state('');
  /** True when the last answer filled the limit, so more may exist. */
  more = $state(false);
  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  async load(): Promise<void> {
    const seq = ++this.seq;
    this.loading = true;
    try {
      const res = await api.sessions(this.query.trim(), this.limit);
      if (seq !== this.seq) return; // a newer search superseded this one
      this.list = res.sessions ?? [];
      this.hint = res.hint ?? '';
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
    if (delayMs <= 0) return this.load();
    return new Promise((resolve) => {
      this.timer = setTimeout(() => resolve(this.load()), delayMs);
    });
  }

  loadMore(): Promise<void> {
    this.limit += pageSize;
    return this.load();
  }
}

export const sessions = new SessionsStore();
