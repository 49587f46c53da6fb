import { holdsPermission } from '../../db/staff.ts';
import { and, count, desc, eq, gt, inArray, isNotNull, lt, type SQL, sql } from 'drizzle-orm';
import type { AppDatabase } from '../../db/connection.ts';
import { inboundMail, mailOutbox, mailReplyTokens, supportTickets, users } from '../../db/schema.ts';
import { queryRows } from '../../db/sql.ts';

/**
 * Mail that comes in: the raw messages (stored before anyone is told `250`), the worker's claims
 * and outcomes, the reply addresses, and what the Incoming view lists. Every outcome is one
 * statement guarded by the state it expects, so two workers never both record one.
 */
export interface StoredRaw {
  messageId: string;
  rawHash: string;
  raw: Buffer;
  via: 'smtp' | 'imap';
  remoteAddress?: string | null;
  helo?: string | null;
  envelopeFrom?: string | null;
  recipients: string[];
  fromAddress: string | null;
  subject: string | null;
}

export interface ClaimedInbound {
  id: number;
  messageId: string;
  raw: Buffer;
  via: 'smtp' | 'imap';
  remoteAddress: string | null;
  helo: string | null;
  envelopeFrom: string | null;
  recipients: string[];
  attempts: number;
}

export interface Outcome {
  state: 'posted' | 'held' | 'ignored';
  reason?: string | null;
  ticketId?: string | null;
  userId?: string | null;
  postedMessageId?: number | null;
  /** A reply to a side conversation (held: an admin's Post puts it there). */
  sideConversationId?: string | null;
  details?: Record<string, unknown>;
}

export interface ReplyToken {
  ticketId: string;
  userId: string;
  email: string;
  expired: boolean;
}

export interface Account {
  id: string;
  email: string;
  /** 'admin': the account answers tickets (staff whose roles grant tickets.write). */
  role: 'user' | 'admin';
  verified: boolean;
  active: boolean;
}

/** A mail's columns as the Incoming view lists it (with its ticket's number and who decided it). */
const LISTED = {
  id: inboundMail.id,
  receivedAt: inboundMail.receivedAt,
  via: inboundMail.via,
  from: inboundMail.fromAddress,
  subject: inboundMail.subject,
  state: inboundMail.state,
  reason: inboundMail.reason,
  details: inboundMail.details,
  ticketId: inboundMail.ticketId,
  ticketNo: supportTickets.ticketNo,
  size: inboundMail.size,
  decidedAt: inboundMail.decidedAt,
  decidedBy: users.email,
};

const toBuffer = (value: unknown) => (Buffer.isBuffer(value) ? value : Buffer.from(value as Uint8Array));

