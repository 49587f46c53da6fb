/**
 * Files in the support chat (docs/product.md §2.11): photos (JPEG, PNG, WebP) and PDFs, up to five
 * on a message, each at most 10 MB, the type decided by the file's first bytes. Shared by the
 * server (which decides) and the pages (which refuse early, with the same words).
 */
export const ATTACHMENT_LIMITS = {
  filesPerMessage: 5,
  maxBytes: 10_485_760,
  /** Bytes read before the type is decided. */
  sniffBytes: 12,
  /** The longest side of a stored photo; larger photos are scaled down. */
  maxImageSide: 4096,
  /** The longest side of a thumbnail. */
  thumbnailSide: 480,
  /** A photo may declare at most this many pixels (a 30000×30000 "pixel flood" is refused unread). */
  maxInputPixels: 50_000_000,
} as const;

export type AttachmentKind = 'jpg' | 'png' | 'webp' | 'pdf';

export const ATTACHMENT_TYPES: Record<AttachmentKind, { contentType: string; image: boolean }> = {
  jpg: { contentType: 'image/jpeg', image: true },
  png: { contentType: 'image/png', image: true },
  webp: { contentType: 'image/webp', image: true },
  pdf: { contentType: 'application/pdf', image: false },
};

/** What the file picker offers (a hint only: the bytes decide). */
export const ATTACHMENT_ACCEPT = '.jpg,.jpeg,.png,.webp,.pdf,image/jpeg,image/png,image/webp,application/pdf';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const ascii = (head: Uint8Array, at: number, text: string) =>
  [...text].every((char, i) => head[at + i] === char.charCodeAt(0));

/** The file's kind from its first bytes (at least `sniffBytes`), or null when it is none we take. */
export function detectAttachmentKind(head: Uint8Array): AttachmentKind | null {
  if (head.length < 4) return null;
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg';
  if (PNG.every((byte, i) => head[i] === byte)) return 'png';
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')) return 'webp';
  if (ascii(head, 0, '%PDF-')) return 'pdf';
  return null;
}

const MB = ATTACHMENT_LIMITS.maxBytes / 1_048_576;

/** The largest page form with a message's files: five files of 10 MB and the text around them (the endpoints enforce the exact limits). */
export const MESSAGE_FORM_MAX_BYTES = ATTACHMENT_LIMITS.filesPerMessage * ATTACHMENT_LIMITS.maxBytes + 1024 * 1024;

export const ATTACHMENT_TEXT = {
  attach: 'Attach files',
  attachHint: `Photos (JPEG, PNG, WebP) or PDFs, up to ${ATTACHMENT_LIMITS.filesPerMessage} files of ${MB} MB each`,
  remove: (name: string) => `Remove ${name}`,
  dropHere: 'Drop files here to attach them',
  uploading: 'Uploading',
  attachments: 'Attachments',
  download: 'Download',
  openImage: (name: string) => `Open ${name}`,
  tooLarge: (name: string) => `“${name}” is larger than ${MB} MB. Choose a smaller file.`,
  unsupported: (name: string) => `“${name}” is not a photo (JPEG, PNG or WebP) or a PDF, so it cannot be attached.`,
  unreadable: (name: string) =>
    `“${name}” could not be read as a photo: it may be damaged or too large in pixels. Try another photo.`,
  empty: (name: string) => `“${name}” is empty.`,
  tooMany: `You can attach up to ${ATTACHMENT_LIMITS.filesPerMessage} files to a message.`,
  tooManyPerHour: 'You have sent a lot of files in the last hour. Please wait a while before sending more.',
  closed: 'This ticket is closed, so it takes no more files. Please create a new ticket!',
  notMultipart: 'Files must be sent as multipart/form-data.',
  unreadableForm: 'The form could not be read. Please send it again.',
  missing: 'This file does not exist, or you may not see it.',
  noNotes: 'Internal notes take text only.',
} as const;

export function attachmentUrl(ticketId: string, attachmentId: string, thumbnail = false): string {
  return `/api/support/tickets/${ticketId}/attachments/${attachmentId}${thumbnail ? '/thumbnail' : ''}`;
}

/**
 * A file name fit to show and to offer as a download name: the last path segment, without
 * control, format (bidi override) or separator characters, at most 120 characters, ending in the
 * extension of what the bytes are.
 */
export function cleanFileName(name: string, kind: AttachmentKind): string {
  const base = (name.split(/[/\\]/).pop() ?? '')
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
  const stem = base.replace(/\.[^.]*$/, '').slice(0, 110) || (kind === 'pdf' ? 'document' : 'photo');
  const ext = base.match(/\.([^.]*)$/)?.[1]?.toLowerCase();
  const keeps = ext === kind || (kind === 'jpg' && ext === 'jpeg');
  return `${stem}.${keeps ? ext : kind}`;
}

/** How big a file is, in the words a person uses. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1_048_576) return `${Math.round(bytes / 1024)} kB`;
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}
