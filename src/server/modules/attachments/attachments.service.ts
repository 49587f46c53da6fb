import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import {
  ATTACHMENT_LIMITS,
  ATTACHMENT_TEXT,
  ATTACHMENT_TYPES,
  type AttachmentKind,
  cleanFileName,
  detectAttachmentKind,
} from '../../../contracts/attachments.ts';
import { isUuid } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { FormPart } from '../../http/form-parts.ts';
import type { RateLimiter } from '../../security/rate-limiter.ts';
import type { FileStorage } from '../../storage/storage.ts';
import { cleanImage, UnreadableImageError } from './attachment-image.ts';
import type { AttachmentRow, AttachmentsRepository } from './attachments.repository.ts';

/** A message form as received: its text fields, and its files stored and recorded as pending. */
export interface ReceivedForm {
  fields: Record<string, string>;
  attachmentIds: string[];
}

const PREFIX = 'ticketAttachments/';
const keyOf = (id: string, kind: AttachmentKind) => `${PREFIX}${id}.${kind}`;
const thumbnailKeyOf = (id: string) => `${PREFIX}${id}.thumb.webp`;
const KEY = /^ticketAttachments\/[0-9a-f-]{36}\.(?:jpg|png|webp|pdf|thumb\.webp)$/;

/** Reads a file part to its end, keeping at most `max + 1` bytes (the parser stops there anyway). */
async function readPart(file: Readable, max: number): Promise<{ data: Buffer; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file as AsyncIterable<Buffer>) {
    if (size <= max) chunks.push(chunk);
    size += chunk.length;
  }
  const truncated = (file as { truncated?: boolean }).truncated === true;
  return { data: Buffer.concat(chunks), tooLarge: truncated || size > max };
}

export interface AttachmentsServiceOptions {
  repository: AttachmentsRepository;
  storage: FileStorage;
  limiter: RateLimiter;
  /** Files one account may send in an hour (ATTACHMENTS_PER_USER_PER_HOUR). */
  perUserPerHour: number;
  log: Pick<FastifyBaseLogger, 'warn'>;
}

