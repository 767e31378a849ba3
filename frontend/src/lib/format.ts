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
