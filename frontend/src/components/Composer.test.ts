import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import Composer from './Composer.svelte';

function setup(props: { enterSends?: boolean; running?: boolean } = {}) {
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

  it('Esc does nothing when idle', async () => {
    const { onstop, box } = setup();
    await fireEvent.keyDown(box, { key: 'Escape' });
    expect(onstop).not.toHaveBeenCalled();
  });
});
