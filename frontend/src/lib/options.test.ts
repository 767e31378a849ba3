// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { barOrder, effortLabel, optionGroups, optionHelp, optionLabel, selectChoices, valueHelp, valueLabel, valueName } from './options';
import type { ConfigOption } from './chatReducer';

// Shaped like codex-acp 2.x plus the fake agent's grouped and boolean options.
const options: ConfigOption[] = [
  { id: 'fast-mode', name: 'Fast mode', category: 'model_config', type: 'boolean', currentValue: false },
  { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'gpt-5.5', options: [{ value: 'gpt-5.5', name: 'GPT-5.5' }, { value: 'gpt-5.4', name: 'gpt-5.4' }] },
  {
    id: 'palette_family', name: 'Palette family', category: '_theme', type: 'select', currentValue: 'midnight',
    options: [
      { group: 'dark', name: 'Dark', options: [{ value: 'midnight', name: 'Midnight' }, { value: 'ember', name: 'Ember' }] },
      { group: 'light', name: 'Light', options: [{ value: 'paper', name: 'Paper' }, { bogus: true }] },
    ],
  },
  { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'agent', options: [{ value: 'agent', name: 'Auto review' }] },
  { id: 'slider', name: 'Temperature', category: 'model_config', type: 'range', currentValue: 0.3 },
  { id: 'reasoning_effort', name: 'Reasoning effort', category: 'thought_level', type: 'select', currentValue: 'high', options: [{ value: 'high', name: 'High' }] },
];

describe('optionGroups', () => {
  it('orders by category and puts unknown categories under custom; unknown kinds are left out', () => {
    const groups = optionGroups(options, null);
    expect(groups.map((g) => [g.category, g.options.map((o) => o.id)])).toEqual([
      ['mode', ['mode']],
      ['model', ['model']],
      ['thought_level', ['reasoning_effort']],
      ['model_config', ['fast-mode']],
      ['custom', ['palette_family']],
    ]);
  });

  it.each([
    { name: 'modes without a mode option become a mode select', opts: options.filter((o) => o.id !== 'mode'), want: ['ask', 'code'] },
    { name: 'a mode option wins over the modes', opts: options, want: ['agent'] },
  ])('$name', ({ opts, want }) => {
    const modes = { current: 'code', available: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] };
    const mode = optionGroups(opts, modes)[0].options[0];
    expect(mode.id).toBe('mode');
    expect(selectChoices(mode).flat.map((c) => c.value)).toEqual(want);
  });
});

describe('selectChoices', () => {
  it('reads flat values and named groups, skipping malformed entries', () => {
    const c = selectChoices(options[2]);
    expect(c.flat).toEqual([]);
    expect(c.groups.map((g) => [g.name, g.options.map((o) => o.value)])).toEqual([
      ['Dark', ['midnight', 'ember']],
      ['Light', ['paper']],
    ]);
    expect(selectChoices(options[1]).flat.map((o) => o.name)).toEqual(['GPT-5.5', 'gpt-5.4']);
  });
});

describe('names in the session bar', () => {
  const tr = (k: string) => ({ 'effort.xhigh': 'Extra high', 'effort.max': 'Max', 'options.known.fast-mode.name': 'Fast mode', 'options.known.mode.value.agent': 'Auto review' })[k] ?? k;
  const known = (k: string) => tr(k) !== k;

  it('efforts from one map, unknown ones title-cased', () => {
    expect(['xhigh', 'max', 'ultra-fast', 'mega_think'].map((e) => effortLabel(e, tr, known))).toEqual(['Extra high', 'Max', 'Ultra fast', 'Mega think']);
  });

  it('known Codex options get plain names; unknown ones keep the agent\'s', () => {
    expect(optionLabel({ id: 'fast-mode', name: 'Model settings', category: 'model_config' }, tr, known)).toBe('Fast mode');
    expect(optionLabel({ id: 'palette_family', name: 'Palette family' }, tr, known)).toBe('Palette family');
    expect(optionHelp({ id: 'palette_family', name: 'Palette family', description: 'Which palettes' }, tr, known)).toBe('Which palettes');
    const mode = { id: 'mode', category: 'mode', type: 'select', options: [{ value: 'agent', name: 'Agent' }, { value: 'new-mode', name: 'New mode' }] };
    expect(valueName(mode, 'agent', tr, known)).toBe('Auto review');
    expect(valueName(mode, 'new-mode', tr, known)).toBe('New mode');
  });

  it('orders the bar mode, model, effort, model settings, then the rest', () => {
    expect(barOrder(options, null).map((o) => o.id)).toEqual(['mode', 'model', 'reasoning_effort', 'fast-mode', 'palette_family']);
  });
});

