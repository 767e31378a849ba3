// The app's own Light / Dark / System choice. /appearance.js (served by Go
// from the saved settings) sets it before the first paint; this keeps it in
// step afterwards. app.css picks the colours from data-appearance.
export const appearances = ['light', 'dark', 'system'] as const;
export type Appearance = (typeof appearances)[number];

export function applyAppearance(value: string | undefined | null): void {
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  if (value === 'light' || value === 'dark') root.dataset.appearance = value;
  else delete root.dataset.appearance;
}
