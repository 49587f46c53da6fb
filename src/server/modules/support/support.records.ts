import type { AppDatabase } from '../../db/connection.ts';
import { createSupportRepository } from './support.repository.ts';

/**
 * Tickets opened by another module inside its own transaction (the privacy module's Deactivation
 * ticket commits with the account's deletion). The ticket is created exactly as a user's own is:
 * its number from the sequence, its first message, the team's notification event and the live
 * announcement to the inbox, all in the caller's transaction.
 */
export function createSupportRecords(options: { notifyDelaySeconds: number }) {
  return {
    async openTicket(
      db: AppDatabase,
      input: { userId: string; reason: 'General' | 'Incident' | 'Deactivation'; message: string },
    ): Promise<{ ticketId: string; ticketNo: number }> {
      const created = await createSupportRepository(db, options).createTicket(
        input.userId,
        input.reason,
        input.message,
      );
      if (!created) throw new Error('a ticket without a client id was not stored');
      return { ticketId: created.ticketId, ticketNo: created.ticketNo };
    },
  };
}

export type SupportRecords = ReturnType<typeof createSupportRecords>;
