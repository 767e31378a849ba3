import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/svelte';
import { uninstallWails } from './wails';

afterEach(() => {
  // A test file of pure functions runs in Node (@vitest-environment node):
  // nothing was rendered and there is no window to clear.
  if (typeof window === 'undefined') return;
  cleanup();
  uninstallWails();
});
