import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import MessageList from './MessageList.svelte';
import { applyEvent, beginOpen, beginTurn, newChatState, prependHistory } from '../lib/chatReducer';
import { router } from '../lib/stores/router.svelte';
import { flush } from '../test/wails';

function authChat() {
  const s = newChatState({ cwd: '/home/dev/themes/work' });
  beginTurn(s, 't', 'hello');
  applyEvent(s, 't', {
    type: 'auth_required',
    authMethods: [
      { id: 'chat-gpt', name: 'Login with ChatGPT', description: 'Use your ChatGPT login' },
      { id: 'api-key', name: 'Use OPENAI_API_KEY' },
    ],
  });
  applyEvent(s, 't', { type: 'error', code: 'auth', text: 'Authentication required' });
  return s;
}

describe('sign-in from the chat', () => {
  it('shows one sign-in box (not also an error box) with a button per method', () => {
    render(MessageList, { props: { chat: authChat(), onretry: () => {} } });
    expect(screen.getAllByTestId('auth-box')).toHaveLength(1);
    expect(screen.queryByTestId('error-box')).toBeNull();
    expect(screen.getAllByTestId('auth-method').map((b) => b.dataset.methodId)).toEqual(['chat-gpt', 'api-key']);
  });

  it('signs in with an agent method for the turn that needed it', async () => {
    const calls: string[][] = [];
    render(MessageList, { props: { chat: authChat(), onretry: () => {}, onsignin: async (turn: string, m: string, key: string) => (calls.push([turn, m, key]), true) } });
    await fireEvent.click(screen.getAllByTestId('auth-method')[0]);
    await flush();
    expect(calls).toEqual([['t', 'chat-gpt', '']]);
    expect(screen.getByTestId('auth-box').textContent).toContain('Your message was sent again');
    expect(screen.queryByTestId('auth-method')).toBeNull();
  });

  it('asks for the key in a masked field for API-key methods and shows a failed sign-in', async () => {
    const calls: string[][] = [];
    let fail = true;
    const onsignin = async (turn: string, m: string, key: string) => {
      calls.push([turn, m, key]);
      if (fail) throw 'Authentication failed: invalid key';
      return false; // nothing left to retry: the user is told to send again
    };
    render(MessageList, { props: { chat: authChat(), onsignin } });
    await fireEvent.click(screen.getAllByTestId('auth-method')[1]);
    const key = screen.getByTestId('auth-key') as HTMLInputElement;
    expect(key.type).toBe('password');
    expect((screen.getByTestId('auth-key-submit') as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.input(key, { target: { value: '  sk-abc  ' } });
    await fireEvent.click(screen.getByTestId('auth-key-submit'));
    await flush();
    expect(calls).toEqual([['t', 'api-key', 'sk-abc']]);
    expect(screen.getByTestId('auth-error').textContent).toContain('invalid key');
    fail = false;
    await fireEvent.click(screen.getByTestId('auth-key-submit'));
    await flush();
    expect(screen.queryByTestId('auth-key')).toBeNull();
    expect(screen.queryByTestId('auth-error')).toBeNull();
    expect(screen.getByTestId('auth-box').textContent).toContain('Retry your message');
  });
});

describe('resumed session', () => {
  it('a resumed chat without a rollout says so, with no Load more and no raw error', async () => {
    const s = newChatState({ sessionId: '019a-1', title: 'Harbour night theme' });
    s.agentName = 'Claude Code';
    s.history.source = 'agent';
    render(MessageList, { props: { chat: s } });
    expect(screen.getByTestId('history-none').textContent).toContain('Claude Code');
    expect(screen.queryByTestId('history-more')).toBeNull();
    expect(screen.queryByTestId('error-box')).toBeNull();
  });

  it('loads older messages from the top and marks where this visit continues', async () => {
    const s = newChatState({ sessionId: '019a-1' });
    prependHistory(s, [{ role: 'user', time: '', text: 'earlier' }], 10);
    beginTurn(s, 't', 'now');
    const onolder = vi.fn(async () => {});
    render(MessageList, { props: { chat: s, moreHistory: true, onolder } });
    expect(screen.getByTestId('history-end')).toBeTruthy();
    await fireEvent.click(screen.getByTestId('history-more'));
    expect(onolder).toHaveBeenCalledTimes(1);
  });

  it('a chat whose folder is gone offers Choose folder instead of a Retry that cannot work', async () => {
    const s = newChatState({ sessionId: '019a-1', cwd: '/home/me/gone' });
    beginOpen(s, 'o');
    applyEvent(s, 'o', { type: 'error', code: 'input', text: 'the working directory /home/me/gone is not a directory' });
    const onchoosefolder = vi.fn();
    render(MessageList, { props: { chat: s, onchoosefolder, onreopen: () => {} } });
    const box = screen.getByTestId('error-box');
    expect(box.textContent).toContain('/home/me/gone no longer exists');
    expect(screen.queryByTestId('retry')).toBeNull();
    await fireEvent.click(screen.getByTestId('error-action'));
    expect(onchoosefolder).toHaveBeenCalled();
  });

  it('a missing agent is explained in one short paragraph with Open Settings', async () => {
    const s = newChatState({ workspaceId: 'w' });
    beginTurn(s, 't', 'hi');
    applyEvent(s, 't', { type: 'error', code: 'agent_missing', text: 'no ACP agent found; tried: PATH codex-acp. Fix: … (or --agent / CDXTHEME_AGENT)' });
    render(MessageList, { props: { chat: s, onretry: () => {} } });
    const box = screen.getByTestId('error-box');
    expect(box.textContent).not.toMatch(/CDXTHEME_AGENT|--agent/);
    await fireEvent.click(screen.getByTestId('error-action'));
    expect(router.route).toEqual({ view: 'settings' });
  });
});