describe('what the session bar reads from an agent that is loose with its options', () => {
  it('names a value by its value when it has no name, a group by its id, and keeps descriptions', () => {
    const o: ConfigOption = {
      id: 'palette', type: 'select',
      options: [
        { value: 'teal' },
        { value: 'coral', name: 'Coral', description: 'Warm' },
        { value: '' },
        'loose',
        { group: 'extra' },
        { group: 'more', name: 'More', options: [{ value: 'sand', description: '' }] },
      ],
    };
    const c = selectChoices(o);
    expect(c.flat).toEqual([
      { value: 'teal', name: 'teal', description: undefined },
      { value: 'coral', name: 'Coral', description: 'Warm' },
    ]);
    expect(c.groups).toEqual([
      { group: 'extra', name: 'extra', options: [] },
      { group: 'more', name: 'More', options: [{ value: 'sand', name: 'sand', description: undefined }] },
    ]);
    expect(selectChoices({ id: 'x', type: 'select', options: 'nope' } as unknown as ConfigOption)).toEqual({ flat: [], groups: [] });
  });

  it('shows only the categories that hold an option', () => {
    expect(optionGroups([{ id: 'model', type: 'select', category: 'model', options: [] }], null)).toEqual([
      { category: 'model', options: [{ id: 'model', type: 'select', category: 'model', options: [] }] },
    ]);
    expect(optionGroups([], null)).toEqual([]);
  });

  it('leaves out options with no id, and shows no mode select for an agent without modes', () => {
    const opts = [{ id: '', type: 'boolean', category: 'mode' }, { id: 'fast', type: 'boolean' }] as ConfigOption[];
    expect(barOrder(opts, { current: '', available: [] }).map((o) => o.id)).toEqual(['fast']);
  });

  it('builds the mode select from the modes, their current one selected, with their descriptions', () => {
    const [mode] = barOrder([], { current: 'code', available: [{ id: 'ask', name: 'Ask', description: 'Answers only' }, { id: 'code', name: 'Code' }] });
    expect(mode).toMatchObject({ id: 'mode', category: 'mode', type: 'select', currentValue: 'code' });
    expect(selectChoices(mode).flat).toEqual([
      { value: 'ask', name: 'Ask', description: 'Answers only' },
      { value: 'code', name: 'Code', description: undefined },
    ]);
  });
});

describe('values in messages and menus', () => {
  const tr = (k: string) =>
    ({
      'options.on': 'On', 'options.off': 'Off', 'effort.high': 'High',
      'options.known.reasoning_effort.name': 'Reasoning',
      'options.known.sandbox.desc': 'What the agent may touch',
      'options.known.sandbox.value.full.desc': 'Everything, without asking',
    })[k] ?? k;
  const known = (k: string) => tr(k) !== k;
  const effort: ConfigOption = { id: 'effort', name: 'Thinking', category: 'thought_level', type: 'select', options: [{ value: 'high', name: 'HIGH' }, { value: 'extra_deep', name: 'x' }] };
  const sandbox: ConfigOption = { id: 'sandbox', name: 'Sandbox', description: 'agent text', type: 'select', options: [{ value: 'full', name: 'Full', description: 'agent full' }, { value: 'ro', name: 'Read only', description: 'agent ro' }] };

  it('says on and off for a switch, and any other value as it is', () => {
    expect(valueName(undefined, true, tr, known)).toBe('On');
    expect(valueName(undefined, false, tr, known)).toBe('Off');
    expect(valueName(undefined, 3, tr, known)).toBe('3');
    expect(valueName(undefined, null, tr, known)).toBe('');
    expect(valueName(undefined, 'gpt-5.5', tr, known)).toBe('gpt-5.5');
    expect(valueName(sandbox, 'gone', tr, known)).toBe('gone');
    expect(valueName(sandbox, 'ro', tr, known)).toBe('Read only');
  });

  it('names efforts in plain words wherever they come from, and any option of that category as Reasoning', () => {
    expect(valueName(effort, 'high', tr, known)).toBe('High');
    expect(valueName(effort, 'extra_deep', tr, known)).toBe('Extra deep');
    expect(valueLabel(effort, { value: 'high', name: 'HIGH' }, tr, known)).toBe('High');
    expect(optionLabel(effort, tr, known)).toBe('Reasoning');
    expect(optionLabel({ id: 'odd', category: 'custom' }, tr, known)).toBe('odd');
    expect(effortLabel('__', tr, known)).toBe('__');
    expect(effortLabel('extra__-high', tr, known)).toBe('Extra high');
  });

  it('explains known options and values in its own words, others in the agent\'s', () => {
    expect(optionHelp(sandbox, tr, known)).toBe('What the agent may touch');
    expect(optionHelp({ id: 'odd' }, tr, known)).toBe('');
    expect(valueHelp(sandbox, { value: 'full', name: 'Full', description: 'agent full' }, tr, known)).toBe('Everything, without asking');
    expect(valueHelp(sandbox, { value: 'ro', name: 'Read only', description: 'agent ro' }, tr, known)).toBe('agent ro');
    expect(valueHelp(sandbox, { value: 'ro', name: 'Read only' }, tr, known)).toBe('');
    expect(valueLabel(sandbox, { value: 'ro', name: 'Read only' }, tr, known)).toBe('Read only');
  });
});
