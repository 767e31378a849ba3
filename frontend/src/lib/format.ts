// Dates and paths for lists.
export function formatDate(iso: string, lang: string, now = new Date()): string {
  const d = new Date(iso);
  // Go writes an unknown time as its zero value, 0001-01-01T00:00:00Z.
  if (!iso || Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1970) return '';
  const sameDay = d.toDateString() === now.toDateString();
  const opts: Intl.DateTimeFormatOptions = sameDay
    ? { hour: '2-digit', minute: '2-digit' }
    : d.getFullYear() === now.getFullYear()
      ? { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }
      : { year: 'numeric', month: 'short', day: 'numeric' };
  return new Intl.DateTimeFormat(lang, opts).format(d);
}

/** Shortens a path to its last parts for a list ("…/themes/work"). */
export function shortPath(p: string, parts = 2): string {
  if (!p) return '';
  const segs = p.split(/[\\/]+/).filter(Boolean);
  if (segs.length <= parts) return p;
  return '…/' + segs.slice(-parts).join('/');
}

/** A size in decimal units (kB, MB, GB) with one decimal, as download tools show it. */
export function formatBytes(n: number, lang: string): string {
  const units: [number, string][] = [
    [1e9, 'GB'],
    [1e6, 'MB'],
    [1e3, 'kB'],
  ];
  for (const [size, unit] of units) {
    if (n >= size) return `${new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(n / size)} ${unit}`;
  }
  return `${Math.max(0, Math.round(n))} B`;
}
