import { holdsPermission } from '../../db/staff.ts';
import { and, asc, eq, gt, gte, isNotNull, isNull, lte, notExists, sql } from 'drizzle-orm';
import { type AppDatabase } from '../../db/connection.ts';
import {
  mailReplyTokens,
  notificationEvents,
  notificationOptOuts,
  supportTickets,
  ticketMessages,
  unsubscribeTokens,
  users,
} from '../../db/schema.ts';
import { createMailQueueRepository } from './notifications.mail-queue.repository.ts';

/**
 * The outbox tables: notification events waiting to become mail, who switched what off, and
 * unsubscribe links; the mail itself (claiming, outcomes, the admin page) is in
 * notifications.mail-queue.repository.ts and spread in here.
 */
export { type ClaimedMail, type MailState } from './notifications.mail-queue.repository.ts';

export const OPT_OUT_KINDS = ['ticket-replies', 'ticket-closed', 'team'] as const;
export type OptOutKind = (typeof OPT_OUT_KINDS)[number];

export type EventKind = 'ticket-reply' | 'ticket-closed' | 'ticket-reopened' | 'team-new-ticket' | 'team-user-reply';

export interface DueEvent {
  id: number;
  kind: EventKind;
  ticketId: string | null;
  messageId: number | null;
}

export interface TicketFacts {
  id: string;
  ticketNo: number;
  reason: string;
  open: boolean;
  ownerId: string;
  ownerEmail: string;
  /** The name the owner gave, if any: their mail greets them by it. */
  ownerName: string | null;
  ownerActive: boolean;
  ownerSeenMessageId: number;
}

export interface Recipient {
  userId: string;
  email: string;
}

/** The admin handling a ticket; `reachable` is false when their own settings or address keep mail from them. */
export interface Assignee extends Recipient {
  reachable: boolean;
}

