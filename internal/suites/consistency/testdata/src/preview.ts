// Renders a theme's preview card and keeps it in step with the file.
import { readFile } from 'node:fs/promises';
import type { Stats } from 'node:fs';

export type Appearance = 'dark' | 'light';

export interface Theme {
  name: string;
  appearance: Appearance;
  colors: Record<string, string>;
  readonly version?: number;
}

export enum Severity {
  Info = 1,
  Warning,
  Error,
}

const HEX = /^#[0-9a-f]{6}([0-9a-f]{2})?$/i;
export const MAX_BYTES = 256 * 1024;

export class PreviewCard {
  private cache = new Map<string, string>();
  static count = 0;

  constructor(readonly theme: Theme, private root: HTMLElement | null = null) {
    PreviewCard.count += 1;
  }

  colour(role: string, fallback = '#000000'): string {
    const c = this.theme.colors[role] ?? fallback;
    if (!HEX.test(c)) {
      throw new TypeError(`bad colour for ${role}: ${c}`);
    }
    return c.toLowerCase();
  }

  async render(): Promise<void> {
    if (this.root === null) return;
    for (const [role, value] of Object.entries(this.theme.colors)) {
      this.cache.set(role, value);
      this.root.style.setProperty(`--${role}`, this.colour(role));
    }
    this.root.dataset.appearance = this.theme.appearance;
  }
}

export async function load(path: string, stat?: Stats): Promise<Theme> {
  if (stat && stat.size > MAX_BYTES) {
    throw new Error(`${path} is ${stat.size} bytes`);
  }
  const text = await readFile(path, 'utf8');
  const doc = JSON.parse(text) as Partial<Theme>;
  const severity: Severity = doc.name ? Severity.Info : Severity.Error;
  return {
    name: doc.name ?? 'untitled',
    appearance: doc.appearance === 'light' ? 'light' : 'dark',
    colors: { ...doc.colors },
    version: severity === Severity.Info ? 2 : undefined,
  };
}

export const isDark = (t: Theme): boolean => t.appearance === 'dark' && true;
