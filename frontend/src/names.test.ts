// One name per build: Home's card, the session list, the chat header and
// the open chats all show the build's name, live after a rename (on Home or
// in the header), after Go's "build" event, and after an import, whatever
// title the agent gives its session.
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import App from './App.svelte';
import { flush, installWails, type FakeWails } from './test/wails';
import { chat } from './lib/stores/chat.svelte';
import { newChatState } from './lib/chatReducer';
import { buildNames } from './lib/stores/names.svelte';
import { importFile } from './lib/stores/imports.svelte';
import { go } from './lib/stores/router.svelte';
import example from './test/fixtures/example.theme.json';

const wsID = '20261201-100000-aaaaaa';
const sid = '019a-harbour';

/** Go as the tests need it: one build and its session, listed under the build's name (as Go lists it). */
function backend() {
  const build = { id: wsID, title: 'Harbour', created: '2026-12-01T10:00:00Z', changed: '2026-12-01T11:00:00Z', sessionIds: [] as string[], model: '', dir: '/data/harbour', name: 'Harbour', swatches: [], status: 'ready', failing: 0 };
  let turn = '';
  const w = installWails({
    GetSettings: () => ({ permissionPolicy: 'ask', enterSends: false }),
    Models: () => ({ current: 'gpt-5.5', source: 'cache', models: [{ id: 'gpt-5.5', name: 'GPT-5.5', reasoningLevels: [] }] }),
    Agents: () => ({ default: 'codex', agents: [{ id: 'codex', name: 'Codex', kind: 'codex' }], mcpServers: [] }),
    SearchStatus: () => ({ building: false, first: false, done: 0, total: 0, changed: false }),
    Builds: () => [{ ...build }],
    Workspaces: () => [{ id: build.id, title: build.title, created: build.created, sessionIds: build.sessionIds, model: '', dir: build.dir }],
    Sessions: () => ({ sessions: build.sessionIds.map((id) => ({ id, title: build.title, updatedAt: '2026-12-01T11:00:00Z', cwd: build.dir, path: '/c/' + id + '.jsonl' })), hint: '' }),
    RenameBuild: (id: string, title: string) => {
      build.title = title;
      build.name = title;
      return { ...build };
    },
    Theme: () => ({ theme: example, error: '', checks: [] }),
    SessionBar: () => ({ agentId: 'codex', agentName: 'Codex', known: false, defaults: null, modes: null, options: [] }),
    CheckAgent: () => ({ ok: true, agentId: 'codex', agentName: 'Codex' }),
    OpenChat: () => 'open-1',
    Release: () => undefined,
    ChatHistory: () => ({ source: 'agent', messages: [], offset: 0, total: 0 }),
    Artifacts: () => [],
    Checkpoints: () => [],
    EditorState: () => ({ roles: [], changed: [], canUndo: false, canRedo: false, undoLabel: '', redoLabel: '' }),
    Send: (req: { turnId: string }) => (turn = req.turnId),
    ImportTheme: () => ({ workspaceId: 'ws-imp', dir: '/data/ws-imp', title: 'Gruvbox', format: 'base16', mapped: [], derived: [], warnings: [] }),
  });
  return { w, build, turn: () => turn };
}

/** Sends a prompt in the open chat; the agent starts session sid and titles it after the prompt, as Codex does. */
async function firstTurn(w: FakeWails, turnId: () => string, build: { sessionIds: string[] }) {
  const box = screen.getByTestId('prompt');
  await fireEvent.input(box, { target: { value: 'Make it dusk' } });
  await fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true });
  await flush();
  build.sessionIds.push(sid);
  w.emit('turn', { turnId: turnId(), events: [{ type: 'session', sessionId: sid }, { type: 'session_info', info: { title: 'Make it dusk' } }, { type: 'done', sessionId: sid, stopReason: 'end_turn' }] });
  await flush();
}

const header = () => screen.getByTestId('chat-title').textContent;
const openChats = () => within(screen.getByTestId('open-chats')).getAllByTestId('open-chat').map((b) => b.textContent?.trim());
const cardTitle = () => screen.getByTestId('build-title').textContent;
const sessionTitles = () => screen.getAllByTestId('session-row').map((r) => r.querySelector('.title')?.textContent);

