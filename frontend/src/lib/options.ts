// Session config options as the agent describes them (ACP SessionConfigOption):
// grouping by category and reading select values, flat or grouped. Read
// defensively: agents add kinds and fields.
import type { ConfigOption } from './chatReducer';
import type { SessionMode } from './types';

export interface Choice {
  value: string;
  name: string;
  description?: string;
}

export interface ChoiceGroup {
  group: string;
  name: string;
  options: Choice[];
}

/** Categories in the order they are shown; anything else is "custom". */
export const categoryOrder = ['mode', 'model', 'thought_level', 'model_config', 'custom'] as const;

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function choice(v: unknown): Choice | null {
  if (!isObj(v) || !str(v.value)) return null;
  return { value: str(v.value), name: str(v.name) || str(v.value), description: str(v.description) || undefined };
}

/** A select's values: flat ones and named groups (the "grouped" form). */
export function selectChoices(o: ConfigOption): { flat: Choice[]; groups: ChoiceGroup[] } {
  const flat: Choice[] = [];
  const groups: ChoiceGroup[] = [];
  for (const item of Array.isArray(o.options) ? o.options : []) {
    if (isObj(item) && typeof item.group === 'string') {
      const opts = (Array.isArray(item.options) ? item.options : []).map(choice).filter((c): c is Choice => !!c);
      groups.push({ group: item.group, name: str(item.name) || item.group, options: opts });
    } else {
      const c = choice(item);
      if (c) flat.push(c);
    }
  }
  return { flat, groups };
}

function categoryOf(o: ConfigOption): string {
  const c = o.category ?? '';
  return (categoryOrder as readonly string[]).includes(c) ? c : 'custom';
}

/**
 * The options to show, by category in a fixed order. Kinds this app cannot
 * render are left out. An agent that offers modes but no mode option gets
 * a "mode" select built from its modes (set through session/set_mode).
 */
export function optionGroups(options: ConfigOption[], modes: { current: string; available: SessionMode[] } | null): { category: string; options: ConfigOption[] }[] {
  const shown = options.filter((o) => o && o.id && (o.type === 'boolean' || o.type === 'select'));
  if (modes && modes.available.length && !shown.some((o) => o.category === 'mode')) {
    shown.unshift({
      id: 'mode',
      category: 'mode',
      type: 'select',
      currentValue: modes.current,
      options: modes.available.map((m) => ({ value: m.id, name: m.name, description: m.description ?? undefined })),
    });
  }
  return categoryOrder
    .map((category) => ({ category, options: shown.filter((o) => categoryOf(o) === category) }))
    .filter((g) => g.options.length > 0);
}

/**
 * The options in the order the session bar shows them: mode, model,
 * effort, model settings, then the agent's others. Kinds this app cannot
 * render are left out; modes without a mode option become one.
 */
export function barOrder(options: ConfigOption[], modes: { current: string; available: SessionMode[] } | null): ConfigOption[] {
  return optionGroups(options, modes).flatMap((g) => g.options);
}

/** Plain words for reasoning efforts; unknown ones are title-cased. */
export function effortLabel(effort: string, tr: (k: string) => string, known: (k: string) => boolean): string {
  if (known('effort.' + effort)) return tr('effort.' + effort);
  const words = effort.replace(/[_-]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : effort;
}

/** The option's name: a plain one for options Codex is known to offer, else the agent's own. */
export function optionLabel(o: ConfigOption, tr: (k: string) => string, known: (k: string) => boolean): string {
  if (known(`options.known.${o.id}.name`)) return tr(`options.known.${o.id}.name`);
  if (o.category === 'thought_level' && known('options.known.reasoning_effort.name')) return tr('options.known.reasoning_effort.name');
  return o.name || o.id;
}

/** One line on what the option does: ours for known options, else the agent's description. */
export function optionHelp(o: ConfigOption, tr: (k: string) => string, known: (k: string) => boolean): string {
  if (known(`options.known.${o.id}.desc`)) return tr(`options.known.${o.id}.desc`);
  return o.description ?? '';
}

/** A value's name: efforts and known values in plain words, else the agent's name. */
export function valueLabel(o: ConfigOption, c: Choice, tr: (k: string) => string, known: (k: string) => boolean): string {
  if (o.category === 'thought_level') return effortLabel(c.value, tr, known);
  const key = `options.known.${o.id}.value.${c.value}`;
  if (known(key)) return tr(key);
  return c.name;
}

/** A value's one-line description: ours for known values, else the agent's. */
export function valueHelp(o: ConfigOption, c: Choice, tr: (k: string) => string, known: (k: string) => boolean): string {
  const key = `options.known.${o.id}.value.${c.value}.desc`;
  if (known(key)) return tr(key);
  return c.description ?? '';
}

/** What a value is called, for messages ("Full access", "High"). */
export function valueName(o: ConfigOption | undefined, value: unknown, tr: (k: string) => string, known: (k: string) => boolean): string {
  if (typeof value === 'boolean') return tr(value ? 'options.on' : 'options.off');
  if (typeof value !== 'string') return String(value ?? '');
  if (!o) return value;
  const { flat, groups } = selectChoices(o);
  const c = [...flat, ...groups.flatMap((g) => g.options)].find((x) => x.value === value) ?? { value, name: value };
  return valueLabel(o, c, tr, known);
}
