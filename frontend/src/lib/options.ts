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
