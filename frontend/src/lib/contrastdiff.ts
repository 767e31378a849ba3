// How a turn moved the theme's contrast: the pairs Go measured before and
// after it (core/theme Checks, carried by each side of a Comparison),
// matched by their roles.
import type { Check } from './types';

/** One contrast pair on both sides of a turn; a side lacks it when that theme did not measure it. */
export interface PairChange {
  key: string;
  fgRole: string;
  bgRole: string;
  before?: Check;
  after?: Check;
  /** fixed: failed AA before, passes after; broken: the reverse; '' otherwise. */
  change: 'fixed' | 'broken' | '';
}

export const pairKey = (c: Pick<Check, 'fgRole' | 'bgRole'>) => `${c.fgRole}|${c.bgRole}`;

/** The ratio as the contrast table shows it: truncated, never rounded up, so 4.499 cannot read as a passing 4.50. */
export const fmtRatio = (r: number | undefined) => (typeof r === 'number' ? `${(Math.floor(r * 100 + 1e-6) / 100).toFixed(2)}:1` : '–');

/**
 * The pairs whose ratio (or AA verdict) differs between before and after,
 * or that only one side measured. Failures first: pairs failing AA after
 * the turn, then pairs that failed before it (the fixed ones), then the
 * rest; each group worst first.
 */
export function changedPairs(before: Check[] | null | undefined, after: Check[] | null | undefined): PairChange[] {
  const out = new Map<string, PairChange>();
  for (const [side, list] of [['before', before ?? []], ['after', after ?? []]] as const) {
    for (const c of list) {
      const k = pairKey(c);
      const p = out.get(k) ?? { key: k, fgRole: c.fgRole, bgRole: c.bgRole, change: '' as const };
      p[side] ??= c; // Go measures a pair once; keep the first should that ever change
      out.set(k, p);
    }
  }
  const rank = (p: PairChange) => (p.after && !p.after.aa ? 0 : p.before && !p.before.aa ? 1 : 2);
  const worst = (p: PairChange) => p.after?.ratio ?? p.before?.ratio ?? 0;
  return [...out.values()]
    .filter((p) => !p.before || !p.after || p.before.ratio !== p.after.ratio || p.before.aa !== p.after.aa)
    .map((p) => ({ ...p, change: p.before && p.after && p.before.aa !== p.after.aa ? (p.after.aa ? 'fixed' : 'broken') : '' }) as PairChange)
    .sort((a, b) => rank(a) - rank(b) || worst(a) - worst(b));
}

/** The pair with the lowest ratio (the first in Go's order on a tie, or the one named by prefer). */
export function weakest(checks: Check[] | null | undefined, prefer?: string): Check | undefined {
  let w: Check | undefined;
  for (const c of checks ?? []) {
    if (!w || c.ratio < w.ratio || (c.ratio === w.ratio && prefer !== undefined && pairKey(c) === prefer && pairKey(w) !== prefer)) w = c;
  }
  return w;
}
