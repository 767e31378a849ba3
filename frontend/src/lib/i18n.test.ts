import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '../locales/en.json';
import de from '../locales/de.json';
import { format, pickLanguage, setLanguage, t } from './i18n.svelte';
import { exportFormats } from './types';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'test' ? [] : sources(p);
    return /\.(svelte|ts)$/.test(name) && !name.endsWith('.test.ts') ? [p] : [];
  });
}
const srcDir = join(__dirname, '..');

// core/theme Targets, in Go's menu order.
const applyTargets = ['vscode', 'zed', 'neovim', 'helix', 'bat', 'alacritty', 'kitty', 'ghostty', 'wezterm', 'foot', 'tmux', 'windows-terminal', 'iterm2'];

describe('locales', () => {
  it('en and de have exactly the same keys', () => {
    const enKeys = Object.keys(en).sort();
    const deKeys = Object.keys(de).sort();
    expect(deKeys.filter((k) => !enKeys.includes(k))).toEqual([]);
    expect(enKeys.filter((k) => !deKeys.includes(k))).toEqual([]);
  });

  it('every translation is non-empty and uses the same placeholders', () => {
    for (const [k, v] of Object.entries(en)) {
      const d = (de as Record<string, string>)[k];
      expect(v.trim(), k).not.toBe('');
      expect(d?.trim(), k).not.toBe('');
      expect(placeholders(d), k).toEqual(placeholders(v));
    }
  });

  it('every literal key used in the source exists in en.json', () => {
    const used = new Set<string>();
    for (const f of sources(srcDir)) {
      for (const m of readFileSync(f, 'utf8').matchAll(/\b(?:t|has)\('([a-zA-Z0-9_.-]+)'\s*[,)]/g)) used.add(m[1]);
    }
    expect(used.size).toBeGreaterThan(100);
    expect([...used].filter((k) => !(k in en))).toEqual([]);
  });

  it('has keys for every value of the families built at run time', () => {
    const families: Record<string, readonly string[]> = {
      'tool.kind.': ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'],
      'tool.status.': ['pending', 'in_progress', 'completed', 'failed'],
      'permission.kind.': ['allow_once', 'allow_always', 'reject_once', 'reject_always'],
      'plan.status.': ['pending', 'in_progress', 'completed'],
      'transcript.role.': ['user', 'assistant', 'tool'],
      // Export formats, and core/theme Targets (named by format.<id> in the Apply menu).
      'format.': [...exportFormats, ...applyTargets],
      // core/theme Targets: the programs Apply installs into (Go lists those of this OS).
      'theme.apply.next.': applyTargets,
      // core/live's modes (app.LiveProgram.mode).
      'theme.live.mode.': ['told', 'watches', 'manual'],
      'language.': ['en', 'de'],
      'editor.oklch.': ['l', 'c', 'h'],
      'editor.group.': ['palette', 'ui', 'editor', 'diff', 'diagnostic', 'terminal', 'syntax', 'ansi'],
      'editor.target.': ['aa', 'aaa', 'large'],
      'settings.permission.': ['ask', 'deny', 'allow', 'ask.hint', 'deny.hint', 'allow.hint'],
      'error.code.': ['agent_missing', 'agent_exit', 'timeout', 'cancelled', 'protocol', 'auth', 'rpc', 'input', 'install'],
    };
    const missing = Object.entries(families).flatMap(([prefix, values]) => values.map((v) => prefix + v).filter((k) => !(k in en)));
    expect(missing).toEqual([]);
  });

  it('no component renders a hard-coded English sentence', () => {
    // Text between tags that contains a lowercase word of 4+ letters and is not a {expression}.
    const offenders: string[] = [];
    for (const f of sources(srcDir).filter((p) => p.endsWith('.svelte'))) {
      const markup = readFileSync(f, 'utf8')
        .replace(/<script[\s\S]*?<\/script>/g, '')
        .replace(/<style[\s\S]*?<\/style>/g, '')
        .replace(/<!--[\s\S]*?-->/g, '');
      for (const m of markup.matchAll(/>([^<>{}]*[A-Za-z]{4,}[^<>{}]*)</g)) {
        const text = m[1].trim();
        // Sample content of the theme preview (file names, shell output) is not UI text.
        if (/^[\w.~/-]+(\.\w+)?$/.test(text) || /^(ls --color|git:\(|main|error:|warning:|ok:)/.test(text)) continue;
        offenders.push(`${f.replace(srcDir, '')}: ${text}`);
      }
      // Literal user-facing attributes; single technical tokens (a command, a path) are fine.
      for (const m of markup.matchAll(/\b(placeholder|title|aria-label|alt)="([^"{]*)"/g)) {
        if (!/^[\w~./-]*$/.test(m[2])) offenders.push(`${f.replace(srcDir, '')}: ${m[1]}="${m[2]}"`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe('locale audit', () => {
  const enDict = en as Record<string, string>;
  const deDict = de as Record<string, string>;

  it('every key-shaped string literal in the source (arrays of labels too, not only t(...)) exists', () => {
    // A literal like 'builder.idea.1' or 'nav.home' in a list is a key too.
    const namespaces = new Set(Object.keys(en).map((k) => k.split('.')[0]));
    // VS Code's colour ids (the workbench mock-up names them) are not keys.
    const vscodeIds = new Set(
      readFileSync(join(srcDir, '..', '..', 'core', 'targets', 'testdata', 'vocab', 'vscode-colors.txt'), 'utf8')
        .split('\n')
        .filter((l) => l && !l.startsWith('#'))
        .flatMap((l) => {
          const [prefix, rest] = l.split(': ');
          return rest.split(' ').map((s) => (prefix === '-' ? s : `${prefix}.${s}`));
        }),
    );
    expect(vscodeIds.has('editor.background')).toBe(true);
    const missing: string[] = [];
    for (const f of sources(srcDir)) {
      for (const m of readFileSync(f, 'utf8').matchAll(/["'`]([a-z][a-zA-Z]*(?:\.[a-zA-Z0-9_-]+)+)["'`]/g)) {
        const k = m[1];
        if (!namespaces.has(k.split('.')[0]) || vscodeIds.has(k) || /\.(json|ts|js|md|css|toml|conf|mjs|rs|go|py|lua|ya?ml|ini)$/.test(k)) continue;
        if (!(k in en)) missing.push(`${f.replace(srcDir, '')}: ${k}`);
      }
    }
    expect(missing).toEqual([]);
  });

  // Words that are the same in both languages, or names; everything else in de.json must differ from English.
  const sameInGerman = new Set([
    'nav.chat', 'language.en', 'language.de', 'effort.minimal', 'effort.ultra', 'bar.agent', 'plan.title', 'error.agent', 'preview.chrome.explorer',
    'preview.chrome.primary', 'transcript.role.assistant', 'settings.agent.section', 'settings.app.section', 'settings.apiKey.placeholder',
    'artifacts.problem', 'agents.pick', 'agents.kind.codex', 'mcp.name', 'mcp.type', 'mcp.url', 'settings.appearance.system',
    'agents.arg', 'contrast.apca', 'editor.group.palette', 'editor.group.syntax', 'editor.group.editor', 'editor.group.terminal', 'editor.target.aaa',
    'workbench.title', 'workbench.explorer', 'workbench.terminal', 'publish.version',
  ]);

  it('de.json has no English left: no value equal to the English one unless it is the same word in German', () => {
    const same = Object.keys(en).filter((k) => deDict[k] === enDict[k] && !k.startsWith('format.') && !sameInGerman.has(k));
    expect(same).toEqual([]);
  });

  it('de.json has no English sentence: no common English word outside quoted names and code', () => {
    const english = /(?<!\p{L})(the|and|with|your|you|is|are|not|to|of|for|this|from|yet|could|cannot|please|here|will)(?!\p{L})/iu;
    const offenders = Object.entries(deDict)
      .map(([k, v]) => [k, v.replace(/„[^“]*“|“[^”]*”|"[^"]*"|`[^`]*`|\{\w+\}/g, '')] as const)
      .filter(([, v]) => english.test(v))
      .map(([k, v]) => `${k}: ${v}`);
    expect(offenders).toEqual([]);
  });
});

describe('t', () => {
  it.each([
    [null, ['de-AT', 'en-US'], 'de'],
    ['en', ['de-DE'], 'en'],
    ['', ['fr-FR', 'de'], 'de'],
    ['xx', ['fr'], 'en'],
    [null, 'de_CH', 'de'],
  ])('pickLanguage(%j, %j) = %s', (setting, nav, want) => {
    expect(pickLanguage(setting, nav)).toBe(want);
  });

  it('translates with interpolation and falls back to English, then the key', () => {
    setLanguage('de');
    expect(t('chat.send')).toBe('Senden');
    expect(t('contrast.failures', { count: 3, total: 40 })).toBe('3 von 40 unter AA');
    setLanguage('en');
    expect(t('contrast.failures', { count: 3, total: 40 })).toBe('3 of 40 below AA');
    expect(t('no.such.key')).toBe('no.such.key');
    expect(format('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });
});

describe('plural forms', () => {
  it('says "1 role changed" and "2 roles changed", in German too', async () => {
    const { t, setLanguage } = await import('./i18n.svelte');
    setLanguage('en');
    expect(t('checkpoint.compare.changed', { count: 1 })).toBe('1 role changed');
    expect(t('checkpoint.compare.changed', { count: 2 })).toBe('2 roles changed');
    expect(t('checkpoint.compare.changed', { count: 0 })).toBe('0 roles changed');
    expect(t('permission.queued', { count: 1 })).toBe('1 more request waiting');
    setLanguage('de');
    expect(t('checkpoint.compare.changed', { count: 1 })).toBe('1 Rolle geändert');
    expect(t('checkpoint.compare.changed', { count: 3 })).toBe('3 Rollen geändert');
    setLanguage('en');
  });

  it('no message hedges a plural with "(s)", and every counted noun has its singular', () => {
    const hedged = Object.entries({ ...en, ...de }).filter(([, v]) => /\w\((s|n|e|en)\)/.test(v));
    expect(hedged).toEqual([]);
    // A count before a noun needs the "#one" form; these read right for 1 as they are.
    const fine = new Set(['contrast.failures', 'home.trash.title', 'variant.fail', 'agents.arg', 'agents.removeArg']);
    const missing = Object.entries(en as Record<string, string>)
      .filter(([k, v]) => !k.includes('#') && /\{count\}/.test(v) && !fine.has(k) && !(`${k}#one` in en))
      .map(([k]) => k);
    expect(missing).toEqual([]);
  });
});
