import { describe, expect, it } from 'vitest';
import { humanBytes, maxAttachmentBytes, maxAttachmentTotal, readAttachment, refusal, type PendingAttachment } from './attach';

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

describe('what a refusal tells the user', () => {
  it('names the file it refuses, and the limit of one message', () => {
    expect(refusal({ name: 'e.txt', type: 'text/plain', size: 0 }, [], all)?.params).toEqual({ name: 'e.txt' });
    expect(refusal({ name: 'a.png', type: 'image/png', size: 10 }, [], none)?.params).toEqual({ name: 'a.png' });
    expect(refusal({ name: 'a.wav', type: 'audio/wav', size: 10 }, [], none)?.params).toEqual({ name: 'a.wav' });
    const have = [{ name: 'a', size: 20 << 20 }] as PendingAttachment[];
    expect(refusal({ name: 'c.txt', type: 'text/plain', size: 6 << 20 }, have, all)).toEqual({ key: 'attach.tooMuch', params: { max: '25.0 MiB' } });
  });

  it('takes a file of exactly the limit, and a message of exactly the total', () => {
    expect(refusal({ name: 'a.png', type: 'image/png', size: maxAttachmentBytes }, [], all)).toBeNull();
    const have = [{ name: 'a', size: maxAttachmentTotal - (5 << 20) }] as PendingAttachment[];
    expect(refusal({ name: 'b.txt', type: 'text/plain', size: 5 << 20 }, have, all)).toBeNull();
    expect(refusal({ name: 'b.txt', type: 'text/plain', size: (5 << 20) + 1 }, have, all)?.key).toBe('attach.tooMuch');
  });

  it('lets audio through while the capabilities are unknown', () => {
    expect(refusal({ name: 'a.wav', type: 'audio/wav', size: 10 }, [], null)).toBeNull();
  });

  it('says sizes in B, KiB and MiB from their first whole unit', () => {
    expect([1023, 1024, 1536, (1 << 20) - 1, 1 << 20].map(humanBytes)).toEqual(['1023 B', '1.0 KiB', '1.5 KiB', '1024.0 KiB', '1.0 MiB']);
  });
});

describe('readAttachment', () => {
  it('names a pasted file that has no name, and gives no type when the file has none', async () => {
    const a = await readAttachment(new File(['teal'], '', { type: '' }));
    expect(a.name).toBe('pasted');
    expect(a.mimeType).toBeUndefined();
    expect(a.preview).toBeUndefined();
    expect(atob(a.data!)).toBe('teal');
  });


  it('reads base64 data and keeps a preview for images', async () => {
    const a = await readAttachment(new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'shot.png', { type: 'image/png' }));
    expect(a).toMatchObject({ name: 'shot.png', mimeType: 'image/png', data: 'iVBORw==', size: 4 });
    expect(a.preview).toBe('data:image/png;base64,iVBORw==');
    const t = await readAttachment(new File(['teal'], 'notes.txt', { type: 'text/plain' }));
    expect(t.preview).toBeUndefined();
    expect(atob(t.data!)).toBe('teal');
  });
});
