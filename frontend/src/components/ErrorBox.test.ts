import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import ErrorBox from './ErrorBox.svelte';
import { flush } from '../test/wails';

describe('ErrorBox', () => {
  it('carries the actions that fix the error, in order, and runs them', async () => {
    const ran: string[] = [];
    render(ErrorBox, {
      props: {
        code: 'agent_missing',
        text: 'codex-acp was not found on PATH',
        actions: [
          { label: 'Open Settings', run: () => ran.push('settings'), testid: 'open-settings', primary: true },
          { label: 'Choose folder', run: () => ran.push('folder'), testid: 'choose-folder', disabled: true },
        ],
        onretry: () => ran.push('retry'),
      },
    });
    const buttons = [...screen.getByTestId('error-box').querySelectorAll('.actions button')].map((b) => b.textContent);
    expect(buttons).toEqual(['Open Settings', 'Choose folder', 'Retry']);
    expect(screen.getByTestId('error-box').querySelector('strong')!.textContent).toBe('The agent could not be found');
    await fireEvent.click(screen.getByTestId('open-settings'));
    expect((screen.getByTestId('choose-folder') as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.click(screen.getByTestId('retry'));
    expect(ran).toEqual(['settings', 'retry']);
  });

  it('offers no action when none can help, and copies everything it says', async () => {
    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (t: string) => void copied.push(t) } });
    render(ErrorBox, { props: { title: 'Could not apply the theme to Kitty', text: 'permission denied', agent: 'codex-acp', stderr: ['line 1', 'line 2'] } });
    expect(screen.getByTestId('error-box').querySelector('.actions')).toBeNull();
    await fireEvent.click(screen.getByTestId('copy-error'));
    await flush();
    expect(copied).toEqual(['Could not apply the theme to Kitty\n\npermission denied\n\nAgent: codex-acp\n\nline 1\nline 2']);
    expect(screen.getByTestId('copy-error').textContent?.trim()).toBe('Copied');
  });
});
