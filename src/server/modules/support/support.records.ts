import type { AppDatabase } from '../../db/connection.ts';
import { createSupportRepository } from './support.repository.ts';
import type { MessageRow } from './support.rows.ts';

/**
 * What other modules may write into tickets, on a database handle of theirs: the privacy module's
 * Deactivation ticket (inside its own transaction), and the inbound mail module's posts (a reply or
 * a new ticket from a received mail). Each goes through the same statements a web request uses:
 * the ticket number from the sequence, `UPDATE … WHERE open` for a reply, the notification event
 * and the live announcement.
 */
export function createSupportRecords(options: { notifyDelaySeconds: number }) {
  const repositoryOf = (db: AppDatabase) => createSupportRepository(db, options);
  return {
    async openTicket(
      db: AppDatabase,
      input: { userId: string; reason: 'General' | 'Incident' | 'Deactivation'; message: string },
    ): Promise<{ ticketId: string; ticketNo: number }> {
      const created = await repositoryOf(db).createTicket(input.userId, input.reason, input.message);
      if (!created) throw new Error('a ticket without a client id was not stored');
      return { ticketId: created.ticketId, ticketNo: created.ticketNo };
    },

    /**
     * A ticket opened by a received mail: General, or (`follows`) a follow-up of a closed ticket
     * with its reason, linked as 'Still need help?' links it (the same statement). Its `clientId`
     * (`mail:<id>`) makes a second attempt a no-op (null), and the same statement marks that mail posted.
     */
    async openTicketFromMail(
      db: AppDatabase,
      input: {
        userId: string;
        message: string;
        clientId: string;
        attachmentIds: string[];
        inboundMailId: number;
        follows?: { ticketId: string; reason: string } | undefined;
      },
    ): Promise<{ ticketId: string; ticketNo: number; messageId: number } | null> {
      return repositoryOf(db).createTicket(
        input.userId,
        input.follows?.reason ?? 'General',
        input.message,
        input.clientId,
        input.attachmentIds,
        input.inboundMailId,
        { follows: input.follows?.ticketId ?? null },
      );
    },

    /** The open ticket of this user that carries on from a closed one, if any. */
    async findOpenFollowUp(db: AppDatabase, closedTicketId: string, userId: string) {
      return repositoryOf(db).findOpenFollowUp(closedTicketId, userId);
    },

    /**
     * A message posted from a received mail: null when nothing was stored (the ticket is closed or
     * gone, the mail was discarded, or an earlier attempt already posted it: see findPosted).
     */
    async postFromMail(
      db: AppDatabase,
      input: {
        ticketId: string;
        authorId: string;
        /** The owner's id for the owner's words; null for an admin's answer. */
        ownerId: string | null;
        admin: boolean;
        body: string;
        clientId: string;
        attachmentIds?: string[];
        inboundMailId: number;
      },
    ): Promise<MessageRow | null> {
      return repositoryOf(db).insertMessage(input);
    },

    /** The ticket an earlier attempt opened from a mail with this client id, if any. */
    async findTicketOpenedByMail(db: AppDatabase, userId: string, clientId: string) {
      return repositoryOf(db).findTicketByClientId(userId, clientId);
    },

    /** The message an earlier attempt posted with this client id, if any. */
    async findPosted(db: AppDatabase, ticketId: string, clientId: string, authorId: string) {
      return repositoryOf(db).findMessageByClientId(ticketId, clientId, authorId);
    },

    /**
     * The system closes an open ticket (the service levels' auto-close), in the caller's
     * transaction: its line in the thread, then the same close as an admin's (setOpen), so the
     * ticket counts as closed everywhere and its owner gets the 'closed' mail with the rating
     * question. False when the ticket was no longer open.
     */
    async closeWithSystemLine(
      db: AppDatabase,
      input: { ticketId: string; systemEvent: string; body: string },
    ): Promise<boolean> {
      const repository = repositoryOf(db);
      const line = await repository.insertSystemLine(input.ticketId, input.systemEvent, input.body);
      if (!line) return false;
      await repository.setOpen(input.ticketId, false);
      return true;
    },

    /**
     * The team answers or closes and reopens, in the caller's transaction (a macro, applied as one
     * change: modules/desk/macros.service.ts): the same statements as the console's reply and close.
     * `answer` is null when nothing was stored (the ticket is closed, or a retried client id).
     */
    async answer(
      db: AppDatabase,
      input: { ticketId: string; authorId: string; body: string; clientId: string | null },
    ) {
      return repositoryOf(db).insertMessage({ ...input, ownerId: null, admin: true });
    },
    async setOpen(db: AppDatabase, ticketId: string, open: boolean) {
      return repositoryOf(db).setOpen(ticketId, open);
    },
    /** A bulk close or reopen (modules/desk/bulk.service.ts), on rows the caller's transaction locked: the tickets changed, with their new version. */
    async setOpenAll(db: AppDatabase, ticketIds: readonly string[], open: boolean) {
      const rows = await repositoryOf(db).setOpenAll(ticketIds, open);
      return rows.map((row) => ({ id: row.id, version: Number(row.version) }));
    },

    /** Whose ticket it is, its number, and whether it is open. */
    async findTicket(db: AppDatabase, ticketId: string) {
      // A merged ticket's mail reaches the ticket it was merged into (docs/decisions/116-ticket-merge.md).
      const repository = repositoryOf(db);
      const row = await repository.findTicket(await repository.resolveMerged(ticketId), null);
      return row
        ? { id: row.id, ticketNo: row.ticketNo, open: row.open, ownerId: row.userId, reason: row.reason }
        : null;
    },
  };
}

export type SupportRecords = ReturnType<typeof createSupportRecords>;
