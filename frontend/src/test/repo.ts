import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// repoFile reads a file of the repository outside frontend/ (a Go package's
// golden output, the fake agent's corpus) by its path from the module root,
// found by walking up to go.mod: the same from frontend/ as from StrykerJS's
// sandbox copy of it (frontend/.stryker-tmp/sandbox-…), where a path
// relative to the test file or the working directory would miss.
export function repoFile(rel: string): string {
  let dir = import.meta.dirname;
  while (!existsSync(join(dir, 'go.mod'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no go.mod above ${import.meta.dirname}`);
    dir = up;
  }
  return readFileSync(join(dir, rel), 'utf8');
}
