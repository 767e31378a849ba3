// Line diff for the edit cards: old/new text → rows marked add/del/same,
// by jsdiff (Myers' O((N+M)·D) algorithm: fast when the edit is small,
// whatever the file's size).
import { diffArrays } from 'diff';

export interface DiffLine {
  op: 'add' | 'del' | 'same';
  text: string;
  oldNo?: number;
  newNo?: number;
}

function splitLines(s: string | null | undefined): string[] {
  if (!s) return [];
  const lines = s.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The most edits (lines removed + lines added) a diff looks for. Myers'
 * work grows with their square, not with the file: a 100,000-line file with
 * a few hundred changed lines takes milliseconds. Past it (files rewritten
 * wholesale) the card shows every old line removed and every new one added,
 * which is true, if not minimal, instead of freezing the window.
 */
const maxEditLength = 1000;

export function lineDiff(oldText: string | null | undefined, newText: string | null | undefined): DiffLine[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const out: DiffLine[] = [];
  let oldNo = 1;
  let newNo = 1;
  const changes = diffArrays(a, b, { maxEditLength }) ?? [
    { value: a, removed: true, added: false, count: a.length },
    { value: b, removed: false, added: true, count: b.length },
  ];
  for (const c of changes) {
    for (const text of c.value) {
      if (c.removed) out.push({ op: 'del', text, oldNo: oldNo++ });
      else if (c.added) out.push({ op: 'add', text, newNo: newNo++ });
      else out.push({ op: 'same', text, oldNo: oldNo++, newNo: newNo++ });
    }
  }
  return out;
}
