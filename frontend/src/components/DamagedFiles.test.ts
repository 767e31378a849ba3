import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import DamagedFiles from './DamagedFiles.svelte';
import { flush, installWails } from '../test/wails';

describe('DamagedFiles', () => {
  it('says which file was damaged and where the copy is, for earlier ones and new ones', async () => {
    const w = installWails({
      DamagedFiles: () => [{ path: '/c/agents.toml', copy: '/c/agents.toml.corrupt-20261203T080000Z', reason: 'toml: unterminated string', when: '' }],
    });
    render(DamagedFiles);
    await flush();
    expect(screen.getByTestId('damaged-files').textContent).toContain('agents.toml could not be read');
    expect(screen.getByTestId('damaged-files').textContent).toContain('/c/agents.toml.corrupt-20261203T080000Z');
    w.emit('damaged', { path: '/c/settings.toml', copy: '/c/settings.toml.corrupt-20261203T080001Z', reason: 'bad', when: '' });
    await flush();
    expect(screen.getAllByTestId('damaged-file').map((e) => e.textContent)).toHaveLength(2);
    expect(screen.getAllByTestId('damaged-file')[1].textContent).toContain('settings.toml.corrupt-20261203T080001Z');
  });
});
