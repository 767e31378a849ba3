import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import ThemePreview from './ThemePreview.svelte';
import example from '../test/fixtures/example.theme.json';

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

  it('shows each syntax role in the code sample, the 16 ANSI colours and the UI chrome', () => {
    render(ThemePreview, { props: { theme: example } });
    const code = screen.getByTestId('preview-code');
    const roles = new Set(Array.from(code.querySelectorAll<HTMLElement>('[data-role]')).map((e) => e.dataset.role));
    expect([...roles].sort()).toEqual(Object.keys(example.syntax).sort());
    for (let i = 0; i < 16; i++) expect(screen.getByTestId(`preview-ansi-${i}`).getAttribute('style')).toContain(`var(--ansi-${i})`);
    const term = screen.getByTestId('preview-terminal');
    expect(term.querySelectorAll('[data-ansi]').length).toBeGreaterThanOrEqual(16);
    for (const id of ['preview-chrome', 'preview-sidebar', 'preview-selection', 'preview-accent-button', 'preview-badge-error', 'preview-badge-warning', 'preview-badge-success']) {
      expect(screen.getByTestId(id)).toBeTruthy();
    }
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
