// Wraps Shiki's real createHighlighterCore so a test can watch (or fail)
// what a module registers on it. Used inside a vi.mock('shiki/core')
// factory; factories are hoisted, so import this with `await import`.
import type * as ShikiCore from 'shiki/core';

type Core = typeof ShikiCore;
export type Highlighter = Awaited<ReturnType<Core['createHighlighterCore']>>;

export interface CoreSpy {
  /** Called before each highlighter is made; throwing fails the creation. */
  creating?: () => void;
  /** Called with each new highlighter, to wrap its methods. */
  made: (h: Highlighter) => void;
}

export function spyOnCore(real: Core, spy: CoreSpy): Core {
  return {
    ...real,
    createHighlighterCore: async (...args: Parameters<Core['createHighlighterCore']>) => {
      spy.creating?.();
      const h = await real.createHighlighterCore(...args);
      spy.made(h);
      return h;
    },
  };
}

/** The grammar names one loadLanguage call registers, comma-joined. */
export function grammarNames(langs: unknown[]): string {
  return langs
    .flat()
    .map((l) => (l as { name: string }).name)
    .join(',');
}
