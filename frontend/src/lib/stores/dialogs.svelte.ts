// The dialogs a part of the page asks the app to show. They are drawn by
// DialogHost at the app's root, never inside the part that asked: a list row
// (the chat's settled turns use content-visibility, which contains layout)
// would be the containing block of a position: fixed dialog and clip it to
// the row's strip.
import type { Component } from 'svelte';

export type OpenDialog = {
  id: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  component: Component<any>;
  props: Record<string, unknown>;
};

export class DialogStore {
  open = $state<OpenDialog[]>([]);
  private next = 0;

  /**
   * Shows component with props plus an onclose that closes it (the props'
   * own onclose, if any, runs first). Returns the close function.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  show<P extends Record<string, any>>(component: Component<P>, props: Omit<P, 'onclose'> & { onclose?: () => void }): () => void {
    const id = ++this.next;
    const close = () => this.close(id);
    const own = props.onclose;
    this.open.push({
      id,
      component,
      props: {
        ...props,
        onclose: () => {
          own?.();
          close();
        },
      },
    });
    return close;
  }

  close(id: number): void {
    this.open = this.open.filter((d) => d.id !== id);
  }

  /** Leaving a view closes what it opened: a dialog outlives no route. */
  closeAll(): void {
    if (this.open.length) this.open = [];
  }
}

export const dialogs = new DialogStore();
