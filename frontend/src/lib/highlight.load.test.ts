// How highlight.ts loads Shiki and its grammars: a failure (a chunk that did
// not arrive, say) must not stay cached, or that language would stay plain
// until the app restarts; and a grammar asked for by two names at once is
// loaded once. Shiki is real; only its loading is made to fail on demand.
import { describe, expect, it, vi } from 'vitest';

const faults = vi.hoisted(() => ({ core: 0, grammar: 0, cores: 0, loads: [] as string[] }));

vi.mock('shiki/core', async (importOriginal) => {
  const { spyOnCore, grammarNames } = await import('../test/shikiSpy');
  return spyOnCore(await importOriginal(), {
    creating: () => {
      faults.cores++;
      if (faults.core > 0) {
        faults.core--;
        throw new Error('core chunk did not load');
      }
    },
    made: (h) => {
      const load = h.loadLanguage.bind(h);
      h.loadLanguage = (...langs: Parameters<typeof load>) => {
        faults.loads.push(grammarNames(langs));
        if (faults.grammar > 0) {
          faults.grammar--;
          return Promise.reject(new Error('grammar did not load'));
        }
        return load(...langs);
      };
    },
  });
});

const { tokenize } = await import('./highlight');

const coloured = (lines: Awaited<ReturnType<typeof tokenize>>) => (lines ?? []).flat().some((t) => t.light !== '');

describe('loading Shiki', () => {
  it('tries the highlighter again after it failed to load', async () => {
    faults.core = 1;
    await expect(tokenize('const a = 1', 'ts')).rejects.toThrow('core chunk did not load');
    expect(coloured(await tokenize('const a = 1', 'ts'))).toBe(true);
    expect(faults.cores).toBe(2);
  });

  it('tries a grammar again after it failed to load', async () => {
    faults.grammar = 1;
    await expect(tokenize('local x = 1', 'lua')).rejects.toThrow('grammar did not load');
    expect(coloured(await tokenize('local x = 1', 'lua'))).toBe(true);
    expect(faults.loads.filter((l) => l.includes('lua'))).toHaveLength(2);
  });

  it('loads a grammar once when two names for it are asked for at once, and never again', async () => {
    const before = faults.loads.filter((l) => l.startsWith('python')).length;
    const got = await Promise.all([tokenize('x = 1', 'py'), tokenize('x = 1', 'python'), tokenize('x = 1', 'PY')]);
    expect(got.every(coloured)).toBe(true);
    expect(await tokenize('y = 2', 'python')).not.toBeNull();
    expect(faults.loads.filter((l) => l.startsWith('python')).length - before).toBe(1);
    expect(faults.cores).toBe(2); // one highlighter for all of them
  });
});
