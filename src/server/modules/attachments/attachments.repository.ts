import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { AttachmentKind } from '../../../contracts/attachments.ts';
import type { AppDatabase } from '../../db/connection.ts';
import { supportTickets, ticketAttachments, ticketMessages } from '../../db/schema.ts';

export interface AttachmentRow {
  id: string;
  ticketId: string | null;
  messageId: number | null;
  userId: string;
  kind: AttachmentKind;
  name: string;
  size: number;
  width: number | null;
  height: number | null;
  storageKey: string;
  thumbnailKey: string | null;
}

const columns = {
  id: ticketAttachments.id,
  ticketId: ticketAttachments.ticketId,
  messageId: ticketAttachments.messageId,
  userId: ticketAttachments.userId,
  kind: ticketAttachments.kind,
  name: ticketAttachments.name,
  size: ticketAttachments.size,
  width: ticketAttachments.width,
  height: ticketAttachments.height,
  storageKey: ticketAttachments.storageKey,
  thumbnailKey: ticketAttachments.thumbnailKey,
};
const toRow = (r: Omit<AttachmentRow, 'kind'> & { kind: string }): AttachmentRow => ({
  ...r,
  kind: r.kind as AttachmentKind,
});

/**
 * Attachment rows. A row is written (pending: no message) before its file is stored; the message
 * statement of the support module gives it its ticket and message (support.repository.ts), and
 * whatever is still pending after a while is a send that never finished (`stalePending`).
 */
export function createAttachmentsRepository(db: AppDatabase) {
  return {
    async insertPending(row: {
      id: string;
      userId: string;
      kind: AttachmentKind;
      name: string;
      size: number;
      width: number | null;
      height: number | null;
      storageKey: string;
      thumbnailKey: string | null;
    }): Promise<void> {
      await db.insert(ticketAttachments).values(row);
    },

    /** Removes rows that are still pending (never those a message holds); returns the removed ones. */
    async deletePending(ids: string[]): Promise<AttachmentRow[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .delete(ticketAttachments)
        .where(and(inArray(ticketAttachments.id, ids), isNull(ticketAttachments.messageId)))
        .returning(columns);
      return rows.map(toRow);
    },

    async pendingByIds(ids: string[]): Promise<AttachmentRow[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .select(columns)
        .from(ticketAttachments)
        .where(and(inArray(ticketAttachments.id, ids), isNull(ticketAttachments.messageId)));
      return rows.map(toRow);
    },

    /** Pending rows older than `olderThan`: sends that never completed. */
    async stalePending(olderThan: Date, limit = 500): Promise<AttachmentRow[]> {
      const rows = await db
        .select(columns)
        .from(ticketAttachments)
        .where(and(isNull(ticketAttachments.messageId), lt(ticketAttachments.createdAt, olderThan)))
        .limit(limit);
      return rows.map(toRow);
    },

    /** Of these storage keys, those a row names (as its file or its thumbnail). */
    async heldKeys(keys: string[]): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const rows = await db
        .select({ storageKey: ticketAttachments.storageKey, thumbnailKey: ticketAttachments.thumbnailKey })
        .from(ticketAttachments)
        .where(or(inArray(ticketAttachments.storageKey, keys), inArray(ticketAttachments.thumbnailKey, keys)));
      return new Set(rows.flatMap((r) => [r.storageKey, r.thumbnailKey ?? '']));
    },

    /**
     * An attachment of a sent message on this ticket, if the viewer may see it: the ticket's owner
     * (not on an internal note) or an admin. Anyone else gets null, exactly as for a missing file.
     */
    async findVisible(
      ticketId: string,
      attachmentId: string,
      viewer: { userId: string; admin: boolean },
    ): Promise<AttachmentRow | null> {
      const [row] = await db
        .select(columns)
        .from(ticketAttachments)
        .innerJoin(ticketMessages, eq(ticketMessages.id, ticketAttachments.messageId))
        .innerJoin(supportTickets, eq(supportTickets.id, ticketMessages.ticketId))
        .where(
          and(
            eq(ticketAttachments.id, attachmentId),
            eq(supportTickets.id, ticketId),
            viewer.admin
              ? sql`true`
              : and(eq(supportTickets.userId, viewer.userId), eq(ticketMessages.internal, false)),
          ),
        );
      return row ? toRow(row) : null;
    },
  };
}

export type AttachmentsRepository = ReturnType<typeof createAttachmentsRepository>;
