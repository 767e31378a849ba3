// The note the app appends to a prompt (Go: core/handedit PromptNote;
// codexhome.SplitAppNote reads it the same way): the agent needs it, but it
// is the app's words, not the user's, wherever a prompt is shown again
// (an agent's replay of the chat, a transcript).
const open = '<hand-edits>';
const close = '</hand-edits>';

/** The user's own words and the app's note that ends the text ('' if none). */
export function splitAppNote(text: string): { words: string; note: string } {
  const t = text.trimEnd();
  if (!t.endsWith(close)) return { words: text, note: '' };
  const i = t.lastIndexOf(open);
  if (i < 0 || (i > 0 && t[i - 1] !== '\n')) return { words: text, note: '' };
  return { words: t.slice(0, i).trimEnd(), note: t.slice(i + open.length, t.length - close.length).trim() };
}
