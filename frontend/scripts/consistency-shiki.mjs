// The consistency test's Shiki half (internal/suites/consistency): one process
// paints every sample file with every theme twice — through the app
// preview's own module (src/lib/shikiPreview.ts, loaded by Vite as the app
// loads it: JavaScript regex engine, the preview's grammar list) and
// through Shiki's full bundle with the Oniguruma engine VS Code itself
// uses — and prints the tokens as JSON on stdout.
// Input: argv[2] is a JSON file {themes: [{name, vscode}], files: [{path, lang}]}
// where vscode is the exported colour theme file's path.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { createServer } from 'vite';
import { bundledLanguagesInfo, createHighlighter } from 'shiki';
import markdown from 'shiki/langs/markdown.mjs';

const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// Vite only as a module loader: no config file (the Svelte plugin is not
// needed for a .ts module), no server socket.
const vite = await createServer({ root, configFile: false, logLevel: 'error', server: { middlewareMode: true, hmr: false }, appType: 'custom', optimizeDeps: { noDiscovery: true, include: [] } });
const out = { preview: {}, shiki: {} };
try {
  const preview = await vite.ssrLoadModule('/src/lib/shikiPreview.ts');
  // VS Code has every grammar, so a Markdown file's fenced block (```json)
  // is painted with the block's own grammar wherever the Markdown grammar
  // embeds one: load those the samples' fences name, as VS Code would.
  const embeds = new Set(markdown.flatMap((g) => g.embeddedLangsLazy ?? []));
  const canon = (name) => bundledLanguagesInfo.find((l) => l.id === name || l.aliases?.includes(name))?.id;
  const langs = [...new Set(job.files.map((f) => f.lang))];
  for (const f of job.files) {
    if (f.lang !== 'markdown') continue;
    for (const m of readFileSync(f.path, 'utf8').matchAll(/^ {0,3}(?:`{3,}|~{3,})[ \t]*([A-Za-z][\w+#.-]*)/gm)) {
      const id = canon(m[1].toLowerCase());
      if (id && embeds.has(id) && !langs.includes(id)) langs.push(id);
    }
  }
  const themes = job.themes.map((t) => ({ ...JSON.parse(readFileSync(t.vscode, 'utf8')), name: t.name }));
  const full = await createHighlighter({ themes, langs });
  for (const t of job.themes) {
    const text = readFileSync(t.vscode, 'utf8');
    out.preview[t.name] = {};
    out.shiki[t.name] = {};
    for (const f of job.files) {
      const code = readFileSync(f.path, 'utf8').replace(/\n$/, '');
      const p = await preview.highlight(code, f.lang, text);
      out.preview[t.name][f.path] = p.map((line) => line.map((tok) => [tok.text, tok.color ?? '']));
      const s = full.codeToTokensBase(code, { lang: f.lang, theme: t.name, tokenizeTimeLimit: 0 });
      out.shiki[t.name][f.path] = s.map((line) => line.map((tok) => [tok.content, tok.color ?? '']));
    }
  }
  full.dispose();
} finally {
  await vite.close();
}
process.stdout.write(JSON.stringify(out));
