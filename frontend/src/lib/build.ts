// Starting a theme build: one path for the New Build view and the self-test.
import * as api from './api';
import { chat } from './stores/chat.svelte';
import { models } from './stores/models.svelte';
import { go } from './stores/router.svelte';

/** Creates a workspace, starts the first turn with the chosen model and opens its chat. */
export async function startBuild(prompt: string): Promise<void> {
  const res = await models.during('generate', () => api.newBuild({ prompt, model: models.model, effort: models.effort }));
  chat.open({ workspaceId: res.workspaceId, cwd: res.cwd });
  chat.adopt(res.turnId, prompt);
  go({ view: 'chat', workspaceId: res.workspaceId, cwd: res.cwd });
}
