import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import ThemePreview from './ThemePreview.svelte';
import example from '../test/fixtures/example.theme.json';
import { installWails } from '../test/wails';
import { repoFile } from '../test/repo';

// What Go's vscode exporter makes of the example (its golden output).
const vscodeTheme = repoFile('core/targets/testdata/golden/example/vscode/themes/harbour-night-color-theme.json');

const css = (el: HTMLElement, prop: string) => el.style.getPropertyValue(prop);

describe('ThemePreview', () => {
  it('exposes every theme colour as a custom property on the preview', () => {
    render(ThemePreview, { props: { theme: example } });
    const root = screen.getByTestId('preview');
    for (const [role, value] of Object.entries(example.ui)) expect(css(root, `--ui-${role}`), role).toBe(value);
    for (const [role, value] of Object.entries(example.syntax)) expect(css(root, `--syntax-${role}`), role).toBe(value);
    example.ansi.forEach((value, i) => expect(css(root, `--ansi-${i}`), `ansi ${i}`).toBe(value));
    expect(root.dataset.appearance).toBe('dark');
    expect(screen.getByTestId('preview-name').textContent).toBe('Harbour Night');
  });

  it('highlights the samples with Shiki and the exported VS Code theme, and shows real terminal output and the 16 ANSI colours', async () => {
    const w = installWails({ VSCodeTheme: () => vscodeTheme });
    render(ThemePreview, { props: { theme: example } });
    const code = screen.getByTestId('preview-code');
    await waitFor(() => expect(code.dataset.highlighted).toBe('shiki'), { timeout: 10_000 });
    expect(JSON.parse(w.bound.VSCodeTheme.mock.calls[0][0] as string).name).toBe(example.name);
    const colourOf = (text: string) => Array.from(code.querySelectorAll<HTMLElement>('.tok')).find((e) => e.textContent?.trim() === text)?.dataset.color;
    expect(colourOf('import')).toBe(example.syntax.keyword);
    expect(colourOf('shade')).toBe(example.syntax.function);
    for (const lang of ['python', 'rust', 'go']) {
      await fireEvent.click(screen.getByTestId(`preview-lang-${lang}`));
      await waitFor(() => expect(code.dataset.lang).toBe(lang));
      await waitFor(() => expect(colourOf({ python: 'def', rust: 'fn', go: 'func' }[lang]!)).toBe(example.syntax.keyword), { timeout: 10_000 });
    }
    for (let i = 0; i < 16; i++) expect(screen.getByTestId(`preview-ansi-${i}`).getAttribute('style')).toContain(`var(--ansi-${i})`);
    const term = screen.getByTestId('preview-terminal');
    expect(term.textContent).toContain('git diff');
    const used = new Set(Array.from(term.querySelectorAll<HTMLElement>('[data-ansi]')).map((e) => e.dataset.ansi));
    for (const i of ['1', '2', '3', '4', '6']) expect(used.has(i), `ansi ${i} used by the recording`).toBe(true);
    for (const id of ['preview-chrome', 'preview-sidebar', 'preview-selection', 'preview-accent-button', 'preview-badge-error', 'preview-badge-warning', 'preview-badge-success']) {
      expect(screen.getByTestId(id)).toBeTruthy();
    }
  }, 30_000);

  it('falls back to plain code when the export is not available', async () => {
    installWails({ VSCodeTheme: () => Promise.reject('the theme is invalid') });
    render(ThemePreview, { props: { theme: example } });
    await waitFor(() => expect(screen.getByTestId('preview-highlight-error').textContent).toContain('the theme is invalid'));
    expect(screen.getByTestId('preview-code').dataset.highlighted).toBe('plain');
    expect(screen.getByTestId('preview-code').textContent).toContain('Paint the harbour');
  });

  it('simulates a colour-vision deficiency over the whole preview with an SVG colour matrix', async () => {
    installWails({ VSCodeTheme: () => vscodeTheme });
    render(ThemePreview, { props: { theme: example } });
    const sim = screen.getByTestId('preview-sim');
    expect(sim.dataset.filter).toBeUndefined();
    const select = screen.getByTestId('preview-cvd') as HTMLSelectElement;
    expect(Array.from(select.options).map((o) => o.value)).toEqual(['none', 'protanopia', 'deuteranopia', 'tritanopia', 'achromatopsia']);
    await fireEvent.change(select, { target: { value: 'deuteranopia' } });
    const filter = document.getElementById(sim.dataset.filter ?? '')!;
    expect(filter.getAttribute('color-interpolation-filters')).toBe('linearRGB');
    expect(filter.querySelector('feColorMatrix')?.getAttribute('values')?.startsWith('0.367322 0.860646 -0.227968 0 0')).toBe(true);
    expect(sim.contains(screen.getByTestId('preview-terminal'))).toBe(true);
    expect(sim.contains(screen.getByTestId('preview-chrome'))).toBe(true);
  });

  it('marks changed ANSI roles', () => {
    render(ThemePreview, { props: { theme: example, changed: ['ansi.red', 'ui.accent'], compact: true } });
    expect(screen.getByTestId('preview-ansi-1').dataset.changed).toBe('true');
    expect(screen.getByTestId('preview-ansi-2').dataset.changed).toBeUndefined();
    expect(screen.queryByTestId('preview-cvd')).toBeNull();
  });

  it('leaves out values that are not colours instead of injecting them into CSS', () => {
    const evil = { ...example, ui: { ...example.ui, background: 'red; background-image: url(https://evil.example/x)', accent: '#12' } };
    render(ThemePreview, { props: { theme: evil } });
    const root = screen.getByTestId('preview');
    expect(css(root, '--ui-background')).toBe('');
    expect(css(root, '--ui-accent')).toBe('');
    expect(root.getAttribute('style')).not.toContain('evil');
    expect(css(root, '--ui-text')).toBe(example.ui.text);
  });

  it('shows the validation error while keeping the last good preview', () => {
    render(ThemePreview, { props: { theme: example, error: 'ui.accent: "#12" is not a colour' } });
    expect(screen.getByTestId('preview-error').textContent).toContain('ui.accent: "#12" is not a colour');
    expect(screen.getByTestId('preview-error').textContent).toContain('last valid version');
    expect(screen.getByTestId('preview-code')).toBeTruthy();
  });

  it('without any valid theme shows the error and a placeholder', () => {
    render(ThemePreview, { props: { theme: null, error: 'invalid JSON at line 3, column 5' } });
    expect(screen.getByTestId('preview-empty')).toBeTruthy();
    expect(screen.queryByTestId('preview-code')).toBeNull();
    expect(screen.getByTestId('preview-error').textContent).toContain('line 3, column 5');
  });
});