export function createInboundRepository(db: AppDatabase) {
  async function findAccountWhere(where: SQL): Promise<Account | null> {
    const [row] = await db
      .select({
        id: users.id,
        email: users.email,
        // 'admin' when the account answers tickets (a role granting tickets.write), whoever's they are.
        role: sql<string>`case when ${holdsPermission(sql`${users.id}`, 'tickets.write')} then 'admin' else 'user' end`,
        verified: sql<boolean>`${users.emailVerifiedAt} is not null`,
        active: sql<boolean>`${users.disabledAt} is null`,
      })
      .from(users)
      .where(where);
    return row
      ? { ...row, role: row.role as Account['role'], verified: Boolean(row.verified), active: Boolean(row.active) }
      : null;
  }

  return {
    /** Stores a received message; false when this very message (Message-ID and bytes) is already stored. */
    async storeRaw(mail: StoredRaw): Promise<boolean> {
      const rows = await db
        .insert(inboundMail)
        .values({
          messageId: mail.messageId,
          rawHash: mail.rawHash,
          raw: mail.raw,
          size: mail.raw.length,
          via: mail.via,
          remoteAddress: mail.remoteAddress ?? null,
          helo: mail.helo ?? null,
          envelopeFrom: mail.envelopeFrom ?? null,
          recipients: mail.recipients,
          fromAddress: mail.fromAddress,
          subject: mail.subject,
        })
        .onConflictDoNothing({ target: [inboundMail.messageId, inboundMail.rawHash] })
        .returning({ id: inboundMail.id });
      return rows.length > 0;
    },

    /** A reply address's token (by its hash): whose and for which ticket, and whether it has expired. */
    async findReplyToken(tokenHash: string): Promise<ReplyToken | null> {
      const [row] = await db
        .select({
          ticketId: mailReplyTokens.ticketId,
          userId: mailReplyTokens.userId,
          email: mailReplyTokens.email,
          expired: sql<boolean>`${mailReplyTokens.expiresAt} <= now()`,
        })
        .from(mailReplyTokens)
        .where(eq(mailReplyTokens.tokenHash, tokenHash));
      return row ? { ...row, expired: Boolean(row.expired) } : null;
    },

    /**
     * Claims up to `limit` received messages due by `now` (the app's clock: a retry's time) for
     * `leaseSeconds`, and ones whose worker died (their lease ran out), oldest first; other
     * workers skip the rows this one locked. A mail never tried is due at once: its
     * `next_attempt_at` is the database's time of arrival, which the app's clock (a test's, or a
     * process's whose wall clock was stepped) need not have reached; only a retry waits for it.
     */
    async claimDue(limit: number, leaseSeconds: number, now: Date): Promise<ClaimedInbound[]> {
      // Raw SQL: claims and leases in one UPDATE whose subquery skips locked rows (as the outbox does).
      const rows = await queryRows<{
        id: unknown;
        message_id: string;
        raw: unknown;
        via: 'smtp' | 'imap';
        remote_address: string | null;
        helo: string | null;
        envelope_from: string | null;
        recipients: string[];
        attempts: number;
      }>(
        db,
        sql`update inbound_mail set state = 'processing', attempts = attempts + 1,
              lease_until = now() + make_interval(secs => ${leaseSeconds})
            where id in (
              select id from inbound_mail
              where (state = 'received' and (attempts = 0 or next_attempt_at <= ${now.toISOString()}::timestamptz))
                or (state = 'processing' and lease_until < now())
              order by id limit ${limit} for update skip locked)
            returning id, message_id, raw, via, remote_address, helo, envelope_from, recipients, attempts`,
      );
      return rows.map((r) => ({
        id: Number(r.id),
        messageId: r.message_id,
        raw: toBuffer(r.raw),
        via: r.via,
        remoteAddress: r.remote_address,
        helo: r.helo,
        envelopeFrom: r.envelope_from,
        recipients: r.recipients ?? [],
        attempts: Number(r.attempts),
      }));
    },

    async recordOutcome(id: number, outcome: Outcome): Promise<boolean> {
      const rows = await db
        .update(inboundMail)
        .set({
          state: outcome.state,
          reason: outcome.reason ?? null,
          ticketId: outcome.ticketId ?? null,
          userId: outcome.userId ?? null,
          postedMessageId: outcome.postedMessageId ?? null,
          sideConversationId: outcome.sideConversationId ?? null,
          details: outcome.details ?? {},
          leaseUntil: null,
          lastError: null,
          decidedAt: sql`now()`,
        })
        .where(and(eq(inboundMail.id, id), eq(inboundMail.state, 'processing')))
        .returning({ id: inboundMail.id });
      return rows.length > 0;
    },

    async setDetails(id: number, details: Record<string, unknown>): Promise<void> {
      await db.update(inboundMail).set({ details }).where(eq(inboundMail.id, id));
    },

    /** Could not be decided now (the database or DNS failed): tried again at `nextAttemptAt`. */
    async markRetry(id: number, nextAttemptAt: Date, error: string): Promise<void> {
      await db
        .update(inboundMail)
        .set({
          state: 'received',
          leaseUntil: null,
          lastError: error.slice(0, 300),
          nextAttemptAt,
        })
        .where(and(eq(inboundMail.id, id), eq(inboundMail.state, 'processing')));
    },

    /** Another stored mail came earlier with this Message-ID (other bytes: a replay). */
    async receivedEarlier(messageId: string, id: number): Promise<boolean> {
      const rows = await db
        .select({ id: inboundMail.id })
        .from(inboundMail)
        .where(and(eq(inboundMail.messageId, messageId), lt(inboundMail.id, id)))
        .limit(1);
      return rows.length > 0;
    },

    /** Our mail about a ticket among these Message-IDs (a reply's In-Reply-To and References). */
    async findTicketOfSentMail(messageIds: string[]): Promise<string | null> {
      if (messageIds.length === 0) return null;
      const [row] = await db
        .select({ ticketId: mailOutbox.ticketId })
        .from(mailOutbox)
        .where(and(inArray(mailOutbox.messageId, messageIds.slice(0, 100)), isNotNull(mailOutbox.ticketId)))
        .orderBy(desc(mailOutbox.id))
        .limit(1);
      return row?.ticketId ?? null;
    },

    async findAccountByEmail(email: string): Promise<Account | null> {
      return findAccountWhere(eq(users.email, email.toLowerCase()));
    },

    async findAccount(userId: string): Promise<Account | null> {
      return findAccountWhere(eq(users.id, userId));
    },

    /** Whether mail of these kinds went to `address` in the last day (the automatic answers' limit). */
    async mailedToday(address: string, kinds: readonly string[]): Promise<boolean> {
      const rows = await db
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(
          and(
            eq(mailOutbox.recipient, address),
            inArray(mailOutbox.kind, [...kinds]),
            gt(mailOutbox.createdAt, sql`now() - interval '1 day'`),
          ),
        )
        .limit(1);
      return rows.length > 0;
    },

    /**
     * A delivery report for one of our mails: the Mail page shows it bounced, and after a hard
     * bounce the address's person gets no more notifications until they sign in again.
     */
    async markBounced(messageId: string, status: string, hard: boolean): Promise<{ recipient: string } | null> {
      const [row] = await db
        .update(mailOutbox)
        .set({ bouncedAt: sql`now()`, bounce: `${hard ? 'hard' : 'soft'} ${status}` })
        .where(eq(mailOutbox.messageId, messageId))
        .returning({ recipient: mailOutbox.recipient });
      if (!row) return null;
      if (hard)
        await db
          .update(users)
          .set({ mailPausedAt: sql`now()` })
          .where(and(eq(users.email, row.recipient.toLowerCase()), sql`${users.mailPausedAt} is null`));
      return row;
    },

    // The admin Incoming view.

    async list(filter: { state?: string; ticketId?: string; limit: number }) {
      const byState =
        filter.state === undefined
          ? undefined
          : filter.state === 'received'
            ? inArray(inboundMail.state, ['received', 'processing'])
            : eq(inboundMail.state, filter.state);
      const rows = await db
        .select(LISTED)
        .from(inboundMail)
        .leftJoin(supportTickets, eq(supportTickets.id, inboundMail.ticketId))
        .leftJoin(users, eq(users.id, inboundMail.decidedBy))
        .where(and(byState, filter.ticketId === undefined ? undefined : eq(inboundMail.ticketId, filter.ticketId)))
        .orderBy(desc(inboundMail.id))
        .limit(filter.limit);
      return rows;
    },

    /** One mail as the list shows it, with its raw message (the Incoming view opens it). */
    async findMail(id: number) {
      const [row] = await db
        .select({ ...LISTED, raw: inboundMail.raw })
        .from(inboundMail)
        .leftJoin(supportTickets, eq(supportTickets.id, inboundMail.ticketId))
        .leftJoin(users, eq(users.id, inboundMail.decidedBy))
        .where(eq(inboundMail.id, id));
      return row ? { ...row, raw: row.raw ? toBuffer(row.raw) : null } : null;
    },

    async countByState(): Promise<Record<string, number>> {
      const rows = await db
        .select({ state: inboundMail.state, n: count() })
        .from(inboundMail)
        .groupBy(inboundMail.state);
      const counts: Record<string, number> = { received: 0, posted: 0, held: 0, ignored: 0, discarded: 0 };
      for (const r of rows) {
        const state = r.state === 'processing' ? 'received' : r.state;
        counts[state] = (counts[state] ?? 0) + Number(r.n);
      }
      return counts;
    },

    /** A mail as an admin's Post or Discard needs it. */
    async findHeld(id: number) {
      const [row] = await db
        .select({
          id: inboundMail.id,
          state: inboundMail.state,
          raw: inboundMail.raw,
          ticketId: inboundMail.ticketId,
          userId: inboundMail.userId,
          sideConversationId: inboundMail.sideConversationId,
        })
        .from(inboundMail)
        .where(eq(inboundMail.id, id));
      return row ? { ...row, raw: row.raw ? toBuffer(row.raw) : null } : null;
    },

    /** Who posted a held mail (the statement that posted it marked it posted). */
    async recordDecider(id: number, adminId: string): Promise<void> {
      await db
        .update(inboundMail)
        .set({ decidedBy: adminId })
        .where(and(eq(inboundMail.id, id), eq(inboundMail.state, 'posted')));
    },

    async discardHeld(id: number, adminId: string): Promise<boolean> {
      const rows = await db
        .update(inboundMail)
        .set({ state: 'discarded', decidedBy: adminId, decidedAt: sql`now()` })
        .where(and(eq(inboundMail.id, id), eq(inboundMail.state, 'held')))
        .returning({ id: inboundMail.id });
      return rows.length > 0;
    },

    /** The raw mail behind a posted message, for "Show the whole mail"; with `ownerId`, only theirs. */
    async findRawOfMessage(ticketId: string, messageId: number, ownerId: string | null): Promise<Buffer | null> {
      // Raw SQL: ownership is part of the one query (house style 5), across three tables.
      const [row] = await queryRows<{ raw: unknown }>(
        db,
        sql`select i.raw from ticket_messages m
            join inbound_mail i on i.id = m.inbound_mail_id
            join support_tickets t on t.id = m.ticket_id
            where m.id = ${messageId} and m.ticket_id = ${ticketId} and not m.internal
              and (${ownerId}::uuid is null or t.user_id = ${ownerId}::uuid) and i.raw is not null`,
      );
      return row ? toBuffer(row.raw) : null;
    },
  };
}

export type InboundRepository = ReturnType<typeof createInboundRepository>;
