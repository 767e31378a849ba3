import { readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const outDir = resolve(import.meta.dirname, 'dist');

// dist/.gitkeep is committed so Go's embed of frontend/dist compiles before
// the first frontend build; Vite's emptyOutDir would delete it. This clears
// the old build (stale hashed assets would otherwise pile up in the binary)
// and keeps the placeholder.
function cleanKeepingGitkeep(): Plugin {
  return {
    name: 'cdxtheme-clean-dist',
    apply: 'build',
    buildStart() {
      let entries: string[] = [];
      try {
        entries = readdirSync(outDir);
      } catch {
        return;
      }
      for (const e of entries) if (e !== '.gitkeep') rmSync(join(outDir, e), { recursive: true, force: true });
    },
  };
}

export default defineConfig({
  plugins: [svelte(), cleanKeepingGitkeep()],
  resolve: process.env.VITEST ? { conditions: ['browser'] } : undefined,
  build: {
    outDir,
    emptyOutDir: false,
    target: 'es2022',
    sourcemap: false,
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.ts'],
    setupFiles: ['src/test/setup.ts'],
  },
});
