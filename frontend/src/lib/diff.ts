// Line diff for the edit cards: old/new text → rows marked add/del/same.
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

/** Above this many cells the LCS table would be too big; fall back to delete-all/add-all. */
const maxCells = 4_000_000;

export function lineDiff(oldText: string | null | undefined, newText: string | null | undefined): DiffLine[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  // Trim the common head and tail so the LCS only sees the changed middle.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const out: DiffLine[] = [];
  for (let i = 0; i < start; i++) out.push({ op: 'same', text: a[i], oldNo: i + 1, newNo: i + 1 });
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;
  if (n * m > maxCells) {
    midA.forEach((text, i) => out.push({ op: 'del', text, oldNo: start + i + 1 }));
    midB.forEach((text, j) => out.push({ op: 'add', text, newNo: start + j + 1 }));
  } else {
    // lcs[i][j] = LCS length of midA[i:] and midB[j:]
    const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i][j] = midA[i] === midB[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        out.push({ op: 'same', text: midA[i], oldNo: start + i + 1, newNo: start + j + 1 });
        i++;
        j++;
      } else if (i < n && (j >= m || lcs[i + 1][j] >= lcs[i][j + 1])) {
        out.push({ op: 'del', text: midA[i], oldNo: start + i + 1 });
        i++;
      } else {
        out.push({ op: 'add', text: midB[j], newNo: start + j + 1 });
        j++;
      }
    }
  }
  const tailOffsetA = endA;
  const tailOffsetB = endB;
  for (let k = 0; k < a.length - endA; k++) {
    out.push({ op: 'same', text: a[tailOffsetA + k], oldNo: tailOffsetA + k + 1, newNo: tailOffsetB + k + 1 });
  }
  return out;
}
