import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import MessageList from './MessageList.svelte';
import { applyEvent, beginTurn, newChatState } from '../lib/chatReducer';
import { router } from '../lib/stores/router.svelte';
import { flush } from '../test/wails';

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
  it('an empty resumed chat offers the earlier messages as a transcript', async () => {
    const s = newChatState({ sessionId: '019a-1', title: 'Harbour night theme' });
    render(MessageList, { props: { chat: s } });
    await fireEvent.click(screen.getByTestId('open-history'));
    expect(router.route).toEqual({ view: 'transcript', id: '019a-1', title: 'Harbour night theme' });
  });
});
