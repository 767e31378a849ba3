// Paths as the user reads them: inside the workspace, relative to it.

/** path relative to dir when it lies inside it (POSIX or Windows separators), else path unchanged. */
export function relPath(path: string, dir: string): string {
  if (!path || !dir) return path;
  const d = dir.replace(/[\\/]+$/, '');
  for (const sep of ['/', '\\']) {
    if (path.startsWith(d + sep)) return path.slice(d.length + 1);
  }
  return path === d ? '.' : path;
}
