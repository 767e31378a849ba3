// Editing the agents list (agents.toml) in Settings: the text form of the
// environment, and new entries. Go validates on save.
import type { Agent, MCPServer } from './types';

/** "KEY=value" lines → a map; blank lines skipped, the first "=" splits. */
export function parseEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const l = line.trim();
    if (!l) continue;
    const i = l.indexOf('=');
    if (i <= 0) out[l] = '';
    else out[l.slice(0, i).trim()] = l.slice(i + 1);
  }
  return out;
}

export function formatEnv(env: Record<string, string> | null | undefined): string {
  return Object.entries(env ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
}

/** A free id for a new custom agent, derived from its name. */
export function newAgentId(name: string, taken: string[]): string {
  const base = name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'agent';
  let id = base;
  for (let i = 2; taken.includes(id); i++) id = `${base}-${i}`;
  return id;
}

export function newAgent(name: string, taken: string[]): Agent {
  return { id: newAgentId(name, taken), name, kind: 'custom', command: '', args: [], env: {}, defaults: {}, secrets: [], pinned: '' };
}

export function newMCPServer(): MCPServer {
  return { name: '', type: 'stdio', command: '', args: [], env: {}, url: '', headers: {}, disabled: false };
}
