import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';
import { inboundMail } from './schema-inbound.ts';
import { supportTickets, users } from './schema.ts';

/**
 * Side conversations (modules/side-conversations, docs/decisions/138-side-conversations.md): the
 * team writes by mail, from a ticket, to someone who is not its customer (a partner's contact, a
 * traveller). Only the team ever reads these tables; the customer's pages, API, streams, export and
 * search never touch them.
 */
export const SIDE_CONVERSATION_STATES = ['waiting', 'answered', 'closed'] as const;

/**
 * One conversation with one address about one ticket. It stays bound to the ticket it was started
 * on; a merge shows it on the ticket the chain ends at (read through `merged_into_id`), so an undo
 * needs nothing of it.
 */
export const sideConversations = pgTable(
  'side_conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    /** The address mail goes to; a reply must come from it. */
    counterpart: text('counterpart').notNull(),
    subject: text('subject').notNull(),
    /** 'waiting' on them, 'answered' (they wrote last), or 'closed' (its reply address no longer works). */
    state: text('state').notNull().default('waiting'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    closedAt: timestamptz('closed_at'),
  },
  (t) => [
    index('side_conversations_ticket_idx').on(t.ticketId),
    index('side_conversations_waiting_idx')
      .on(t.ticketId)
      .where(sql`${t.state} = 'waiting'`),
    check('side_conversations_state_check', sql`${t.state} in ('waiting', 'answered', 'closed')`),
  ],
);

/**
 * The conversation's own reply addresses, `reply+<token>@REPLY_DOMAIN`, one per mail it sent (only
 * the token's SHA-256 is kept, so a later mail cannot repeat an earlier one's): each posts into this
 * conversation and nowhere else, until the conversation is closed.
 */
export const sideConversationTokens = pgTable(
  'side_conversation_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => sideConversations.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [index('side_conversation_tokens_conversation_idx').on(t.conversationId)],
);

/**
 * A message of a side conversation: out (a staff member wrote it; mailed through the outbox in the
 * same transaction) or in (their reply by mail, only its new words; the whole mail is `inbound_mail_id`).
 * One received mail posts at most one message (the unique index): a second try finds the first.
 */
export const sideConversationMessages = pgTable(
  'side_conversation_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => sideConversations.id, { onDelete: 'cascade' }),
    direction: text('direction').notNull(),
    /** The staff member who wrote an outgoing message (null for theirs, or once the account is gone). */
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    inboundMailId: bigint('inbound_mail_id', { mode: 'number' }).references(() => inboundMail.id, {
      onDelete: 'set null',
    }),
    /** The Message-ID of the mail an outgoing message went out as (the outbox row). */
    mailMessageId: text('mail_message_id'),
    /**
     * The files it carried, by name and size: an outgoing message's files of the ticket, a reply's
     * files as its mail has them (`index` is the file's place among the mail's attachments, where
     * the download reads it from the kept mail).
     */
    files: jsonb('files').$type<Array<{ name: string; size: number; index?: number }>>().notNull().default([]),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('side_conversation_messages_conversation_idx').on(t.conversationId, t.id),
    uniqueIndex('side_conversation_messages_inbound_uq').on(t.inboundMailId),
    check('side_conversation_messages_direction_check', sql`${t.direction} in ('out', 'in')`),
  ],
);
