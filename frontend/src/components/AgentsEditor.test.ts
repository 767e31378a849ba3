import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import SettingsView from '../views/Settings.svelte';
import { settings } from '../lib/stores/settings.svelte';
import { flush, installWails } from '../test/wails';
import type { AgentList } from '../lib/types';

// The editor lives in Settings and is saved by the page's one Save button.
async function renderEditor(impl: Record<string, (...a: any[]) => unknown>) {
  installWails({
    GetSettings: () => ({}),
    GetAuthState: () => ({ apiKeyStored: false, store: '' }),
    Agents: () => structuredClone(stored),
    ...impl,
  });
  await settings.load();
  render(SettingsView);
  await flush();
}

const stored: AgentList = {
  default: '',
  agents: [
    { id: 'codex', name: 'Codex', kind: 'codex', command: '', args: [], env: {}, defaults: { 'fast-mode': true }, secrets: ['OPENAI_API_KEY', 'CODEX_API_KEY'], pinned: '@agentclientprotocol/codex-acp@2.6.0' },
    { id: 'claude', name: 'Claude Code', kind: 'claude', command: '', args: [], env: {}, defaults: {}, secrets: [], pinned: '@zed-industries/claude-code-acp@0.16.2' },
  ],
  mcpServers: [],
};

describe('AgentsEditor', () => {
  it('adds a custom agent with command, arguments and env, an MCP server, and saves the whole list', async () => {
    let saved: AgentList | null = null;
    await renderEditor({ SaveAgents: (l: AgentList) => void (saved = l) });
    expect(screen.getAllByTestId('agent-row').map((r) => r.dataset.agentId)).toEqual(['codex', 'claude']);
    // Only Codex (instead of its search) and custom agents have a command to edit.
    expect(screen.getAllByTestId('agent-command')).toHaveLength(1);
    // Which agent gets which secret.
    const secrets = screen.getAllByTestId('agent-secrets').map((s) => s.textContent);
    expect(secrets[0]).toContain('OPENAI_API_KEY, CODEX_API_KEY');
    expect(secrets[1]).toContain('no stored secret');
    // Which exact version each agent the app runs a package for runs.
    expect(screen.getAllByTestId('agent-pinned').map((p) => p.textContent)).toEqual([
      expect.stringContaining('@agentclientprotocol/codex-acp@2.6.0'),
      expect.stringContaining('@zed-industries/claude-code-acp@0.16.2'),
    ]);

    await fireEvent.input(screen.getByTestId('agent-new-name'), { target: { value: 'My Agent' } });
    await fireEvent.click(screen.getByTestId('agent-add'));
    await fireEvent.input(screen.getAllByTestId('agent-command')[1], { target: { value: '/opt/acp' } });
    // One field per argument: what is typed is what the agent gets.
    const addArg = screen.getByTestId('agent-args-add');
    await fireEvent.click(addArg);
    await fireEvent.click(addArg);
    await fireEvent.click(addArg);
    let items = screen.getAllByTestId('agent-args-item');
    await fireEvent.input(items[0], { target: { value: '--stdio' } });
    await fireEvent.input(items[1], { target: { value: 'gone' } });
    await fireEvent.input(items[2], { target: { value: 'a\tb "c" \'d\'' } });
    await fireEvent.click(screen.getAllByTestId('agent-args-remove')[1]);
    items = screen.getAllByTestId('agent-args-item');
    expect(items.map((i) => (i as HTMLInputElement).value)).toEqual(['--stdio', 'a\tb "c" \'d\'']);
    const envs = screen.getAllByTestId('agent-env');
    await fireEvent.change(envs[envs.length - 1], { target: { value: 'TOKEN=x\nLEVEL=debug' } });
    const row = screen.getAllByTestId('agent-row')[2];
    await fireEvent.click(row.querySelector('input[type="radio"]')!);

    await fireEvent.click(screen.getByTestId('mcp-add'));
    await fireEvent.input(screen.getByTestId('mcp-name'), { target: { value: 'docs' } });
    await fireEvent.change(screen.getByTestId('mcp-type'), { target: { value: 'http' } });
    await fireEvent.input(screen.getByTestId('mcp-url'), { target: { value: 'https://mcp.example/' } });

    await fireEvent.click(screen.getByTestId('settings-save'));
    await flush();
    expect(saved!.default).toBe('my-agent');
    expect(saved!.agents![0].defaults).toEqual({ 'fast-mode': true });
    expect(saved!.agents![2]).toEqual({ id: 'my-agent', name: 'My Agent', kind: 'custom', command: '/opt/acp', args: ['--stdio', 'a\tb "c" \'d\''], env: { TOKEN: 'x', LEVEL: 'debug' }, defaults: {}, secrets: [], pinned: '' });
    expect(saved!.mcpServers).toEqual([{ name: 'docs', type: 'http', command: '', args: [], env: {}, url: 'https://mcp.example/', headers: {}, disabled: false }]);
    expect(screen.getByTestId('settings-saved').textContent).toBe('Saved.');
  });

  it('shows Go’s validation error and keeps the edits', async () => {
    await renderEditor({
      SaveAgents: () => {
        throw 'save agents: agent 3 ("x"): a custom agent needs a command';
      },
    });
    await fireEvent.input(screen.getByTestId('agent-new-name'), { target: { value: 'x' } });
    await fireEvent.click(screen.getByTestId('agent-add'));
    await fireEvent.click(screen.getByTestId('settings-save'));
    await flush();
    expect(screen.getByTestId('agents-error').textContent).toContain('needs a command');
    expect(screen.getAllByTestId('agent-row')).toHaveLength(3);
    await fireEvent.click(screen.getByTestId('agent-remove'));
    expect(screen.getAllByTestId('agent-row')).toHaveLength(2);
  });
});
