import { and, asc, eq, inArray, isNull, lte, ne, notInArray, or, sql } from 'drizzle-orm';
import { ERASED_USER, erasedEmail } from '../../../contracts/account-deletion.ts';
import type { AppDatabase } from '../../db/connection.ts';
import {
  auditLog,
  authChallenges,
  companies,
  emailTokens,
  inboundMail,
  mailOutbox,
  mailReplyTokens,
  notificationEvents,
  notificationOptOuts,
  recoveryCodes,
  secondFactors,
  sessions,
  sideConversations,
  supportTickets,
  ticketAttachments,
  ticketRatings,
  unsubscribeTokens,
  users,
} from '../../db/schema.ts';

/** A password hash no password can match: verifyPassword answers false for it without throwing. */
export const ERASED_PASSWORD_HASH = '!';

export interface ErasureOutcome {
  deletedTickets: number;
  keptTickets: number;
  /** Storage keys of the files whose rows are gone: deleted from storage after the commit. */
  storageKeys: string[];
}

/**
 * Erasure of one account's personal data (docs/decisions/098-account-deletion-and-erasure.md), in
 * the caller's transaction. Like the data export (privacy.repository.ts), this is the one place that
 * must reach every table holding a person's data at once, so it writes other modules' tables on
 * purpose: everything the export lists is erased or replaced here, in one transaction, or not at all.
 */
export function createErasureRepository(db: AppDatabase) {
  return {
    /**
     * One account due for erasure that no other worker holds (row lock until the transaction ends),
     * other than those this round already failed.
     */
    async claimDue(skip: string[] = []): Promise<{ id: string; email: string } | null> {
      const [row] = await db
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(
          and(
            lte(users.eraseAfter, sql`now()`),
            isNull(users.erasedAt),
            skip.length > 0 ? notInArray(users.id, skip) : undefined,
          ),
        )
        .orderBy(asc(users.eraseAfter))
        .limit(1)
        .for('update', { skipLocked: true });
      return row ?? null;
    },

    async erase(userId: string, email: string): Promise<ErasureOutcome> {
      const replacement = erasedEmail(userId);
      const ownTickets = db
        .select({ id: supportTickets.id })
        .from(supportTickets)
        .where(and(eq(supportTickets.userId, userId), eq(supportTickets.keepForRecord, false)));
      // Files that go: the person's own (on any ticket, sent or pending) and every file of their
      // tickets that are not kept (the team's answers on them go with the ticket).
      const files = await db
        .select({ storageKey: ticketAttachments.storageKey, thumbnailKey: ticketAttachments.thumbnailKey })
        .from(ticketAttachments)
        .where(or(eq(ticketAttachments.userId, userId), inArray(ticketAttachments.ticketId, ownTickets)));
      await db.delete(ticketAttachments).where(eq(ticketAttachments.userId, userId));
      // Pending notifications of those tickets go before the tickets themselves. The mail worker
      // locks an event and then, recording its mail (whose ticket_id is a foreign key), the event's
      // ticket; deleting the ticket first took the two the other way round, and on PostgreSQL the
      // two transactions deadlocked (the erasure failed and was retried; found by the CI run).
      await db.delete(notificationEvents).where(inArray(notificationEvents.ticketId, ownTickets));
      // Messages, the team's files and ratings go with the ticket (cascade).
      const deleted = await db
        .delete(supportTickets)
        .where(and(eq(supportTickets.userId, userId), eq(supportTickets.keepForRecord, false)))
        .returning({ id: supportTickets.id });
      const kept = await db
        .select({ id: supportTickets.id })
        .from(supportTickets)
        .where(eq(supportTickets.userId, userId));
      if (kept.length > 0) {
        await db
          .update(ticketRatings)
          .set({ comment: null })
          .where(
            inArray(
              ticketRatings.ticketId,
              kept.map((t) => t.id),
            ),
          );
      }
      for (const table of [sessions, emailTokens, notificationOptOuts, unsubscribeTokens, mailReplyTokens]) {
        await db.delete(table).where(eq(table.userId, userId));
      }
      // Mail they sent us, kept whole beside their messages: it goes with them (the messages kept
      // for the record keep their words, as 'Deleted user').
      await db
        .delete(inboundMail)
        .where(or(eq(inboundMail.userId, userId), eq(sql`lower(${inboundMail.fromAddress})`, email)));
      // Side conversations the team had with them about someone else's ticket (decision 138): the
      // team's record stays, without their address, and closed, so no reply address of it works
      // any more. (Their mailed replies went with their mail above; the words stay, as a kept
      // ticket's do.)
      await db
        .update(sideConversations)
        .set({
          counterpart: ERASED_USER,
          state: 'closed',
          closedAt: sql`coalesce(${sideConversations.closedAt}, now())`,
          updatedAt: sql`now()`,
        })
        .where(eq(sql`lower(${sideConversations.counterpart})`, email));
      await db.delete(secondFactors).where(eq(secondFactors.userId, userId));
      await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await db.delete(authChallenges).where(eq(authChallenges.userId, userId));
      // Mail not yet sent to the person does not go out; what was sent keeps its record, without them.
      const toThem = or(eq(mailOutbox.userId, userId), eq(sql`lower(${mailOutbox.recipient})`, email));
      await db.delete(mailOutbox).where(and(toThem, ne(mailOutbox.state, 'sent')));
      await db
        .update(mailOutbox)
        .set({ recipient: replacement, textBody: null, htmlBody: null })
        .where(and(toThem, eq(mailOutbox.state, 'sent')));
      // The audit log keeps what happened, not who it happened to: their address is replaced where
      // it was copied (the actor column, and details that quote it).
      await db.update(auditLog).set({ actorEmail: ERASED_USER }).where(eq(auditLog.actorId, userId));
      const quoted = JSON.stringify(email);
      await db
        .update(auditLog)
        .set({ details: sql`replace(${auditLog.details}::text, ${quoted}, ${JSON.stringify(ERASED_USER)})::jsonb` })
        .where(sql`strpos(${auditLog.details}::text, ${quoted}) > 0`);
      // Partner applications with their address: the company stays (a business record), the
      // person's contact details go.
      await db
        .update(companies)
        .set({
          contactPersonName: null,
          contactPersonJobTitle: null,
          contactPersonPhoneNumber: null,
          contactPersonEmail: null,
          emailKey: null,
        })
        .where(eq(sql`lower(${companies.contactPersonEmail})`, email));
      await db
        .update(users)
        .set({ email: replacement, name: null, passwordHash: ERASED_PASSWORD_HASH, erasedAt: sql`now()` })
        .where(eq(users.id, userId));
      const outcome = { deletedTickets: deleted.length, keptTickets: kept.length };
      await db.insert(auditLog).values({
        actorId: null,
        actorEmail: null,
        action: 'account.erased',
        targetType: 'user',
        targetId: userId,
        details: { ...outcome, files: files.length },
      });
      return {
        ...outcome,
        storageKeys: files.flatMap((f) => (f.thumbnailKey ? [f.storageKey, f.thumbnailKey] : [f.storageKey])),
      };
    },
  };
}
