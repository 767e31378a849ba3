import { describe, expect, it } from 'vitest';
import { ModelsStore } from './models.svelte';
import { installWails } from '../../test/wails';
import type { ModelList } from '../types';

const result: ModelList = {
  current: 'gpt-5.5',
  source: 'cache',
  hint: '',
  models: [
    { id: 'gpt-5.5', name: 'GPT-5.5', description: '', defaultReasoningLevel: 'medium', reasoningLevels: [{ effort: 'low', description: '' }, { effort: 'medium', description: '' }, { effort: 'high', description: '' }] },
    { id: 'gpt-5.5-mini', name: 'GPT-5.5 mini', description: '', defaultReasoningLevel: 'low', reasoningLevels: [{ effort: 'low', description: '' }, { effort: 'medium', description: '' }] },
    { id: 'plain', name: 'Plain', description: '', defaultReasoningLevel: '', reasoningLevels: [] },
  ],
};

describe('models store', () => {
  it.each([
    { name: 'current model and its default effort', preferred: undefined, model: 'gpt-5.5', effort: 'medium' },
    { name: 'remembered model and effort', preferred: { model: 'gpt-5.5-mini', effort: 'medium' }, model: 'gpt-5.5-mini', effort: 'medium' },
    { name: 'remembered effort the model lacks → default', preferred: { model: 'gpt-5.5-mini', effort: 'high' }, model: 'gpt-5.5-mini', effort: 'low' },
    { name: 'remembered model that is gone → current', preferred: { model: 'retired', effort: 'high' }, model: 'gpt-5.5', effort: 'high' },
  ])('load picks $name', async ({ preferred, model, effort }) => {
    installWails({ Models: () => result });
    const m = new ModelsStore();
    await m.load(preferred);
    expect([m.model, m.effort]).toEqual([model, effort]);
    expect(m.levels.map((l) => l.effort)).toEqual(result.models!.find((x) => x.id === model)!.reasoningLevels!.map((l) => l.effort));
  });

  it('clears effort for a model without levels and keeps it when supported', async () => {
    installWails({ Models: () => result });
    const m = new ModelsStore();
    await m.load();
    m.setEffort('high');
    expect(m.select('plain')).toBe(true);
    expect(m.effort).toBe('');
    m.select('gpt-5.5');
    expect(m.effort).toBe('medium');
    m.setEffort('low');
    m.select('gpt-5.5-mini');
    expect(m.effort).toBe('low');
  });

  it('refuses changes while busy and unlocks only when every operation ended', async () => {
    installWails({ Models: () => result });
    const m = new ModelsStore();
    await m.load();
    m.begin('turn');
    m.begin('apply');
    expect(m.busy).toBe(true);
    expect(m.select('gpt-5.5-mini')).toBe(false);
    expect(m.setEffort('high')).toBe(false);
    expect([m.model, m.effort]).toEqual(['gpt-5.5', 'medium']);
    m.end('turn');
    expect(m.busy).toBe(true);
    m.end('apply');
    expect(m.busy).toBe(false);
    expect(m.select('gpt-5.5-mini')).toBe(true);
  });

  it('during() locks for the whole operation, also when it fails', async () => {
    installWails({ Models: () => result });
    const m = new ModelsStore();
    let seen = false;
    await m.during('generate', async () => {
      seen = m.busy;
    });
    expect(seen).toBe(true);
    await expect(m.during('generate', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(m.busy).toBe(false);
  });

  it('reports a load error and the fallback hint', async () => {
    installWails({ Models: () => Promise.reject('codex home unreadable') });
    const m = new ModelsStore();
    await m.load();
    expect(m.error).toBe('codex home unreadable');
    expect(m.loaded).toBe(true);
    installWails({ Models: () => ({ ...result, source: 'fallback', hint: 'Sign in to see your models' }) });
    await m.load();
    expect([m.source, m.hint, m.error]).toEqual(['fallback', 'Sign in to see your models', '']);
  });
});
