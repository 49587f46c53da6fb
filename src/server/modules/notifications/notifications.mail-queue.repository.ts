import { and, count, desc, eq, ilike, inArray, min, sql } from 'drizzle-orm';
import { type AppDatabase } from '../../db/connection.ts';
import { mailOutbox, type OutboxAttachment } from '../../db/schema.ts';
import { iso, likePattern, queryRows } from '../../db/sql.ts';

/**
 * The mail outbox as the worker and the admin Mail page see it: claiming due mail with a lease,
 * recording each outcome, listing and retrying. Every state change of a mail is one statement
 * guarded by the state it expects, so two workers (or two instances) never both record an outcome.
 * Part of the notifications repository (notifications.repository.ts spreads it in).
 */
export const MAIL_STATES = ['queued', 'sending', 'retrying', 'sent', 'failed'] as const;
export type MailState = (typeof MAIL_STATES)[number];

export interface ClaimedMail {
  id: number;
  messageId: string;
  recipient: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  /** Files to read from storage and attach (a side conversation's). */
  attachments: OutboxAttachment[];
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
  bounce: string | null;
}

/** The columns of a mail the admin page shows (never its bodies). */
const mailColumns = {
  id: mailOutbox.id,
  messageId: mailOutbox.messageId,
  kind: mailOutbox.kind,
  recipient: mailOutbox.recipient,
  subject: mailOutbox.subject,
  state: mailOutbox.state,
  attempts: mailOutbox.attempts,
  nextAttemptAt: mailOutbox.nextAttemptAt,
  lastError: mailOutbox.lastError,
  createdAt: mailOutbox.createdAt,
  sentAt: mailOutbox.sentAt,
  bounce: mailOutbox.bounce,
};
const toMailRow = (r: {
  id: number;
  messageId: string;
  kind: string;
  recipient: string;
  subject: string;
  state: string;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
  bounce: string | null;
}): MailRow => ({
  id: Number(r.id),
  messageId: r.messageId,
  kind: r.kind,
  recipient: r.recipient,
  subject: r.subject,
  state: r.state as MailState,
  attempts: Number(r.attempts),
  nextAttemptAt: iso(r.nextAttemptAt),
  lastError: r.lastError,
  createdAt: iso(r.createdAt),
  sentAt: r.sentAt === null ? null : iso(r.sentAt),
  bounce: r.bounce,
});
export function createMailQueueRepository(db: AppDatabase) {
  return {
    // Delivering.

    /**
     * Claims up to `limit` due mails for `leaseSeconds`: queued and retrying ones whose time has
     * come, and ones left 'sending' by a worker that died (its lease ran out).
     */
    async claimDueMail(limit: number, leaseSeconds: number): Promise<ClaimedMail[]> {
      // Raw SQL: claims and leases in one UPDATE whose subquery skips locked rows, so workers never wait on each other.
      const rows = await queryRows<{
        id: unknown;
        message_id: string;
        recipient: string;
        subject: string;
        text_body: string;
        html_body: string;
        headers: Record<string, string>;
        attachments: OutboxAttachment[] | null;
        created_at: unknown;
        attempts: number;
      }>(
        db,
        sql`update mail_outbox set state = 'sending', attempts = attempts + 1, lease_until = now() + make_interval(secs => ${leaseSeconds})
            where id in (
              select id from mail_outbox
              where (state in ('queued', 'retrying') and next_attempt_at <= now()) or (state = 'sending' and lease_until < now())
              order by next_attempt_at, id limit ${limit} for update skip locked)
            returning id, message_id, recipient, subject, text_body, html_body, headers, attachments, created_at, attempts`,
      );
      return rows.map((r) => ({
        id: Number(r.id),
        messageId: r.message_id,
        recipient: r.recipient,
        subject: r.subject,
        text: r.text_body,
        html: r.html_body,
        headers: r.headers ?? {},
        attachments: r.attachments ?? [],
        createdAt: new Date(r.created_at as string),
        attempts: Number(r.attempts),
      }));
    },

    /**
     * Delivered: the bodies (which may hold one-time links) are cleared, and a partner decision
     * that still stands is marked as mailed (companies.is_email_send).
     */
    async markSent(id: number): Promise<boolean> {
      // Raw SQL: a CTE updates the mail and, from what it returned, the company in one statement.
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
      const next = sql`now() + make_interval(secs => ${delaySeconds})`;
      const [row] = await db
        .update(mailOutbox)
        .set({
          state: sql`case when ${next} > ${mailOutbox.giveUpAt} then 'failed' else 'retrying' end`,
          nextAttemptAt: next,
          leaseUntil: null,
          lastError: error,
        })
        .where(and(eq(mailOutbox.id, id), eq(mailOutbox.state, 'sending')))
        .returning({ state: mailOutbox.state });
      return (row?.state as MailState | undefined) ?? null;
    },

    async markFailed(id: number, error: string): Promise<boolean> {
      const rows = await db
        .update(mailOutbox)
        .set({ state: 'failed', leaseUntil: null, lastError: error })
        .where(and(eq(mailOutbox.id, id), eq(mailOutbox.state, 'sending')))
        .returning({ id: mailOutbox.id });
      return rows.length > 0;
    },

    // The admin page.

    async listMail(filter: { state?: MailState; q?: string; limit: number }): Promise<MailRow[]> {
      const q = filter.q?.trim() || null;
      const rows = await db
        .select(mailColumns)
        .from(mailOutbox)
        .where(
          and(
            filter.state == null ? undefined : eq(mailOutbox.state, filter.state),
            q === null ? undefined : ilike(mailOutbox.recipient, likePattern(q)),
          ),
        )
        .orderBy(desc(mailOutbox.id))
        .limit(filter.limit);
      return rows.map(toMailRow);
    },

    async countByState(): Promise<Record<MailState, number> & { oldestQueuedAt: string | null }> {
      const rows = await db.select({ state: mailOutbox.state, n: count() }).from(mailOutbox).groupBy(mailOutbox.state);
      const [oldest] = await db
        .select({ at: min(mailOutbox.createdAt) })
        .from(mailOutbox)
        .where(inArray(mailOutbox.state, ['queued', 'sending', 'retrying']));
      const counts = Object.fromEntries(MAIL_STATES.map((s) => [s, 0])) as Record<MailState, number>;
      for (const r of rows) counts[r.state as MailState] = Number(r.n);
      return { ...counts, oldestQueuedAt: oldest?.at ? iso(oldest.at) : null };
    },

    /** Puts a failed mail back in the queue with a fresh retry window. */
    async retry(id: number, retryHours: number): Promise<MailRow | null> {
      const [row] = await db
        .update(mailOutbox)
        .set({
          state: 'queued',
          nextAttemptAt: sql`now()`,
          leaseUntil: null,
          giveUpAt: sql`now() + make_interval(hours => ${retryHours})`,
        })
        .where(and(eq(mailOutbox.id, id), eq(mailOutbox.state, 'failed')))
        .returning(mailColumns);
      return row ? toMailRow(row) : null;
    },

    async findMail(id: number): Promise<MailRow | null> {
      const [row] = await db.select(mailColumns).from(mailOutbox).where(eq(mailOutbox.id, id));
      return row ? toMailRow(row) : null;
    },
  };
}
