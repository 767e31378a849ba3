// Attachments added to the composer: read from pasted or dropped files and
// checked before sending against what the agent takes and the size limits
// Go enforces (core/chat MaxAttachmentBytes / MaxAttachmentTotal).
import type { Attachment, PromptCapabilities } from './types';

export const maxAttachmentBytes = 10 << 20;
export const maxAttachmentTotal = 25 << 20;

export interface PendingAttachment extends Attachment {
  size: number;
  /** data: URL for an image thumbnail. */
  preview?: string;
}

export type Refusal = { key: string; params: Record<string, string> };

export function humanBytes(n: number): string {
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MiB`;
  if (n >= 1 << 10) return `${(n / (1 << 10)).toFixed(1)} KiB`;
  return `${n} B`;
}

/**
 * Why file cannot be added ("" key when it can): too big, too much in one
 * message, or a kind the agent said it does not take. Unknown capabilities
 * (no turn ran yet) let it through; Go checks again before sending.
 */
export function refusal(file: { name: string; type: string; size: number }, have: PendingAttachment[], caps: PromptCapabilities | null): Refusal | null {
  if (file.size === 0) return { key: 'attach.empty', params: { name: file.name } };
  if (file.size > maxAttachmentBytes) {
    return { key: 'attach.tooBig', params: { name: file.name, size: humanBytes(file.size), max: humanBytes(maxAttachmentBytes) } };
  }
  const total = have.reduce((n, a) => n + a.size, 0) + file.size;
  if (total > maxAttachmentTotal) return { key: 'attach.tooMuch', params: { max: humanBytes(maxAttachmentTotal) } };
  if (caps && file.type.startsWith('image/') && !caps.image) return { key: 'attach.noImages', params: { name: file.name } };
  if (caps && file.type.startsWith('audio/') && !caps.audio) return { key: 'attach.noAudio', params: { name: file.name } };
  return null;
}

/** Reads a file into an attachment (base64 data; a preview for images). */
export function readAttachment(file: File): Promise<PendingAttachment> {
  return new Promise((ok, fail) => {
    const r = new FileReader();
    r.onerror = () => fail(r.error ?? new Error(`could not read ${file.name}`));
    r.onload = () => {
      const url = String(r.result);
      const data = url.slice(url.indexOf(',') + 1);
      const mimeType = file.type || undefined;
      ok({ name: file.name || 'pasted', mimeType, data, size: file.size, preview: file.type.startsWith('image/') ? url : undefined });
    };
    r.readAsDataURL(file);
  });
}
