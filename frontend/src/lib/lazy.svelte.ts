// A component whose code is fetched the first time it is wanted. Vite puts
// each dynamic import() in its own chunk, so views and heavy parts the user
// has not opened are neither downloaded nor parsed: less for the webview
// to hold and a first paint that only waits for what it shows.
import type { Component } from 'svelte';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export class Lazy<C extends Component<any>> {
  #load: () => Promise<{ default: C }>;
  #loading: Promise<C> | null = null;
  #component = $state<C | null>(null);
  /** Set when the chunk could not be loaded (a broken build). */
  error = $state('');

  constructor(load: () => Promise<{ default: C }>) {
    this.#load = load;
  }

  /** The component once loaded, else null; the first call starts loading. */
  get component(): C | null {
    this.ready().catch(() => {}); // the error is kept in .error
    return this.#component;
  }

  /** Loads the component (once) and resolves with it. */
  ready(): Promise<C> {
    this.#loading ??= this.#load().then(
      (m) => (this.#component = m.default),
      (e: unknown) => {
        this.error = e instanceof Error ? e.message : String(e);
        throw e;
      },
    );
    return this.#loading;
  }
}
