import { sql } from 'drizzle-orm';
import { type AppDatabase } from '../../db/connection.ts';
import { queryRows, likePattern } from '../../db/sql.ts';

/**
 * The outbox tables: notification events waiting to become mail, the mail itself, who switched
 * what off, and unsubscribe links. Every state change of a mail is one statement guarded by the
 * state it expects, so two workers (or two instances) never both record an outcome.
 */
export const MAIL_STATES = ['queued', 'sending', 'retrying', 'sent', 'failed'] as const;
export type MailState = (typeof MAIL_STATES)[number];

export const OPT_OUT_KINDS = ['ticket-replies', 'ticket-closed', 'team'] as const;
export type OptOutKind = (typeof OPT_OUT_KINDS)[number];

export type EventKind = 'ticket-reply' | 'ticket-closed' | 'team-new-ticket' | 'team-user-reply';

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
  ownerActive: boolean;
  ownerSeenMessageId: number;
}

export interface Recipient {
  userId: string;
  email: string;
}

export interface ClaimedMail {
  id: number;
  messageId: string;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  createdAt: Date;
  attempts: number;
}

export interface MailRow {
  id: number;
  messageId: string;
  kind: string;
  recipient: string;
  subject: string;
  state: MailState;
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

const iso = (value: unknown) => new Date(value as string).toISOString();

type RawMail = {
  id: unknown;
  message_id: string;
  kind: string;
  recipient: string;
  subject: string;
  state: MailState;
  attempts: number;
  next_attempt_at: unknown;
  last_error: string | null;
  created_at: unknown;
  sent_at: unknown;
};
const toMailRow = (r: RawMail): MailRow => ({
  id: Number(r.id),
  messageId: r.message_id,
  kind: r.kind,
  recipient: r.recipient,
  subject: r.subject,
  state: r.state,
  attempts: Number(r.attempts),
  nextAttemptAt: iso(r.next_attempt_at),
  lastError: r.last_error,
  createdAt: iso(r.created_at),
  sentAt: r.sent_at === null ? null : iso(r.sent_at),
});

export function createNotificationsRepository(db: AppDatabase) {
  return {
    // Composing (inside the worker's transaction).

    /** Locks due events for this transaction; other workers skip them. */
    async claimDueEvents(limit: number): Promise<DueEvent[]> {
      const rows = await queryRows<{ id: unknown; kind: EventKind; ticket_id: string | null; message_id: unknown }>(
        db,
        sql`select id, kind, ticket_id, message_id from notification_events
            where due_at <= now() order by id limit ${limit} for update skip locked`,
      );
      return rows.map((r) => ({
        id: Number(r.id),
        kind: r.kind,
        ticketId: r.ticket_id,
        messageId: r.message_id === null ? null : Number(r.message_id),
      }));
    },

    async deleteEvent(id: number): Promise<void> {
      await db.execute(sql`delete from notification_events where id = ${id}`);
    },

    /** The answers a full mail could not hold: told in a mail of their own, at once. */
    async queueRemainingAnswers(ticketId: string, fromMessageId: number): Promise<void> {
      await db.execute(
        sql`insert into notification_events (kind, ticket_id, message_id) values ('ticket-reply', ${ticketId}, ${fromMessageId})
            on conflict (ticket_id) where kind = 'ticket-reply' do nothing`,
      );
    },

    async findTicketFacts(ticketId: string): Promise<TicketFacts | null> {
      const [row] = await queryRows<{
        id: string;
        ticket_no: number;
        reason: string;
        open: boolean;
        user_id: string;
        email: string;
        active: boolean;
        owner_seen_message_id: unknown;
      }>(
        db,
        sql`select t.id, t.ticket_no, t.reason, t.open, t.user_id, u.email, (u.disabled_at is null) as active, t.owner_seen_message_id
            from support_tickets t join users u on u.id = t.user_id where t.id = ${ticketId}`,
      );
      if (!row) return null;
      return {
        id: row.id,
        ticketNo: Number(row.ticket_no),
        reason: row.reason,
        open: row.open,
        ownerId: row.user_id,
        ownerEmail: row.email,
        ownerActive: row.active,
        ownerSeenMessageId: Number(row.owner_seen_message_id),
      };
    },

    /** Up to `limit` admin answers from `fromId` on that the owner has not already received live, oldest first. */
    async unseenAnswers(
      ticketId: string,
      fromId: number,
      seenId: number,
      limit: number,
    ): Promise<Array<{ id: number; body: string }>> {
      const rows = await queryRows<{ id: unknown; message_body: string }>(
        db,
        sql`select id, message_body from ticket_messages
            where ticket_id = ${ticketId} and admin and id >= ${fromId} and id > ${seenId}
            order by id limit ${limit}`,
      );
      return rows.map((r) => ({ id: Number(r.id), body: r.message_body }));
    },

    async findMessageBody(messageId: number): Promise<string | null> {
      const [row] = await queryRows<{ message_body: string }>(
        db,
        sql`select message_body from ticket_messages where id = ${messageId}`,
      );
      return row?.message_body ?? null;
    },

    /** Active, verified admins who have not switched the team mails off. */
    async teamRecipients(): Promise<Recipient[]> {
      const rows = await queryRows<{ id: string; email: string }>(
        db,
        sql`select u.id, u.email from users u
            where u.role = 'admin' and u.disabled_at is null and u.email_verified_at is not null
              and not exists (select 1 from notification_opt_outs o where o.user_id = u.id and o.kind = 'team')
            order by u.email`,
      );
      return rows.map((r) => ({ userId: r.id, email: r.email }));
    },

    async hasOptedOut(userId: string, kind: OptOutKind): Promise<boolean> {
      const rows = await queryRows(
        db,
        sql`select 1 from notification_opt_outs where user_id = ${userId} and kind = ${kind}`,
      );
      return rows.length > 0;
    },

    async insertUnsubscribeToken(tokenHash: string, userId: string, kind: OptOutKind): Promise<void> {
      await db.execute(
        sql`insert into unsubscribe_tokens (token_hash, user_id, kind) values (${tokenHash}, ${userId}, ${kind})`,
      );
    },

    // Delivering.

    /**
     * Claims up to `limit` due mails for `leaseSeconds`: queued and retrying ones whose time has
     * come, and ones left 'sending' by a worker that died (its lease ran out).
     */
    async claimDueMail(limit: number, leaseSeconds: number): Promise<ClaimedMail[]> {
      const rows = await queryRows<{
        id: unknown;
        message_id: string;
        recipient: string;
        subject: string;
        text_body: string;
        html_body: string;
        headers: Record<string, string>;
        created_at: unknown;
        attempts: number;
      }>(
        db,
        sql`update mail_outbox set state = 'sending', attempts = attempts + 1, lease_until = now() + make_interval(secs => ${leaseSeconds})
            where id in (
              select id from mail_outbox
              where (state in ('queued', 'retrying') and next_attempt_at <= now()) or (state = 'sending' and lease_until < now())
              order by next_attempt_at, id limit ${limit} for update skip locked)
            returning id, message_id, recipient, subject, text_body, html_body, headers, created_at, attempts`,
      );
      return rows.map((r) => ({
        id: Number(r.id),
        messageId: r.message_id,
        recipient: r.recipient,
        subject: r.subject,
        text: r.text_body,
        html: r.html_body,
        headers: r.headers ?? {},
        createdAt: new Date(r.created_at as string),
        attempts: Number(r.attempts),
      }));
    },

    /**
     * Delivered: the bodies (which may hold one-time links) are cleared, and a partner decision
     * that still stands is marked as mailed (companies.is_email_send).
     */
    async markSent(id: number): Promise<boolean> {
      const rows = await queryRows<{ id: unknown }>(
        db,
        sql`with m as (
              update mail_outbox set state = 'sent', sent_at = now(), lease_until = null, last_error = null, text_body = null, html_body = null
              where id = ${id} and state = 'sending'
              returning id, company_id, company_decision
            ), c as (
              update companies c set is_email_send = true, last_updated = now()
              from m where c.id = m.company_id and c.verified = m.company_decision
              returning c.id
            )
            select m.id, (select count(*) from c) as companies from m`,
      );
      return rows.length > 0;
    },

    /** A transient failure: tried again after `delaySeconds`, unless that passes the mail's give-up time. */
    async markRetry(id: number, delaySeconds: number, error: string): Promise<MailState | null> {
      const [row] = await queryRows<{ state: MailState }>(
        db,
        sql`update mail_outbox
            set state = case when now() + make_interval(secs => ${delaySeconds}) > give_up_at then 'failed' else 'retrying' end,
                next_attempt_at = now() + make_interval(secs => ${delaySeconds}), lease_until = null, last_error = ${error}
            where id = ${id} and state = 'sending' returning state`,
      );
      return row?.state ?? null;
    },

    async markFailed(id: number, error: string): Promise<boolean> {
      const rows = await queryRows(
        db,
        sql`update mail_outbox set state = 'failed', lease_until = null, last_error = ${error} where id = ${id} and state = 'sending' returning id`,
      );
      return rows.length > 0;
    },

    // The admin page.

    async listMail(filter: { state?: MailState; q?: string; limit: number }): Promise<MailRow[]> {
      const q = filter.q?.trim() || null;
      const rows = await queryRows<RawMail>(
        db,
        sql`select id, message_id, kind, recipient, subject, state, attempts, next_attempt_at, last_error, created_at, sent_at
            from mail_outbox
            where (${filter.state ?? null}::text is null or state = ${filter.state ?? null}::text)
              and (${q}::text is null or recipient ilike ${q ? likePattern(q) : null}::text)
            order by id desc limit ${filter.limit}`,
      );
      return rows.map(toMailRow);
    },

    async countByState(): Promise<Record<MailState, number> & { oldestQueuedAt: string | null }> {
      const rows = await queryRows<{ state: MailState; n: unknown }>(
        db,
        sql`select state, count(*) as n from mail_outbox group by state`,
      );
      const [oldest] = await queryRows<{ at: unknown }>(
        db,
        sql`select min(created_at) as at from mail_outbox where state in ('queued', 'sending', 'retrying')`,
      );
      const counts = Object.fromEntries(MAIL_STATES.map((s) => [s, 0])) as Record<MailState, number>;
      for (const r of rows) counts[r.state] = Number(r.n);
      return { ...counts, oldestQueuedAt: oldest?.at ? iso(oldest.at) : null };
    },

    /** Puts a failed mail back in the queue with a fresh retry window. */
    async retry(id: number, retryHours: number): Promise<MailRow | null> {
      const [row] = await queryRows<RawMail>(
        db,
        sql`update mail_outbox set state = 'queued', next_attempt_at = now(), lease_until = null,
                   give_up_at = now() + make_interval(hours => ${retryHours})
            where id = ${id} and state = 'failed'
            returning id, message_id, kind, recipient, subject, state, attempts, next_attempt_at, last_error, created_at, sent_at`,
      );
      return row ? toMailRow(row) : null;
    },

    async findMail(id: number): Promise<MailRow | null> {
      const [row] = await queryRows<RawMail>(
        db,
        sql`select id, message_id, kind, recipient, subject, state, attempts, next_attempt_at, last_error, created_at, sent_at
            from mail_outbox where id = ${id}`,
      );
      return row ? toMailRow(row) : null;
    },

    // Preferences and unsubscribe links.

    async optOutsOf(userId: string): Promise<Set<OptOutKind>> {
      const rows = await queryRows<{ kind: OptOutKind }>(
        db,
        sql`select kind from notification_opt_outs where user_id = ${userId}`,
      );
      return new Set(rows.map((r) => r.kind));
    },

    async setOptOut(userId: string, kind: OptOutKind, off: boolean): Promise<void> {
      await db.execute(
        off
          ? sql`insert into notification_opt_outs (user_id, kind) values (${userId}, ${kind}) on conflict do nothing`
          : sql`delete from notification_opt_outs where user_id = ${userId} and kind = ${kind}`,
      );
    },

    async findUnsubscribeToken(tokenHash: string): Promise<{ userId: string; email: string; kind: OptOutKind } | null> {
      const [row] = await queryRows<{ user_id: string; email: string; kind: OptOutKind }>(
        db,
        sql`select t.user_id, u.email, t.kind from unsubscribe_tokens t join users u on u.id = t.user_id where t.token_hash = ${tokenHash}`,
      );
      return row ? { userId: row.user_id, email: row.email, kind: row.kind } : null;
    },
  };
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
