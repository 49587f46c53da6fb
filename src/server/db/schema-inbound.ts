import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';
import { supportTickets, users } from './schema.ts';

/**
 * Mail that comes in (modules/inbound, docs/decisions/105-reply-by-email.md): the reply addresses we
 * hand out, and every message received, kept raw until the ticket it belongs to is gone.
 */

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * One reply address `reply+<token>@REPLY_DOMAIN`, made for one mail about one ticket to one person.
 * Only the token's SHA-256 is stored; the address works until it expires, or until its ticket or
 * person is gone (the rows go with them).
 */
export const mailReplyTokens = pgTable(
  'mail_reply_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address the mail went to: a reply must come from it. */
    email: text('email').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [index('mail_reply_tokens_ticket_idx').on(t.ticketId), index('mail_reply_tokens_user_idx').on(t.userId)],
);

export const INBOUND_STATES = ['received', 'processing', 'posted', 'held', 'ignored', 'discarded'] as const;

/**
 * Every message received by the SMTP receiver or read from the IMAP mailbox. The row (with the raw
 * bytes) is committed before the sender hears `250` or the mailbox message is moved; the inbound
 * worker then claims it (lease, SKIP LOCKED, as the outbox does), decides, and records the outcome
 * in the transaction that posts the message. `message_id` makes a second delivery of the same mail a
 * no-op.
 */
export const inboundMail = pgTable(
  'inbound_mail',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    messageId: text('message_id').notNull(),
    /** SHA-256 of the raw bytes: the same Message-ID with other bytes is a replay, not a redelivery. */
    rawHash: text('raw_hash').notNull(),
    raw: bytea('raw'),
    size: integer('size').notNull(),
    via: text('via').notNull(),
    /** SMTP only: what our receiver saw of the sender, for the DMARC check (mailauth). */
    remoteAddress: text('remote_address'),
    helo: text('helo'),
    envelopeFrom: text('envelope_from'),
    /** The reply addresses the mail was sent to (RCPT TO, or the headers for a mailbox). */
    recipients: jsonb('recipients').$type<string[]>().notNull().default([]),
    fromAddress: text('from_address'),
    subject: text('subject'),
    state: text('state').notNull().default('received'),
    /** Why it was held or ignored (a code from contracts/inbound.ts). */
    reason: text('reason'),
    ticketId: uuid('ticket_id').references(() => supportTickets.id, { onDelete: 'cascade' }),
    /** Whose words it would be: the reply address's person, or the account of the From address. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    postedMessageId: bigint('posted_message_id', { mode: 'number' }),
    /**
     * A reply to a side conversation (schema-side-conversations.ts) rather than to the ticket: a held
     * one is posted there by an admin's Post. No foreign key (the two schema files would import each
     * other); `ticket_id` is set too, so the mail goes with its ticket.
     */
    sideConversationId: uuid('side_conversation_id'),
    /** What the checks found: trust, authentication results, the trimmed words' length. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().defaultNow(),
    leaseUntil: timestamptz('lease_until'),
    lastError: text('last_error'),
    receivedAt: timestamptz('received_at').notNull().defaultNow(),
    decidedAt: timestamptz('decided_at'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    // A redelivery (same Message-ID, same bytes) is a no-op; other bytes under a known Message-ID are a replay.
    uniqueIndex('inbound_mail_message_id_uq').on(t.messageId, t.rawHash),
    index('inbound_mail_message_idx').on(t.messageId),
    index('inbound_mail_due_idx').on(t.state, t.nextAttemptAt),
    index('inbound_mail_ticket_idx').on(t.ticketId),
    index('inbound_mail_user_idx').on(t.userId),
    check(
      'inbound_mail_state_check',
      sql`${t.state} in ('received', 'processing', 'posted', 'held', 'ignored', 'discarded')`,
    ),
    check('inbound_mail_via_check', sql`${t.via} in ('smtp', 'imap')`),
  ],
);
