import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import InstallCard from './InstallCard.svelte';
import type { InstallItem } from '../lib/chatReducer';

const base: InstallItem = { kind: 'install', id: 1, turnId: 't', pkg: '@agentclientprotocol/codex-acp@2.6.0', phase: 'downloading', done: 43_250_000, total: 172_325_449, ended: '' };

describe('InstallCard', () => {
  it('shows the package, a bar at the percent, the bytes, and Cancel', async () => {
    const oncancel = vi.fn();
    render(InstallCard, { props: { install: base, oncancel } });
    expect(screen.getByTestId('install-card').textContent).toContain('Installing the agent @agentclientprotocol/codex-acp@2.6.0');
    const bar = screen.getByTestId('install-bar') as HTMLProgressElement;
    expect(bar.max).toBe(100);
    expect(bar.value).toBe(25);
    expect(screen.getByTestId('install-status').textContent).toBe('43.3 MB of 172.3 MB (25%)');
    await fireEvent.click(screen.getByTestId('install-cancel'));
    expect(oncancel).toHaveBeenCalledOnce();
  });

  it('shows an indeterminate bar while the size is not known yet', () => {
    render(InstallCard, { props: { install: { ...base, phase: 'resolving', done: 0, total: 0 } } });
    expect((screen.getByTestId('install-bar') as HTMLProgressElement).hasAttribute('value')).toBe(false);
    expect(screen.getByTestId('install-status').textContent).toBe('Asking the registry what to download…');
    expect(screen.queryByTestId('install-cancel')).toBeNull(); // no handler: nothing to cancel with
  });

  it('shrinks to one line when done, and says nothing was kept when stopped', () => {
    const { unmount } = render(InstallCard, { props: { install: { ...base, phase: 'done', done: base.total, ended: 'done' } } });
    expect(screen.getByTestId('install-done').textContent?.trim()).toBe('Installed the agent @agentclientprotocol/codex-acp@2.6.0 (172.3 MB).');
    expect(screen.queryByTestId('install-bar')).toBeNull();
    unmount();
    render(InstallCard, { props: { install: { ...base, ended: 'stopped' }, oncancel: () => {} } });
    expect(screen.getByTestId('install-card').textContent).toContain('did not finish');
    expect(screen.queryByTestId('install-cancel')).toBeNull();
    expect(screen.queryByTestId('install-bar')).toBeNull();
  });
});
