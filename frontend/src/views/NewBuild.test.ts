import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import NewBuild from './NewBuild.svelte';
import { chat } from '../lib/stores/chat.svelte';
import { models } from '../lib/stores/models.svelte';
import { router } from '../lib/stores/router.svelte';
import { flush, installWails } from '../test/wails';

const modelList = { current: 'gpt-5.5', source: 'cache', models: [{ id: 'gpt-5.5', name: 'GPT-5.5', defaultReasoningLevel: 'medium', reasoningLevels: [{ effort: 'low' }, { effort: 'medium' }, { effort: 'high' }] }, { id: 'mini', name: 'Mini' }] };

describe('New Build', () => {
  it('starts a build with the chosen model and effort and opens its chat', async () => {
    const w = installWails({ Models: () => modelList, NewBuild: () => ({ turnId: 'nb-7', workspaceId: 'ws-7', cwd: '/data/theme_builder/ws-7' }), SaveSettings: () => undefined });
    chat.stop();
    chat.start();
    await models.load();
    render(NewBuild);
    await fireEvent.change(screen.getByTestId('effort-menu'), { target: { value: 'high' } });
    await fireEvent.input(screen.getByTestId('prompt'), { target: { value: 'a warm light theme' } });
    await fireEvent.click(screen.getByTestId('send'));
    await flush();
    expect(w.App.NewBuild).toHaveBeenCalledWith({ prompt: 'a warm light theme', model: 'gpt-5.5', effort: 'high' });
    expect(router.route).toEqual({ view: 'chat', workspaceId: 'ws-7', cwd: '/data/theme_builder/ws-7' });
    expect(chat.state.workspaceId).toBe('ws-7');
    expect(chat.state.running).toBe(true);
    w.emit('turn', { turnId: 'nb-7', events: [{ type: 'text', text: 'On it.' }, { type: 'done', stopReason: 'end_turn' }] });
    expect(chat.state.items.map((i) => ('text' in i ? i.text : i.kind))).toEqual(['a warm light theme', 'On it.']);
  });

  it('hides the effort menu for a model without levels and keeps the prompt when starting fails', async () => {
    installWails({ Models: () => modelList, NewBuild: () => Promise.reject('agent not found'), SaveSettings: () => undefined });
    await models.load();
    render(NewBuild);
    await fireEvent.change(screen.getByTestId('model-menu'), { target: { value: 'mini' } });
    expect(screen.queryByTestId('effort-menu')).toBeNull();
    await fireEvent.input(screen.getByTestId('prompt'), { target: { value: 'retro amber' } });
    await fireEvent.keyDown(screen.getByTestId('prompt'), { key: 'Enter', ctrlKey: true });
    await flush();
    expect(screen.getByTestId('error-box').textContent).toBe('agent not found');
    expect((screen.getByTestId('prompt') as HTMLTextAreaElement).value).toBe('retro amber');
  });

  it('starts the agent when the view opens and gives it up when it closes unused', async () => {
    const w = installWails({ Models: () => modelList, Prewarm: () => undefined, Release: () => undefined });
    await models.load();
    const view = render(NewBuild);
    await flush();
    expect(w.App.Prewarm).toHaveBeenCalledWith({ workspaceId: '', sessionId: '', cwd: '' });
    expect(w.App.Release).not.toHaveBeenCalled();
    view.unmount();
    await flush();
    expect(w.App.Release).toHaveBeenCalledWith({ workspaceId: '', sessionId: '', cwd: '' });
  });

  it('shows nothing when the pre-warm fails', async () => {
    installWails({ Models: () => modelList, Prewarm: () => Promise.reject('no agent'), Release: () => undefined });
    await models.load();
    render(NewBuild);
    await flush();
    expect(screen.queryByTestId('error-box')).toBeNull();
  });
});
