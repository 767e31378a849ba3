import { describe, expect, it } from 'vitest';
import { maxAttachmentBytes, readAttachment, refusal, type PendingAttachment } from './attach';

const all = { image: true, audio: true, embeddedContext: true };
const none = { image: false, audio: false, embeddedContext: false };

describe('refusal', () => {
  it.each([
    { name: 'an image the agent takes', file: { name: 'a.png', type: 'image/png', size: 10 }, caps: all, want: null },
    { name: 'capabilities unknown yet: Go checks later', file: { name: 'a.png', type: 'image/png', size: 10 }, caps: null, want: null },
    { name: 'an image the agent does not take', file: { name: 'a.png', type: 'image/png', size: 10 }, caps: none, want: 'attach.noImages' },
    { name: 'audio the agent does not take', file: { name: 'a.wav', type: 'audio/wav', size: 10 }, caps: none, want: 'attach.noAudio' },
    { name: 'a text file is always fine (embedded or saved into the workspace)', file: { name: 'n.md', type: 'text/markdown', size: 10 }, caps: none, want: null },
    { name: 'too big', file: { name: 'big.png', type: 'image/png', size: maxAttachmentBytes + 1 }, caps: all, want: 'attach.tooBig' },
    { name: 'empty', file: { name: 'e.txt', type: 'text/plain', size: 0 }, caps: all, want: 'attach.empty' },
  ])('$name', ({ file, caps, want }) => {
    expect(refusal(file, [], caps)?.key ?? null).toBe(want);
  });

  it('names the size and the limit, and counts what is already attached', () => {
    expect(refusal({ name: 'big.png', type: 'image/png', size: 12 << 20 }, [], all)?.params).toEqual({ name: 'big.png', size: '12.0 MiB', max: '10.0 MiB' });
    const have = [{ name: 'a', size: 9 << 20 }, { name: 'b', size: 9 << 20 }] as PendingAttachment[];
    expect(refusal({ name: 'c.png', type: 'image/png', size: 9 << 20 }, have, all)?.key).toBe('attach.tooMuch');
  });
});

describe('readAttachment', () => {
  it('reads base64 data and keeps a preview for images', async () => {
    const a = await readAttachment(new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'shot.png', { type: 'image/png' }));
    expect(a).toMatchObject({ name: 'shot.png', mimeType: 'image/png', data: 'iVBORw==', size: 4 });
    expect(a.preview).toBe('data:image/png;base64,iVBORw==');
    const t = await readAttachment(new File(['teal'], 'notes.txt', { type: 'text/plain' }));
    expect(t.preview).toBeUndefined();
    expect(atob(t.data!)).toBe('teal');
  });
});
