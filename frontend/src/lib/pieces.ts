/** The size of one piece of a long verbatim message (see splitPieces). */
export const plainPiece = 64 * 1024;

/**
 * text cut into pieces of plainPiece UTF-16 units (never inside a
 * surrogate pair); the pieces of a text that only grew are the same
 * strings as before except the last, so a keyed list redraws that one.
 */
export function splitPieces(text: string, size = plainPiece): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(at + size, text.length);
    const c = text.charCodeAt(end - 1);
    if (end < text.length && c >= 0xd800 && c <= 0xdbff) end--; // keep the pair whole
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}
