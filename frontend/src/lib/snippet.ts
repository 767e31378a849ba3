// A search snippet from Go is plain (untrusted) text plus highlighted spans
// in code points. It is cut into parts the view renders as text nodes, some
// inside <mark>: nothing in the text can become markup.
export interface SnippetPart {
  text: string;
  hit: boolean;
}

export function snippetParts(text: string, marks?: { start: number; end: number }[] | null): SnippetPart[] {
  const cps = Array.from(text ?? '');
  const spans = (marks ?? [])
    .filter((m) => Number.isInteger(m?.start) && Number.isInteger(m?.end) && m.start < m.end)
    .map((m) => ({ start: Math.max(0, m.start), end: Math.min(cps.length, m.end) }))
    .filter((m) => m.start < m.end)
    .sort((a, b) => a.start - b.start);
  const parts: SnippetPart[] = [];
  let at = 0;
  for (const m of spans) {
    if (m.start < at) continue; // overlapping spans: the first wins
    if (m.start > at) parts.push({ text: cps.slice(at, m.start).join(''), hit: false });
    parts.push({ text: cps.slice(m.start, m.end).join(''), hit: true });
    at = m.end;
  }
  if (at < cps.length) parts.push({ text: cps.slice(at).join(''), hit: false });
  return parts;
}

/** Only #rrggbb reaches a style attribute, whatever a theme.json held. */
export function safeColor(c: string): string | null {
  return /^#[0-9a-fA-F]{6}$/.test(c) ? c : null;
}