async function home() {
  await fireEvent.click(screen.getByTestId('nav-home'));
  await flush();
}

describe('a build goes by one name', () => {
  beforeEach(() => {
    buildNames.stop();
    buildNames.byId = {};
    chat.stop();
    chat.state = newChatState();
    chat.chats = [];
    go({ view: 'home' });
  });

  it('after a rename on Home: the card, the session list, the open chat\'s header and the open chats show the new name', async () => {
    const { w, build, turn } = backend();
    render(App);
    await flush();
    await fireEvent.click(screen.getByTestId('build-row'));
    expect(await screen.findByTestId('chat-title', {}, { timeout: 10000 })).toBeTruthy();
    await firstTurn(w, turn, build);
    // The agent titled its session after the prompt: the build keeps its name.
    expect(header()).toBe('Harbour');

    await home();
    expect(sessionTitles()).toEqual(['Harbour']);
    await fireEvent.click(screen.getByTestId('rename-build'));
    const input = screen.getByTestId('build-name') as HTMLInputElement;
    await fireEvent.input(input, { target: { value: 'Harbour at dusk' } });
    await fireEvent.keyDown(input, { key: 'Enter' });
    await flush();
    expect(w.bound.RenameBuild).toHaveBeenCalledWith(wsID, 'Harbour at dusk');
    expect(cardTitle()).toBe('Harbour at dusk');
    expect(sessionTitles()).toEqual(['Harbour at dusk']);
    expect(openChats()).toEqual(['Harbour at dusk']);

    // Back in the chat (kept open, opened with the old name): the new one.
    await fireEvent.click(screen.getAllByTestId('open-chat')[0]);
    await flush();
    expect(header()).toBe('Harbour at dusk');
  });

  it('after a rename in the chat header: the header, the open chats and then Home; and Go\'s "build" event reaches every view', async () => {
    const { w, build, turn } = backend();
    render(App);
    await flush();
    await fireEvent.click(screen.getByTestId('build-row'));
    expect(await screen.findByTestId('chat-title', {}, { timeout: 10000 })).toBeTruthy();
    await firstTurn(w, turn, build);

    await fireEvent.click(screen.getByTestId('chat-rename'));
    const input = screen.getByTestId('chat-build-name') as HTMLInputElement;
    expect(input.value).toBe('Harbour');
    await fireEvent.input(input, { target: { value: 'Lighthouse' } });
    await fireEvent.keyDown(input, { key: 'Enter' });
    await flush();
    expect(w.bound.RenameBuild).toHaveBeenCalledWith(wsID, 'Lighthouse');
    expect(header()).toBe('Lighthouse');
    expect(openChats()).toEqual(['Lighthouse']);

    await home();
    expect(cardTitle()).toBe('Lighthouse');
    expect(sessionTitles()).toEqual(['Lighthouse']);

    // The agent named the theme and the build follows it (Go): Home and the chat follow too.
    build.title = 'Deep Sea';
    w.bound.Sessions.mockClear();
    w.emit('build', { ...build });
    await flush();
    expect(cardTitle()).toBe('Deep Sea');
    expect(w.bound.Sessions).toHaveBeenCalled();
    expect(sessionTitles()).toEqual(['Deep Sea']);
    expect(openChats()).toEqual(['Deep Sea']);
    await fireEvent.click(screen.getAllByTestId('open-chat')[0]);
    await flush();
    expect(header()).toBe('Deep Sea');
  });

  it('after an import: the chat goes by the imported theme\'s name, not the session\'s', async () => {
    const { w, build, turn } = backend();
    render(App);
    await flush();
    expect(await importFile(new File(['scheme: "Gruvbox"\n'], 'gruvbox.yaml'), { tooBig: 'too big', empty: 'empty' })).toBe(true);
    await vi.waitFor(() => expect(screen.getByTestId('chat-title').textContent).toBe('Gruvbox'), { timeout: 10000 });
    await firstTurn(w, turn, build);
    expect(header()).toBe('Gruvbox');
    expect(openChats()).toEqual(['Gruvbox']);
  });
});
