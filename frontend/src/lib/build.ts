// Starting a theme build: one path for the New Build view and the self-test.
import * as api from './api';
import { buildBar } from './stores/buildbar.svelte';
import { chat } from './stores/chat.svelte';
import { models } from './stores/models.svelte';
import { buildNames } from './stores/names.svelte';
import { go } from './stores/router.svelte';

/** Creates a workspace, starts the first turn with the New build bar's values and opens its chat. */
export async function startBuild(prompt: string): Promise<void> {
  // An agent just chosen: its own values, not the previous agent's.
  await buildBar.ready();
  if (!buildBar.bar) await buildBar.load();
  const bar = buildBar.snapshot();
  const options = buildBar.values();
  const res = await models.during('generate', () => chat.startBuild(prompt, bar, (turnId) => api.newBuild({ turnId, prompt, options })));
  buildNames.set(res.workspaceId, res.title);
  go({ view: 'chat', workspaceId: res.workspaceId, cwd: res.cwd });
}
