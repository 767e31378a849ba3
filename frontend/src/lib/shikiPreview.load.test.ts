// @vitest-environment node
// The preview's highlighter lives as long as the app, and an agent rewrites
// theme.json many times a turn: each theme and grammar is registered once,
// and past the cap the highlighter is replaced and the old one disposed, so
// memory stays bounded. Shiki is real; its registrations are counted.
import { describe, expect, it, vi } from 'vitest';

const seen = vi.hoisted(() => ({ created: 0, disposed: 0, themes: 0, langs: [] as string[] }));

vi.mock('shiki/core', async (importOriginal) => {
  const { spyOnCore, grammarNames } = await import('../test/shikiSpy');
  return spyOnCore(await importOriginal(), {
    creating: () => void seen.created++,
    made: (h) => {
      const loadTheme = h.loadTheme.bind(h);
      const loadLanguage = h.loadLanguage.bind(h);
      const dispose = h.dispose.bind(h);
      h.loadTheme = (...t: Parameters<typeof loadTheme>) => (seen.themes++, loadTheme(...t));
      h.loadLanguage = (...l: Parameters<typeof loadLanguage>) => {
        seen.langs.push(grammarNames(l));
        return loadLanguage(...l);
      };
      h.dispose = () => (seen.disposed++, dispose());
    },
  });
});

const { highlight } = await import('./shikiPreview');

const theme = (i: number) =>
  JSON.stringify({ name: `t${i}`, type: 'dark', colors: { 'editor.foreground': '#cccccc' }, tokenColors: [{ scope: 'keyword, storage.type', settings: { foreground: `#0000${(i % 256).toString(16).padStart(2, '0')}` } }] });

describe('the preview highlighter over many themes', () => {
  it('registers a theme once however often it paints', async () => {
    for (let n = 0; n < 5; n++) await highlight('const a = 1', 'typescript', theme(0));
    expect(seen.themes).toBe(1);
    expect(seen.created).toBe(1);
  });

  it('loads an extra grammar once, and none for the four built in', async () => {
    for (let n = 0; n < 3; n++) await highlight('local x = 1', 'lua', theme(0));
    for (const lang of ['typescript', 'python', 'rust', 'go']) await highlight('x', lang, theme(0));
    expect(seen.langs).toEqual(['c,lua']);
  });

  it('replaces and disposes the highlighter past 32 themes, not before, and still paints', async () => {
    for (let i = 1; i < 32; i++) await highlight('const a = 1', 'typescript', theme(i));
    expect([seen.created, seen.disposed, seen.themes]).toEqual([1, 0, 32]);
    // A theme already registered does not count against the cap.
    await highlight('const a = 1', 'typescript', theme(5));
    expect([seen.created, seen.disposed, seen.themes]).toEqual([1, 0, 32]);
    const lines = await highlight('const a = 1', 'typescript', theme(32));
    expect(lines[0][0].color?.toLowerCase()).toBe('#000020');
    expect([seen.created, seen.themes]).toEqual([2, 33]);
    await vi.waitFor(() => expect(seen.disposed).toBe(1));
    // The new highlighter needs lua again, once.
    await highlight('local x = 1', 'lua', theme(32));
    expect(seen.langs).toEqual(['c,lua', 'c,lua']);
  });
});
