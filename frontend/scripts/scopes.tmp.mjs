import { readFileSync } from 'node:fs';
import { createHighlighter } from 'shiki';
const [file, lang, ...words] = process.argv.slice(2);
const h = await createHighlighter({ themes: ['github-dark'], langs: [lang] });
const code = readFileSync(file, 'utf8');
const seen = new Set();
for (const line of h.codeToTokens(code, { lang, theme: 'github-dark', includeExplanation: true }).tokens)
  for (const t of line) for (const e of t.explanation ?? []) {
    const w = e.content.trim();
    if (!w || (words.length && !words.includes(w))) continue;
    const k = w + '  ' + e.scopes.map((s) => s.scopeName).slice(1).join(' ');
    if (!seen.has(k)) { seen.add(k); console.log(k); }
  }
