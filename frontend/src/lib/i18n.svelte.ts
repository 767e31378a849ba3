// A tiny translator: flat dotted keys, {name} interpolation, English fallback.
import en from '../locales/en.json';
import de from '../locales/de.json';

export type Dict = Record<string, string>;
export const dictionaries: Record<string, Dict> = { en, de };
export const languages = Object.keys(dictionaries);

/** Picks a supported language from a setting or a BCP 47 tag ("de-AT" → "de"). */
export function pickLanguage(setting: string | undefined | null, nav?: string | readonly string[]): string {
  const candidates: string[] = [];
  if (setting) candidates.push(setting);
  if (typeof nav === 'string') candidates.push(nav);
  else if (nav) candidates.push(...nav);
  for (const c of candidates) {
    const base = c.toLowerCase().split(/[-_]/)[0];
    if (base in dictionaries) return base;
  }
  return 'en';
}

const state = $state({ lang: pickLanguage(null, typeof navigator !== 'undefined' ? navigator.languages ?? navigator.language : undefined) });

export function setLanguage(setting: string | undefined | null): void {
  state.lang = pickLanguage(setting, typeof navigator !== 'undefined' ? navigator.languages ?? navigator.language : undefined);
  if (typeof document !== 'undefined') document.documentElement.lang = state.lang;
}

export function currentLanguage(): string {
  return state.lang;
}

export function format(template: string, params?: Record<string, string | number>): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

const pluralRules = new Map<string, Intl.PluralRules>();

/**
 * The key of the plural form a numeric count takes in lang: "key#one" when
 * the dictionary has it and the language's rules pick "one" (1 in en and
 * de), and so for every other form; the plain key is the "other" form.
 */
export function pluralKey(key: string, count: unknown, lang: string, dict: Dict): string {
  if (typeof count !== 'number') return key;
  let rules = pluralRules.get(lang);
  if (!rules) pluralRules.set(lang, (rules = new Intl.PluralRules(lang)));
  const form = `${key}#${rules.select(count)}`;
  return form in dict ? form : key;
}

/**
 * Translates key in the current language; a missing key falls back to
 * English, then to the key. A numeric params.count picks the plural form.
 */
export function t(key: string, params?: Record<string, string | number>): string {
  const lang = dictionaries[state.lang] ? state.lang : 'en';
  const dict = dictionaries[lang];
  const s = dict[pluralKey(key, params?.count, lang, dict)] ?? (en as Dict)[pluralKey(key, params?.count, 'en', en)] ?? key;
  return format(s, params);
}

/** Whether key exists (in English, the reference language). */
export function has(key: string): boolean {
  return key in (en as Dict);
}