export function createAttachmentsService({
  repository,
  storage,
  limiter,
  perUserPerHour,
  log,
}: AttachmentsServiceOptions) {
  async function removeFiles(rows: Array<Pick<AttachmentRow, 'storageKey' | 'thumbnailKey'>>) {
    for (const row of rows) {
      await storage.delete(row.storageKey);
      if (row.thumbnailKey) await storage.delete(row.thumbnailKey);
    }
  }

  /** Removes pending attachments (a send that failed): their files, then their rows. */
  async function discard(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    // Files first: a crash in between leaves rows the sweep finishes, never files nobody names.
    const rows = await repository.pendingByIds(ids);
    await removeFiles(rows);
    await repository.deletePending(ids);
  }

  /** Checks, cleans and stores one file; returns the pending row's id. */
  async function store(userId: string, filename: string, data: Buffer): Promise<string> {
    const kind = detectAttachmentKind(data.subarray(0, ATTACHMENT_LIMITS.sniffBytes));
    const shown = filename || 'file';
    if (data.length === 0) throw new AppError('INVALID_ARGUMENT', ATTACHMENT_TEXT.empty(shown));
    if (!kind) throw new AppError('INVALID_ARGUMENT', ATTACHMENT_TEXT.unsupported(shown));
    let stored: Buffer = data;
    let thumbnail: Buffer | null = null;
    let width: number | null = null;
    let height: number | null = null;
    if (kind !== 'pdf') {
      try {
        const clean = await cleanImage(data, kind);
        ({ width, height, thumbnail } = clean);
        stored = clean.data;
      } catch (error) {
        if (error instanceof UnreadableImageError)
          throw new AppError('INVALID_ARGUMENT', ATTACHMENT_TEXT.unreadable(shown));
        throw error;
      }
    }
    const id = randomUUID();
    const row = {
      id,
      userId,
      kind,
      name: cleanFileName(filename, kind),
      size: stored.length,
      width,
      height,
      storageKey: keyOf(id, kind),
      thumbnailKey: thumbnail ? thumbnailKeyOf(id) : null,
    };
    // The row first: a file in storage always has a row naming it (the sweep relies on it).
    await repository.insertPending(row);
    try {
      await storage.put(row.storageKey, Readable.from([stored]), { contentType: ATTACHMENT_TYPES[kind].contentType });
      if (thumbnail && row.thumbnailKey)
        await storage.put(row.thumbnailKey, Readable.from([thumbnail]), { contentType: 'image/webp' });
    } catch (error) {
      await discard([id]).catch(() => {});
      throw error;
    }
    return id;
  }

  return {
    discard,

    /**
     * One file that came with a mail (modules/inbound): the same checks as an upload (type by its
     * bytes, size, photos re-encoded without metadata); a refused file throws in the user's words.
     */
    async receiveFile(userId: string, filename: string, data: Buffer): Promise<string> {
      if (data.length > ATTACHMENT_LIMITS.maxBytes)
        throw new AppError('INVALID_ARGUMENT', ATTACHMENT_TEXT.tooLarge(filename || 'file'));
      return store(userId, filename, data);
    },

    /**
     * Reads a message form with files (`files` parts; other file parts are ignored), storing each
     * accepted file as a pending attachment of `userId`. Any refused file refuses the whole form,
     * in the user's words, and nothing of it stays stored. `mayAttach` is asked before the first
     * file is read (the ticket is still open and the sender's).
     */
    async receive(
      userId: string,
      parts: AsyncIterable<FormPart>,
      mayAttach: () => Promise<void> = async () => {},
      /** A claim's first message takes more (docs/decisions/152-incident-claims.md), refused in its own words. */
      most: { files: number; refusal: string } = {
        files: ATTACHMENT_LIMITS.filesPerMessage,
        refusal: ATTACHMENT_TEXT.tooMany,
      },
    ): Promise<ReceivedForm> {
      const fields: Record<string, string> = {};
      const ids: string[] = [];
      let refusal: unknown = null;
      let files = 0;
      try {
        for await (const part of parts) {
          if (part.type === 'field') {
            if (part.valueTruncated) refusal ??= new AppError('INVALID_ARGUMENT', ATTACHMENT_TEXT.unreadableForm);
            else fields[part.fieldname] = String(part.value);
            continue;
          }
          const { data, tooLarge } = await readPart(part.file, ATTACHMENT_LIMITS.maxBytes);
          // A form's file input with nothing chosen sends an empty, nameless part.
          if (part.fieldname !== 'files' || (data.length === 0 && !part.filename) || refusal !== null) continue;
          files += 1;
          try {
            if (files > most.files) throw new AppError('INVALID_ARGUMENT', most.refusal);
            if (tooLarge) throw new AppError('INVALID_ARGUMENT', ATTACHMENT_TEXT.tooLarge(part.filename || 'file'));
            if (files === 1) await mayAttach();
            await limiter.consume(
              { key: `attachments:user:${userId}`, limit: perUserPerHour, windowMs: 3_600_000 },
              ATTACHMENT_TEXT.tooManyPerHour,
            );
            ids.push(await store(userId, part.filename, data));
          } catch (error) {
            refusal = error;
          }
        }
      } catch (error) {
        refusal ??= error;
      }
      if (refusal !== null) {
        await discard(ids);
        throw refusal;
      }
      return { fields, attachmentIds: ids };
    },

    /** A file (or a photo's thumbnail) for someone who may see it; anyone else: not found. */
    async open(ticketId: string, attachmentId: string, viewer: { userId: string; admin: boolean }, thumbnail: boolean) {
      const row =
        isUuid(ticketId) && isUuid(attachmentId) ? await repository.findVisible(ticketId, attachmentId, viewer) : null;
      const key = row ? (thumbnail ? row.thumbnailKey : row.storageKey) : null;
      const object = key ? await storage.get(key) : null;
      if (!row || !object) throw new AppError('NOT_FOUND', ATTACHMENT_TEXT.missing);
      return {
        body: object.body,
        size: object.size,
        contentType: thumbnail ? 'image/webp' : ATTACHMENT_TYPES[row.kind].contentType,
        name: thumbnail ? row.name.replace(/\.[^.]*$/, '.webp') : row.name,
        /** PDFs are only ever downloaded; photos may be shown. */
        inline: row.kind !== 'pdf',
      };
    },

    /**
     * Removes what sends that never completed left behind: pending rows older than an hour with
     * their files, and files under our prefix that no row names (a row is written before its file,
     * and deleted after it, so such a file is always left over). Safe while other instances serve.
     */
    async sweep(options: { olderThanMs?: number } = {}): Promise<{ removedRows: number; removedFiles: number }> {
      const stale = await repository.stalePending(new Date(Date.now() - (options.olderThanMs ?? 3_600_000)));
      await removeFiles(stale);
      await repository.deletePending(stale.map((r) => r.id));
      let removedFiles = 0;
      let cursor: string | null = null;
      do {
        const page = await storage.list(PREFIX, { cursor });
        const held = await repository.heldKeys(page.keys);
        for (const key of page.keys) {
          if (!KEY.test(key) || held.has(key)) continue;
          await storage.delete(key);
          removedFiles += 1;
        }
        cursor = page.nextCursor;
      } while (cursor !== null);
      if (stale.length + removedFiles > 0)
        log.warn({ rows: stale.length, files: removedFiles }, 'removed attachments of sends that never completed');
      return { removedRows: stale.length, removedFiles };
    },
  };
}

export type AttachmentsService = ReturnType<typeof createAttachmentsService>;
