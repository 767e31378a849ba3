// Importing a theme file dropped on New build or Home: read it (bounded),
// hand it to Go, open the new build's chat. The last result stays so the
// chat can say where each role came from.
import * as api from '../api';
import { chat } from './chat.svelte';
import { buildNames } from './names.svelte';
import { go } from './router.svelte';
import type { ImportResult } from '../types';

/** Go refuses more (core/theme MaxImportSize); checked here before reading. */
export const maxImportBytes = 4 << 20;

/** pick: File → Import theme… asked for the file picker; the view's import control opens it (once shown) and clears it. */
export const imports = $state<{ last: ImportResult | null; busy: boolean; error: string; pick: boolean }>({ last: null, busy: false, error: '', pick: false });

function readBase64(file: File): Promise<string> {
  return new Promise((ok, fail) => {
    const r = new FileReader();
    r.onerror = () => fail(r.error ?? new Error(`could not read ${file.name}`));
    r.onload = () => {
      const url = String(r.result);
      ok(url.slice(url.indexOf(',') + 1));
    };
    r.readAsDataURL(file);
  });
}

/** Imports one file; resolves to false (with imports.error set) when it cannot. */
export async function importFile(file: File, messages: { tooBig: string; empty: string }): Promise<boolean> {
  if (imports.busy) return false;
  imports.error = '';
  if (file.size === 0) {
    imports.error = messages.empty;
    return false;
  }
  if (file.size > maxImportBytes) {
    imports.error = messages.tooBig;
    return false;
  }
  return run(async () => api.importTheme({ fileName: file.name, data: await readBase64(file) }));
}

/** Imports the file Go read from a drop another program made (its token). */
export async function importDroppedFile(token: string): Promise<boolean> {
  if (imports.busy) return false;
  imports.error = '';
  return run(() => api.importDropped(token));
}

async function run(importer: () => Promise<ImportResult>): Promise<boolean> {
  imports.busy = true;
  try {
    const res = await importer();
    imports.last = res;
    buildNames.set(res.workspaceId, res.title); // named after the imported theme
    chat.open({ workspaceId: res.workspaceId, cwd: res.dir, title: res.title });
    go({ view: 'chat', workspaceId: res.workspaceId, cwd: res.dir, title: res.title });
    return true;
  } catch (e) {
    imports.error = api.errorMessage(e);
    return false;
  } finally {
    imports.busy = false;
  }
}
