// What a permission request's command looks like on screen, so that
// nothing in it can hide: a run of blank lines becomes one line saying how
// many it hid, a long run of spaces says how long it is, and invisible or
// direction-changing characters (bidi overrides, zero-width, other controls)
// are shown as their code point instead of acting on the text around them.

export type CmdPiece =
  | { kind: 'text'; text: string }
  /** An invisible or reordering character, shown as U+XXXX. */
  | { kind: 'invisible'; code: string }
  /** A run of spaces or tabs too long to see the end of. */
  | { kind: 'spaces'; count: number };

export type CmdLine =
  | { kind: 'line'; pieces: CmdPiece[] }
  /** Consecutive blank lines, shown as one. */
  | { kind: 'blank'; count: number };

/** Bidi controls, zero-width and other format characters, and controls other than tab. */
const invisible = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb]|\udb40[\udc00-\udc7f]/;
const longSpaces = /[ \t]{8,}/;

/** At most this many blank lines in a row are shown as they are. */
const keepBlank = 1;

function pieces(line: string): CmdPiece[] {
  const out: CmdPiece[] = [];
  let rest = line;
  while (rest) {
    const inv = invisible.exec(rest);
    const sp = longSpaces.exec(rest);
    const m = [inv, sp].filter((x): x is RegExpExecArray => !!x).sort((a, b) => a.index - b.index)[0];
    if (!m) {
      out.push({ kind: 'text', text: rest });
      break;
    }
    if (m.index > 0) out.push({ kind: 'text', text: rest.slice(0, m.index) });
    if (m === inv) {
      out.push({ kind: 'invisible', code: 'U+' + m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0') });
    } else {
      out.push({ kind: 'spaces', count: m[0].length });
    }
    rest = rest.slice(m.index + m[0].length);
  }
  return out;
}

/** Splits a command into lines for display (CR, LF, CRLF, U+2028/2029 all end a line). */
export function commandView(cmd: string): CmdLine[] {
  const lines = cmd.split(/\r\n|[\n\r\u2028\u2029\u0085]/);
  const out: CmdLine[] = [];
  let blank = 0;
  const flush = () => {
    if (blank > keepBlank) out.push({ kind: 'blank', count: blank });
    else for (let i = 0; i < blank; i++) out.push({ kind: 'line', pieces: [] });
    blank = 0;
  };
  for (const line of lines) {
    // Only spaces: blank to the eye (an invisible character is shown instead).
    if (line.trim() === '' && !invisible.test(line)) {
      blank++;
      continue;
    }
    flush();
    out.push({ kind: 'line', pieces: pieces(line) });
  }
  flush();
  return out;
}

/** How many lines the command has, as the shell would see them. */
export function lineCount(cmd: string): number {
  return cmd.split(/\r\n|[\n\r\u2028\u2029\u0085]/).length;
}
