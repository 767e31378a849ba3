import { render, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import ImportDrop from './ImportDrop.svelte';
import { router } from '../lib/stores/router.svelte';
import { imports } from '../lib/stores/imports.svelte';
import { installWails } from '../test/wails';

function dropFile(file: File) {
  const ev = new Event('drop', { bubbles: true, cancelable: true });
  Object.defineProperty(ev, 'dataTransfer', { value: { types: ['Files'], files: [file] } });
  window.dispatchEvent(ev);
  return ev;
}

describe('ImportDrop', () => {
  it('imports a file dropped anywhere on the view and opens its build', async () => {
    const content = 'scheme: "Gruvbox"\nbase00: "1d2021"\n';
    const w = installWails({
      ImportTheme: () => ({ workspaceId: 'ws-imp', dir: '/data/ws-imp', title: 'Gruvbox', format: 'base16', mapped: [], derived: [], warnings: [] }),
    });
    render(ImportDrop);
    const ev = dropFile(new File([content], 'gruvbox.yaml', { type: 'application/yaml' }));
    expect(ev.defaultPrevented).toBe(true); // the page never navigates to the file
    await waitFor(() => expect(router.route).toMatchObject({ view: 'chat', workspaceId: 'ws-imp' }));
    const req = w.bound.ImportTheme.mock.calls[0][0] as { fileName: string; data: string };
    expect(req.fileName).toBe('gruvbox.yaml');
    expect(atob(req.data)).toBe(content);
    expect(imports.last?.workspaceId).toBe('ws-imp');
  });

  it('refuses an oversized file without sending it, and shows Go’s message for a bad one', async () => {
    const w = installWails({ ImportTheme: () => Promise.reject('bad.toml:2: colors.primary.background: "#12" is not a hex colour (want #rrggbb)') });
    render(ImportDrop);
    dropFile(new File([new Uint8Array((4 << 20) + 1)], 'huge.json'));
    await waitFor(() => expect(screen.getByTestId('import-error').textContent).toContain('huge.json'));
    expect(w.bound.ImportTheme).not.toHaveBeenCalled();
    dropFile(new File(['[colors.primary]\nbackground = "#12"\n'], 'bad.toml'));
    await waitFor(() => expect(screen.getByTestId('import-error').textContent).toContain('bad.toml:2: colors.primary.background'));
  });

  it('in the Linux window Go reads the drop: its file-drop event imports by token, the page never reads the File, a drop zone keeps its drop', async () => {
    const w = installWails({
      ImportDropped: () => ({ workspaceId: 'ws-go', dir: '/data/ws-go', title: 'Nightfall', format: 'vscode', mapped: [], derived: [], warnings: [] }),
    });
    (window as unknown as { wails: unknown }).wails = { flags: { enableWailsDragAndDrop: true } };
    try {
      render(ImportDrop);
      // WebKitGTK shows another program's file as its URI only: the page still cancels the drop (no navigation).
      const over = new Event('dragover', { bubbles: true, cancelable: true });
      Object.defineProperty(over, 'dataTransfer', { value: { types: ['text/uri-list'] } });
      window.dispatchEvent(over);
      expect(over.defaultPrevented).toBe(true);
      const ev = dropFile(new File(['{}'], 'nightfall.json'));
      expect(ev.defaultPrevented).toBe(true);
      expect(w.bound.ImportTheme).not.toHaveBeenCalled();

      const zone = document.createElement('div');
      zone.dataset.dropZone = '';
      document.body.append(zone);
      const at = document.elementFromPoint;
      document.elementFromPoint = (x: number) => (x === 5 ? zone : document.body);
      w.emit('file-drop', { token: 'zone-token', x: 5, y: 5, names: ['a.json'] });
      expect(w.bound.ImportDropped).not.toHaveBeenCalled();
      w.emit('file-drop', { token: 'tok-1', x: 300, y: 200, names: ['nightfall.json'] });
      document.elementFromPoint = at;
      zone.remove();
      await waitFor(() => expect(router.route).toMatchObject({ view: 'chat', workspaceId: 'ws-go' }));
      expect(w.bound.ImportDropped.mock.calls).toEqual([['tok-1']]);
    } finally {
      delete (window as unknown as { wails?: unknown }).wails;
    }
  });
});
