import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import FullPreview from './FullPreview.svelte';
import example from '../test/fixtures/example.theme.json';
import { installWails } from '../test/wails';
import { repoFile } from '../test/repo';

// What Go's vscode exporter makes of the example (its golden output).
const vscodeTheme = repoFile('core/targets/testdata/golden/example/vscode/themes/harbour-night-color-theme.json');

const pick = async (input: HTMLElement, file: File) => {
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  await fireEvent.change(input);
};

describe('FullPreview', () => {
  it('paints an opened file in the language of its extension, and refuses a file over 512 KiB without losing the code shown', async () => {
    installWails({ VSCodeTheme: () => vscodeTheme });
    render(FullPreview, { props: { theme: example, onclose: () => {} } });
    const out = screen.getByTestId('full-code');
    await pick(screen.getByTestId('full-open'), new File(['fn main() {\n    let x = 1;\n}\n'], 'main.rs'));
    await waitFor(() => expect(out.dataset.lang).toBe('rust'));
    await waitFor(() => expect(out.dataset.highlighted).toBe('shiki'), { timeout: 10_000 });
    const colourOf = (text: string) => Array.from(out.querySelectorAll<HTMLElement>('.tok')).find((e) => e.textContent?.trim() === text)?.style.color;
    await waitFor(() => expect(colourOf('fn')).toBeTruthy(), { timeout: 10_000 });
    expect((screen.getByTestId('full-code-input') as HTMLTextAreaElement).value).toContain('let x = 1;');

    await pick(screen.getByTestId('full-open'), new File(['x'.repeat(512 * 1024 + 1)], 'huge.ts'));
    expect(screen.getByTestId('full-error').textContent).toContain('huge.ts');
    expect((screen.getByTestId('full-code-input') as HTMLTextAreaElement).value).toContain('let x = 1;');
    expect(out.dataset.lang).toBe('rust');
  });

  it('the workbench names the colour ids the export leaves to VS Code', async () => {
    const doc = JSON.parse(vscodeTheme);
    delete doc.colors['statusBar.background'];
    installWails({ VSCodeTheme: () => JSON.stringify(doc) });
    render(FullPreview, { props: { theme: example, onclose: () => {} } });
    await fireEvent.click(screen.getByTestId('full-view-workbench'));
    await waitFor(() => expect(screen.getByTestId('workbench')).toBeTruthy());
    expect(screen.getByTestId('workbench-missing').textContent).toContain('statusBar.background');
    expect(screen.getByTestId('workbench-missing').textContent).not.toContain('editor.background');
  });

  it('shows the theme and its other appearance side by side, each painted by its own export', async () => {
    const keyword = (example.syntax as Record<string, string>).keyword.toLowerCase();
    const lightExport = vscodeTheme.replace(new RegExp(keyword, 'gi'), '#123456').replace('"type": "dark"', '"type": "light"');
    const companion = { ...example, name: 'Harbour Night Light', appearance: 'light', ui: { ...example.ui, background: '#f1f5ff' } };
    const w = installWails({ VSCodeTheme: (doc: string) => (JSON.parse(doc).appearance === 'light' ? lightExport : vscodeTheme) });
    render(FullPreview, { props: { theme: { ...example, companion }, onclose: () => {} } });
    await fireEvent.input(screen.getByTestId('full-code-input'), { target: { value: 'const x = 1;\n' } });
    await waitFor(() => expect(screen.getAllByTestId('full-code').map((p) => p.dataset.highlighted)).toEqual(['shiki', 'shiki']), { timeout: 10_000 });
    const panes = screen.getAllByTestId('full-code');
    expect(panes.map((p) => p.dataset.appearance)).toEqual(['dark', 'light']);
    expect(panes[1].getAttribute('style')).toContain('#f1f5ff');
    const kw = (pane: HTMLElement) => Array.from(pane.querySelectorAll<HTMLElement>('.tok')).find((e) => e.textContent?.trim() === 'const')?.style.color;
    await waitFor(() => expect(kw(panes[1])).toBe('rgb(18, 52, 86)'));
    expect(kw(panes[0])).not.toBe('rgb(18, 52, 86)');
    expect(w.bound.VSCodeTheme.mock.calls.some(([d]) => JSON.parse(d as string).name === 'Harbour Night Light')).toBe(true);
    // One variant only, on request.
    await fireEvent.click(screen.getByTestId('full-both'));
    await waitFor(() => expect(screen.getAllByTestId('full-code')).toHaveLength(1));
  });
});
