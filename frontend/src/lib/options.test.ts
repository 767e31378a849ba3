// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { barOrder, effortLabel, optionGroups, optionHelp, optionLabel, selectChoices, valueName } from './options';
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
