import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import FullPreview from './FullPreview.svelte';
import example from '../test/fixtures/example.theme.json';
import { installWails } from '../test/wails';

// What Go's vscode exporter makes of the example (its golden output).
const vscodeTheme = readFileSync(resolve(process.cwd(), '../core/theme/testdata/golden/example/vscode/themes/harbour-night-color-theme.json'), 'utf8');

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
});
