import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/svelte';
import { uninstallWails } from './wails';

afterEach(() => {
  cleanup();
  uninstallWails();
});