export function createNotificationsRepository(db: AppDatabase) {
  return {
    ...createMailQueueRepository(db),

    // Composing (inside the worker's transaction).

    /** Locks due events for this transaction; other workers skip them. */
    async claimDueEvents(limit: number): Promise<DueEvent[]> {
      const rows = await db
        .select({
          id: notificationEvents.id,
          kind: notificationEvents.kind,
          ticketId: notificationEvents.ticketId,
          messageId: notificationEvents.messageId,
        })
        .from(notificationEvents)
        .where(lte(notificationEvents.dueAt, sql`now()`))
        .orderBy(asc(notificationEvents.id))
        .limit(limit)
        .for('update', { skipLocked: true });
      return rows.map((r) => ({
        id: Number(r.id),
        kind: r.kind as EventKind,
        ticketId: r.ticketId,
        messageId: r.messageId === null ? null : Number(r.messageId),
      }));
    },

    async deleteEvent(id: number): Promise<void> {
      await db.delete(notificationEvents).where(eq(notificationEvents.id, id));
    },

    /** The answers a full mail could not hold: told in a mail of their own, at once. */
    async queueRemainingAnswers(ticketId: string, fromMessageId: number): Promise<void> {
      await db
        .insert(notificationEvents)
        .values({ kind: 'ticket-reply', ticketId, messageId: fromMessageId })
        // The pending answer notice of the ticket (a partial unique index) already covers them.
        .onConflictDoNothing({ target: notificationEvents.ticketId, where: sql`kind = 'ticket-reply'` });
    },

    async findTicketFacts(ticketId: string): Promise<TicketFacts | null> {
      const [row] = await db
        .select({
          id: supportTickets.id,
          ticketNo: supportTickets.ticketNo,
          reason: supportTickets.reason,
          open: supportTickets.open,
          ownerId: supportTickets.userId,
          ownerEmail: users.email,
          ownerName: users.name,
          // A disabled account gets no mail, nor does one whose address bounced until its person signs in again.
          ownerActive: sql<boolean>`${users.disabledAt} is null and ${users.mailPausedAt} is null`,
          ownerSeenMessageId: supportTickets.ownerSeenMessageId,
        })
        .from(supportTickets)
        .innerJoin(users, eq(users.id, supportTickets.userId))
        .where(eq(supportTickets.id, ticketId));
      if (!row) return null;
      return {
        ...row,
        ticketNo: Number(row.ticketNo),
        ownerActive: Boolean(row.ownerActive),
        ownerSeenMessageId: Number(row.ownerSeenMessageId),
      };
    },

    /**
     * Up to `limit` admin answers from `fromId` on that the owner has not already received live,
     * oldest first. Internal notes are never answers: they never reach the owner's mail.
     */
    async unseenAnswers(
      ticketId: string,
      fromId: number,
      seenId: number,
      limit: number,
    ): Promise<Array<{ id: number; body: string; authorName: string | null }>> {
      const rows = await db
        .select({ id: ticketMessages.id, body: ticketMessages.messageBody, authorName: users.name })
        .from(ticketMessages)
        .leftJoin(users, eq(users.id, ticketMessages.userId))
        .where(
          and(
            eq(ticketMessages.ticketId, ticketId),
            eq(ticketMessages.admin, true),
            eq(ticketMessages.internal, false),
            gte(ticketMessages.id, fromId),
            gt(ticketMessages.id, seenId),
          ),
        )
        .orderBy(asc(ticketMessages.id))
        .limit(limit);
      return rows.map((r) => ({ id: Number(r.id), body: r.body, authorName: r.authorName }));
    },

    async findMessageBody(messageId: number): Promise<string | null> {
      const [row] = await db
        .select({ body: ticketMessages.messageBody })
        .from(ticketMessages)
        .where(eq(ticketMessages.id, messageId));
      return row?.body ?? null;
    },

    /** Active, verified staff who answer tickets and have not switched the team mails off. */
    async teamRecipients(): Promise<Recipient[]> {
      return db
        .select({ userId: users.id, email: users.email })
        .from(users)
        .where(
          and(
            holdsPermission(sql`${users.id}`, 'tickets.write'),
            isNull(users.mailPausedAt),
            isNotNull(users.emailVerifiedAt),
            notExists(
              db
                .select({ one: sql`1` })
                .from(notificationOptOuts)
                .where(and(eq(notificationOptOuts.userId, users.id), eq(notificationOptOuts.kind, 'team'))),
            ),
          ),
        )
        .orderBy(asc(users.email));
    },

    /**
     * The admin a ticket is assigned to, while still an active admin; null when it is nobody's (or its
     * admin was disabled or is no longer an admin), so that the whole team hears of it instead.
     */
    async activeAssignee(ticketId: string): Promise<Assignee | null> {
      const [row] = await db
        .select({
          userId: users.id,
          email: users.email,
          // Like teamRecipients: verified, not paused after a bounce, team mail not switched off.
          reachable: sql<boolean>`${users.mailPausedAt} is null and ${users.emailVerifiedAt} is not null
            and not exists (select 1 from ${notificationOptOuts}
              where ${notificationOptOuts.userId} = ${users.id} and ${notificationOptOuts.kind} = 'team')`,
        })
        .from(supportTickets)
        .innerJoin(users, eq(users.id, supportTickets.assignedTo))
        .where(and(eq(supportTickets.id, ticketId), holdsPermission(sql`${users.id}`, 'tickets.write')));
      return row ? { ...row, reachable: Boolean(row.reachable) } : null;
    },

    async hasOptedOut(userId: string, kind: OptOutKind): Promise<boolean> {
      const rows = await db
        .select({ one: sql`1` })
        .from(notificationOptOuts)
        .where(and(eq(notificationOptOuts.userId, userId), eq(notificationOptOuts.kind, kind)));
      return rows.length > 0;
    },

    /** A reply address for one mail about one ticket to one person (only the token's hash is kept). */
    async insertReplyToken(input: {
      tokenHash: string;
      ticketId: string;
      userId: string;
      email: string;
      days: number;
    }): Promise<void> {
      await db.insert(mailReplyTokens).values({
        tokenHash: input.tokenHash,
        ticketId: input.ticketId,
        userId: input.userId,
        email: input.email.toLowerCase(),
        expiresAt: sql`now() + make_interval(days => ${input.days})`,
      });
    },

    async insertUnsubscribeToken(tokenHash: string, userId: string, kind: OptOutKind): Promise<void> {
      await db.insert(unsubscribeTokens).values({ tokenHash, userId, kind });
    },

    // Preferences and unsubscribe links.

    async optOutsOf(userId: string): Promise<Set<OptOutKind>> {
      const rows = await db
        .select({ kind: notificationOptOuts.kind })
        .from(notificationOptOuts)
        .where(eq(notificationOptOuts.userId, userId));
      return new Set(rows.map((r) => r.kind as OptOutKind));
    },

    async setOptOut(userId: string, kind: OptOutKind, off: boolean): Promise<void> {
      if (off) await db.insert(notificationOptOuts).values({ userId, kind }).onConflictDoNothing();
      else
        await db
          .delete(notificationOptOuts)
          .where(and(eq(notificationOptOuts.userId, userId), eq(notificationOptOuts.kind, kind)));
    },

    async findUnsubscribeToken(tokenHash: string): Promise<{ userId: string; email: string; kind: OptOutKind } | null> {
      const [row] = await db
        .select({ userId: unsubscribeTokens.userId, email: users.email, kind: unsubscribeTokens.kind })
        .from(unsubscribeTokens)
        .innerJoin(users, eq(users.id, unsubscribeTokens.userId))
        .where(eq(unsubscribeTokens.tokenHash, tokenHash));
      return row ? { userId: row.userId, email: row.email, kind: row.kind as OptOutKind } : null;
    },
  };
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
