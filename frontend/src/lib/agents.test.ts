// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatEnv, newAgent, newAgentId, newMCPServer, parseEnv } from './agents';

describe('agent list forms', () => {
  it('reads KEY=value lines (trimmed), keeping "=" in values, and writes them sorted', () => {
    const env = parseEnv('B=2\n\n A=x=y \nBARE');
    expect(env).toEqual({ B: '2', A: 'x=y', BARE: '' });
    expect(formatEnv({ B: '2', A: '1' })).toBe('A=1\nB=2');
  });

  it('derives a free id from the name', () => {
    expect(newAgentId('My Agent!', [])).toBe('my-agent');
    expect(newAgentId('My Agent', ['my-agent', 'my-agent-2'])).toBe('my-agent-3');
    expect(newAgentId('***', [])).toBe('agent');
  });
});

describe('agent list forms, the edges', () => {
  it('takes a line starting with "=" as a name, trims the line and the name but not the value after "=", and writes nothing for no environment', () => {
    expect(parseEnv('=x\nK = v \n\t\n')).toEqual({ '=x': '', K: ' v' });
    expect(formatEnv(null)).toBe('');
    expect(formatEnv({ b: '', a: 'x=y' })).toBe('a=x=y\nb=');
  });

  it('keeps dots, dashes and underscores in an id, trims dashes at its ends and keeps it to 40 characters', () => {
    expect(newAgentId('--Qwen_3.5 Coder--', [])).toBe('qwen_3.5-coder');
    expect(newAgentId('a'.repeat(50), [])).toBe('a'.repeat(40));
    expect(newAgentId('My  ~ Agent', [])).toBe('my-agent');
    expect(newAgentId('', ['agent'])).toBe('agent-2');
  });

  it('makes an empty custom agent and an empty enabled stdio MCP server', () => {
    expect(newAgent('My Agent', ['my-agent'])).toEqual({ id: 'my-agent-2', name: 'My Agent', kind: 'custom', command: '', args: [], env: {}, defaults: {}, secrets: [], pinned: '' });
    expect(newMCPServer()).toEqual({ name: '', type: 'stdio', command: '', args: [], env: {}, url: '', headers: {}, disabled: false });
  });
});
