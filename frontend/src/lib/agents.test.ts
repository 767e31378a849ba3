// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatEnv, newAgentId, parseEnv } from './agents';

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
