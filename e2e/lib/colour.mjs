// A role's value in theme.json as a colour: since version 3 a value that
// does not start with # names a palette entry (a colour, or a ramp whose
// bare name is its base), which the document's own palette resolves.
export function resolve(doc, v) {
  const value = v && typeof v === 'object' && !Array.isArray(v) ? v.color : v;
  if (typeof value !== 'string' || value.startsWith('#')) return value;
  const e = doc?.palette?.[value];
  return typeof e === 'string' ? e : e?.base;
}

/** The CSS rgb() a #rrggbb gives, as getComputedStyle reports it. */
export function rgb(hex) {
  const h = hex.replace('#', '');
  return `rgb(${parseInt(h.slice(0, 2), 16)}, ${parseInt(h.slice(2, 4), 16)}, ${parseInt(h.slice(4, 6), 16)})`;
}
