/** The size of one piece of a long verbatim message (see splitPieces). */
export const plainPiece = 64 * 1024;

/**
 * text cut into pieces of at most plainPiece UTF-16 units, each ending
 * after a line break when one falls in its second half (so a piece drawn
 * as a block of its own does not break a line the text does not), never
 * inside a surrogate pair. A cut depends only on the text before it, so
 * the pieces of a text that only grew are the same strings as before
 * except the last, and a keyed list redraws that one.
 */
export function splitPieces(text: string, size = plainPiece): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(at + size, text.length);
    if (end < text.length) {
      const nl = text.lastIndexOf('\n', end - 1);
      if (nl >= at + size / 2) end = nl + 1;
      const c = text.charCodeAt(end - 1);
      if (c >= 0xd800 && c <= 0xdbff) end--; // keep the pair whole
    }
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}
