import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * One schema for PGlite and PostgreSQL (docs/design.md §3). Column names are snake_case; API field names
 * follow the spec and are mapped in each repository, so rows never leak to clients.
 */

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const faqs = pgTable(
  'faqs',
  {
    id: serial('id').primaryKey(),
    type: text('type').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    position: integer('position').notNull().default(0),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('faqs_type_check', sql`${t.type} in ('general', 'sender', 'traveller')`),
    index('faqs_type_position_idx').on(t.type, t.position),
  ],
);

/** Key/value documents: `legal/links`, `companies/links` (docs/product.md §3). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

/** Our own hosted legal documents (Terms and Conditions, Privacy Policy), editable by admins. */
export const documents = pgTable('documents', {
  slug: text('slug').primaryKey(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

export const companies = pgTable(
  'companies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyName: text('company_name').notNull(),
    street: text('street'),
    address: text('address').notNull(),
    phoneNumber: text('phone_number').notNull(),
    contactPersonName: text('contact_person_name'),
    contactPersonJobTitle: text('contact_person_job_title'),
    contactPersonPhoneNumber: text('contact_person_phone_number'),
    contactPersonEmail: text('contact_person_email'),
    commercialLicenseUrl: text('commercial_license_url'),
    /** Storage key of the licence file (commercialLicenses/{id}.{ext}); never sent to clients. */
    commercialLicenseKey: text('commercial_license_key'),
    verified: smallint('verified').notNull().default(0),
    isBanned: boolean('is_banned').notNull().default(false),
    isEmailSend: boolean('is_email_send').notNull().default(false),
    lastUpdated: timestamptz('last_updated').notNull().defaultNow(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    /** Normalised keys: uniqueness holds in the database, so concurrent submissions cannot race. */
    nameKey: text('name_key').notNull(),
    phoneKey: text('phone_key').notNull(),
    emailKey: text('email_key'),
    rejectionReason: text('rejection_reason'),
  },
  (t) => [
    uniqueIndex('companies_name_key_uq')
      .on(t.nameKey)
      .where(sql`${t.verified} <> 2`),
    uniqueIndex('companies_phone_key_uq')
      .on(t.phoneKey)
      .where(sql`${t.verified} <> 2`),
    uniqueIndex('companies_email_key_uq')
      .on(t.emailKey)
      .where(sql`${t.verified} <> 2 and ${t.emailKey} is not null`),
    index('companies_verified_idx').on(t.verified, t.lastUpdated),
  ],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    emailVerifiedAt: timestamptz('email_verified_at'),
    role: text('role').notNull().default('user'),
    disabledAt: timestamptz('disabled_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_uq').on(t.email), check('users_role_check', sql`${t.role} in ('user', 'admin')`)],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the opaque token, hex; the token itself is never stored. */
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const emailTokens = pgTable(
  'email_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (t) => [
    index('email_tokens_user_idx').on(t.userId, t.purpose),
    check('email_tokens_purpose_check', sql`${t.purpose} in ('verify-email', 'reset-password')`),
  ],
);

/**
 * The one-time link to /setup that a server prints while the database has no admin: the SHA-256 of
 * the token, valid for an hour and once. A new start without an admin replaces an unused one.
 */
export const setupTokens = pgTable('setup_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  expiresAt: timestamptz('expires_at').notNull(),
  usedAt: timestamptz('used_at'),
});

/** Counters for rate limits, shared by every app instance (docs/design.md §6). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  resetAt: timestamptz('reset_at').notNull(),
});

export const ticketNumbers = pgSequence('ticket_no_seq', { startWith: 1000 });

export const supportTickets = pgTable(
  'support_tickets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ticketNo: integer('ticket_no')
      .notNull()
      .default(sql`nextval('ticket_no_seq')`),
    reason: text('reason').notNull(),
    open: boolean('open').notNull().default(true),
    creationDate: timestamptz('creation_date').notNull().defaultNow(),
    lastMessage: timestamptz('last_message').notNull().defaultNow(),
    /** Chosen by the client for each new ticket, so a retried creation is stored once (DATA-05). */
    clientId: text('client_id'),
    /** The newest message a page of the owner showing this ticket received live (no mail for those). */
    ownerSeenMessageId: bigint('owner_seen_message_id', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    uniqueIndex('support_tickets_ticket_no_uq').on(t.ticketNo),
    uniqueIndex('support_tickets_client_id_uq')
      .on(t.userId, t.clientId)
      .where(sql`${t.clientId} is not null`),
    index('support_tickets_user_idx').on(t.userId, t.open, t.lastMessage),
    index('support_tickets_open_idx').on(t.open, t.lastMessage),
    check('support_tickets_reason_check', sql`${t.reason} in ('General', 'Incident', 'Deactivation')`),
  ],
);

export const ticketMessages = pgTable(
  'ticket_messages',
  {
    /** Also the live event id: streams resume after it (docs/design.md §4). */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    messageBody: text('message_body').notNull(),
    timestamp: timestamptz('timestamp').notNull().defaultNow(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    admin: boolean('admin').notNull().default(false),
    /** Chosen by the client so a retried send is stored once. */
    clientId: text('client_id'),
  },
  (t) => [
    index('ticket_messages_ticket_idx').on(t.ticketId, t.id),
    uniqueIndex('ticket_messages_client_uq')
      .on(t.ticketId, t.clientId)
      .where(sql`${t.clientId} is not null`),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    details: jsonb('details'),
    at: timestamptz('at').notNull().defaultNow(),
  },
  (t) => [index('audit_log_at_idx').on(t.at)],
);

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
    /** A partner decision: once delivered, companies.is_email_send turns true if the decision still stands. */
    companyId: uuid('company_id').references(() => companies.id, { onDelete: 'set null' }),
    companyDecision: smallint('company_decision'),
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
    uniqueIndex('notification_events_reply_uq')
      .on(t.ticketId)
      .where(sql`${t.kind} = 'ticket-reply'`),
    check(
      'notification_events_kind_check',
      sql`${t.kind} in ('ticket-reply', 'ticket-closed', 'team-new-ticket', 'team-user-reply')`,
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
