import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import MessageList from './MessageList.svelte';
import { applyEvent, beginTurn, newChatState } from '../lib/chatReducer';
import { router } from '../lib/stores/router.svelte';
import { flush, installWails } from '../test/wails';

function authChat() {
  const s = newChatState({ cwd: '/home/dev/themes/work' });
  beginTurn(s, 't', 'hello');
  applyEvent(s, 't', {
    type: 'auth_required',
    text: 'Authentication required',
    authMethods: [
      { id: 'chat-gpt', name: 'Login with ChatGPT', description: 'Use your ChatGPT login' },
      { id: 'api-key', name: 'Use OPENAI_API_KEY', description: null },
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

  it('runs the agent sign-in in the chat folder, then offers Retry', async () => {
    const w = installWails({ Authenticate: () => undefined });
    let retried = 0;
    render(MessageList, { props: { chat: authChat(), onretry: () => retried++ } });
    await fireEvent.click(screen.getAllByTestId('auth-method')[0]);
    await flush();
    expect(w.App.Authenticate).toHaveBeenCalledWith('chat-gpt', '/home/dev/themes/work');
    expect(screen.getByTestId('auth-box').textContent).toContain('Signed in');
    await fireEvent.click(screen.getByTestId('retry'));
    expect(retried).toBe(1);
  });

  it('sends API-key methods to Settings, where the key is entered', async () => {
    const w = installWails({ Authenticate: () => undefined });
    render(MessageList, { props: { chat: authChat() } });
    await fireEvent.click(screen.getAllByTestId('auth-method')[1]);
    expect(w.App.Authenticate).not.toHaveBeenCalled();
    expect(router.route).toEqual({ view: 'settings' });
  });
});

describe('resumed session', () => {
  it('an empty resumed chat offers the earlier messages as a transcript', async () => {
    const s = newChatState({ sessionId: '019a-1', title: 'Harbour night theme' });
    render(MessageList, { props: { chat: s } });
    await fireEvent.click(screen.getByTestId('open-history'));
    expect(router.route).toEqual({ view: 'transcript', id: '019a-1', title: 'Harbour night theme' });
  });
});
