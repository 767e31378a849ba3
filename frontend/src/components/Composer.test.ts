import { cleanup as cleanupAll, fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import Composer from './Composer.svelte';

function setup(props: { enterSends?: boolean; running?: boolean; stopping?: boolean } = {}) {
  const onsend = vi.fn();
  const onstop = vi.fn();
  render(Composer, { props: { onsend, onstop, ...props } });
  const box = screen.getByTestId('prompt') as HTMLTextAreaElement;
  return { onsend, onstop, box };
}

async function type(box: HTMLTextAreaElement, text: string) {
  await fireEvent.input(box, { target: { value: text } });
}

describe('Composer send keys', () => {
  it.each([
    { name: 'Ctrl+Enter sends', enterSends: false, key: { key: 'Enter', ctrlKey: true }, sends: true },
    { name: 'Cmd+Enter sends', enterSends: false, key: { key: 'Enter', metaKey: true }, sends: true },
    { name: 'Enter does not send by default', enterSends: false, key: { key: 'Enter' }, sends: false },
    { name: 'Enter sends with the setting on', enterSends: true, key: { key: 'Enter' }, sends: true },
    { name: 'Shift+Enter never sends', enterSends: true, key: { key: 'Enter', shiftKey: true }, sends: false },
    { name: 'Ctrl+Enter still sends with the setting on', enterSends: true, key: { key: 'Enter', ctrlKey: true }, sends: true },
    { name: 'Enter while composing (IME) does not send', enterSends: true, key: { key: 'Enter', isComposing: true }, sends: false },
  ])('$name', async ({ enterSends, key, sends }) => {
    const { onsend, box } = setup({ enterSends });
    await type(box, '  warmer comments  ');
    await fireEvent.keyDown(box, key);
    if (sends) {
      expect(onsend).toHaveBeenCalledWith('warmer comments', []);
      expect(box.value).toBe('');
    } else {
      expect(onsend).not.toHaveBeenCalled();
      expect(box.value).toBe('  warmer comments  ');
    }
  });

  it('does not send blank text; the Send button follows the text', async () => {
    const { onsend, box } = setup();
    const send = screen.getByTestId('send') as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    await type(box, '   ');
    await fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true });
    expect(onsend).not.toHaveBeenCalled();
    await type(box, 'go');
    expect(send.disabled).toBe(false);
    await fireEvent.click(send);
    expect(onsend).toHaveBeenCalledWith('go', []);
  });

  it('while running shows Stop instead of Send; Esc and the button stop, keys do not send', async () => {
    const { onsend, onstop, box } = setup({ running: true });
    expect(screen.queryByTestId('send')).toBeNull();
    await type(box, 'next');
    await fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true });
    expect(onsend).not.toHaveBeenCalled();
    await fireEvent.keyDown(box, { key: 'Escape' });
    await fireEvent.click(screen.getByTestId('stop'));
    expect(onstop).toHaveBeenCalledTimes(2);
  });

  it('once Stop was pressed the button says Stopping… and cannot be pressed again', async () => {
    const { onstop } = setup({ running: true, stopping: true });
    const stop = screen.getByTestId('stop') as HTMLButtonElement;
    expect(stop.textContent).toContain('Stopping…');
    expect(stop.disabled).toBe(true);
    await fireEvent.click(stop);
    expect(onstop).not.toHaveBeenCalled();
  });

  it('Esc does nothing when idle', async () => {
    const { onstop, box } = setup();
    await fireEvent.keyDown(box, { key: 'Escape' });
    expect(onstop).not.toHaveBeenCalled();
  });
});

const commands = [
  { name: 'review', description: 'Review uncommitted changes.', input: { hint: 'optional review instructions' } },
  { name: 'rename', description: 'Rename the current session.', input: { hint: 'new name' } },
  { name: 'status', description: 'Display session configuration and token usage.' },
];

