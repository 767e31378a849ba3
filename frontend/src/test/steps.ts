// Go's answers and events one at a time. In the app each answer of a
// binding and each event crosses the bridge as a task of its own, in an
// order nobody promises; the webview may paint between any two. A test
// queues them here and delivers them one by one, in the order it chooses,
// and looks at the page after each: every state the user could see.
import { flush } from './wails';

type Item = { what: string; deliver: () => void };

export class Steps {
  private queue: Item[] = [];

  /** A binding whose answer is computed when called (as Go does) and arrives when delivered. */
  answer<A extends unknown[], R>(name: string, f: (...args: A) => R): (...args: A) => Promise<Awaited<R>> {
    return (...args: A) =>
      new Promise((resolve, reject) => {
        let out: R;
        try {
          out = f(...args);
        } catch (e) {
          this.queue.push({ what: name, deliver: () => reject(e) });
          return;
        }
        this.queue.push({ what: name, deliver: () => resolve(out as Awaited<R>) });
      });
  }

  /** An event Go emitted now, arriving when delivered. */
  event(name: string, send: () => void): void {
    this.queue.push({ what: 'event ' + name, deliver: send });
  }

  /** What is on its way, oldest first. */
  get pending(): string[] {
    return this.queue.map((i) => i.what);
  }

  /** Delivers one item (the oldest, or the newest with last) and lets the page settle. */
  async deliver(last = false): Promise<string> {
    const item = last ? this.queue.pop() : this.queue.shift();
    if (!item) throw new Error('nothing to deliver');
    item.deliver();
    await flush();
    return item.what;
  }

  /** Delivers everything, checking the page after each delivery; returns what was delivered, in order. */
  async drain(check: (after: string) => void = () => {}, last = false): Promise<string[]> {
    const done: string[] = [];
    // Bounded: a page that asks forever is a bug, not a long test.
    for (let i = 0; i < 200 && this.queue.length; i++) {
      const what = await this.deliver(last);
      done.push(what);
      check(what);
    }
    if (this.queue.length) throw new Error(`still asking after 200 deliveries: ${this.pending.join(', ')}`);
    return done;
  }
}
