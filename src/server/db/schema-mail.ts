import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';
import { users, supportTickets, companies } from './schema.ts';

/**
 * The mail outbox and notification tables (modules/notifications, mail/outbox.ts). Kept apart from
 * schema.ts (re-exported from it) so each schema file stays readable.
 */

/** A file a recorded mail carries, by its storage key (mail/outbox.ts). */
export interface OutboxAttachment {
  name: string;
  contentType: string;
  storageKey: string;
}

/**
 * Every mail the app sends (docs/decisions/090-mail-outbox.md). A row is written in the same
 * transaction as the change that causes it; the worker claims due rows (lease, SKIP LOCKED), sends
 * them with the Message-ID fixed here, and records the outcome. Bodies are cleared once sent.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    messageId: text('message_id').notNull(),
    kind: text('kind').notNull(),
    recipient: text('recipient').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    subject: text('subject').notNull(),
    textBody: text('text_body'),
    htmlBody: text('html_body'),
    headers: jsonb('headers').notNull().default({}),
    /**
     * Files the mail carries, read from storage when it is sent (a side conversation's files of its
     * ticket): `[{ name, contentType, storageKey }]`. One erased before the send goes without it.
     */
    attachments: jsonb('attachments').$type<OutboxAttachment[]>().notNull().default([]),
    /** A partner decision: once delivered, companies.is_email_send turns true if the decision still stands. */
    companyId: uuid('company_id').references(() => companies.id, { onDelete: 'set null' }),
    companyDecision: smallint('company_decision'),
    /** The ticket a mail is about: a reply whose In-Reply-To names this mail belongs to it. */
    ticketId: uuid('ticket_id').references(() => supportTickets.id, { onDelete: 'set null' }),
    /** A delivery report came back for it (the Mail page shows it bounced). */
    bouncedAt: timestamptz('bounced_at'),
    bounce: text('bounce'),
    state: text('state').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().defaultNow(),
    leaseUntil: timestamptz('lease_until'),
    lastError: text('last_error'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    giveUpAt: timestamptz('give_up_at').notNull(),
    sentAt: timestamptz('sent_at'),
  },
  (t) => [
    uniqueIndex('mail_outbox_message_id_uq').on(t.messageId),
    index('mail_outbox_due_idx').on(t.state, t.nextAttemptAt),
    index('mail_outbox_created_idx').on(t.createdAt),
    index('mail_outbox_recipient_idx').on(t.recipient),
    index('mail_outbox_ticket_idx').on(t.ticketId),
    check('mail_outbox_state_check', sql`${t.state} in ('queued', 'sending', 'retrying', 'sent', 'failed')`),
  ],
);

/**
 * Things that happened and may become notification mails (an admin's answer, a closed ticket, a
 * user's new ticket or reply). Recorded with their cause; turned into mail_outbox rows by the worker
 * once due, and then deleted. At most one pending answer notice per ticket: answers within the
 * wait join it.
 */
export const notificationEvents = pgTable(
  'notification_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    ticketId: uuid('ticket_id').references(() => supportTickets.id, { onDelete: 'cascade' }),
    messageId: bigint('message_id', { mode: 'number' }),
    dueAt: timestamptz('due_at').notNull().defaultNow(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('notification_events_due_idx').on(t.dueAt),
    // A ticket's own notices, found by a close or reopen (one ticket's, or a bulk action's 500: 0028).
    index('notification_events_ticket_idx').on(t.ticketId, t.kind),
    uniqueIndex('notification_events_reply_uq')
      .on(t.ticketId)
      .where(sql`${t.kind} = 'ticket-reply'`),
    check(
      'notification_events_kind_check',
      sql`${t.kind} in ('ticket-reply', 'ticket-closed', 'ticket-reopened', 'team-new-ticket', 'team-user-reply')`,
    ),
  ],
);

/** Kinds of notification mail a person has switched off (absent: on). */
export const notificationOptOuts = pgTable(
  'notification_opt_outs',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    at: timestamptz('at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind] }),
    check('notification_opt_outs_kind_check', sql`${t.kind} in ('ticket-replies', 'ticket-closed', 'team')`),
  ],
);

/** One-click unsubscribe links (RFC 8058): the SHA-256 of the token names a person and a kind. */
export const unsubscribeTokens = pgTable(
  'unsubscribe_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [index('unsubscribe_tokens_user_idx').on(t.userId)],
);