describe('Composer slash commands', () => {
  function slash() {
    const onsend = vi.fn();
    render(Composer, { props: { onsend, commands, enterSends: true } });
    return { onsend, box: screen.getByTestId('prompt') as HTMLTextAreaElement };
  }
  const names = () => screen.queryAllByTestId('slash-item').map((e) => e.dataset.name);

  it('offers the commands matching what was typed after /, with description and hint', async () => {
    const { box } = slash();
    await type(box, '/');
    expect(names()).toEqual(['review', 'rename', 'status']);
    await type(box, '/re');
    expect(names()).toEqual(['review', 'rename']);
    expect(screen.getByTestId('slash-menu').textContent).toContain('optional review instructions');
    await type(box, 'make it /re');
    expect(names()).toEqual([]);
  });

  it('Enter picks the highlighted command instead of sending; arrows move; the hint shows after', async () => {
    const { onsend, box } = slash();
    await type(box, '/re');
    await fireEvent.keyDown(box, { key: 'ArrowDown' });
    await fireEvent.keyDown(box, { key: 'Enter' });
    expect(onsend).not.toHaveBeenCalled();
    expect(box.value).toBe('/rename ');
    expect(names()).toEqual([]);
    expect(screen.getByText('Then type: new name')).toBeTruthy();
  });

  it('Escape closes the menu and a click picks', async () => {
    const { box } = slash();
    await type(box, '/s');
    await fireEvent.keyDown(box, { key: 'Escape' });
    expect(names()).toEqual([]);
    await type(box, '/');
    await fireEvent.click(screen.getAllByTestId('slash-item')[0].querySelector('button')!);
    expect(box.value).toBe('/review ');
  });
});

describe('Composer attachments', () => {
  const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'paste.png', { type: 'image/png' });
  async function paste(box: HTMLElement, files: File[]) {
    const ev = new Event('paste', { bubbles: true, cancelable: true }) as Event & { clipboardData: unknown };
    ev.clipboardData = { files };
    await fireEvent(box, ev);
    return ev;
  }

  it('a pasted image becomes an attachment sent with the text', async () => {
    const onsend = vi.fn();
    render(Composer, { props: { onsend, allowAttachments: true, capabilities: { image: true, audio: false, embeddedContext: true } } });
    const box = screen.getByTestId('prompt') as HTMLTextAreaElement;
    await paste(box, [png()]);
    expect((await screen.findByTestId('attachment')).textContent).toContain('paste.png');
    await type(box, 'what is this');
    await fireEvent.click(screen.getByTestId('send'));
    expect(onsend).toHaveBeenCalledWith('what is this', [{ name: 'paste.png', mimeType: 'image/png', data: 'iVBORw==' }]);
    expect(screen.queryByTestId('attachment')).toBeNull();
  });

  it('refuses an image the agent cannot take, with the reason', async () => {
    render(Composer, { props: { onsend: vi.fn(), allowAttachments: true, capabilities: { image: false, audio: false, embeddedContext: false } } });
    await paste(screen.getByTestId('prompt'), [png()]);
    expect((await screen.findByTestId('attach-error')).textContent).toContain('does not accept images, so paste.png was not added');
    expect(screen.queryByTestId('attachment')).toBeNull();
  });

  it('can remove an attachment, and ignores files where attachments are off', async () => {
    render(Composer, { props: { onsend: vi.fn(), allowAttachments: true } });
    await paste(screen.getByTestId('prompt'), [png()]);
    await fireEvent.click(await screen.findByTestId('attachment-remove'));
    expect(screen.queryByTestId('attachment')).toBeNull();
    cleanupAll();
    render(Composer, { props: { onsend: vi.fn() } });
    const ev = await paste(screen.getByTestId('prompt'), [png()]);
    // Left to the browser (pasted as text, if anything), never read as a file.
    expect(ev.defaultPrevented).toBe(false);
    expect(screen.queryByTestId('attachment')).toBeNull();
  });
});
