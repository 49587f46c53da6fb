import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';

/**
 * One schema for PGlite and PostgreSQL (docs/design.md §3). Column names are snake_case; API field names
 * follow the spec and are mapped in each repository, so rows never leak to clients.
 */

/** A full-text search vector (read by the desk's search; never written by the app: it is generated). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

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
    /** New Zealand Business Number: 13 digits, spaces removed (docs/decisions/110-nzbn.md); null when not given. */
    nzbn: text('nzbn'),
    /**
     * Where a pending application (verified 0) stands in review (docs/decisions/113-changes-requested.md):
     * received, in_review (an admin opened it, or the applicant sent the changes asked for) or
     * changes_requested. Decisions stay in `verified`.
     */
    reviewStage: text('review_stage').notNull().default('received'),
    /** When the application was last sent for review (made, or changes sent): its review due date counts from here. */
    submittedAt: timestamptz('submitted_at').notNull().defaultNow(),
    /** While changes are requested: { reasons, fields, note } as the admin asked (contracts/partner-changes.ts). */
    requestedChanges: jsonb('requested_changes'),
    /**
     * The NZBN register's answer for `nzbn` (docs/decisions/114-nzbn-lookup.md): { registeredName, status,
     * checkedAt } or { error, checkedAt }; null until looked up (or with no NZBN_API_KEY).
     */
    nzbnLookup: jsonb('nzbn_lookup'),
    /** When the lookup worker should (next) look `nzbn` up; null when there is nothing to look up. */
    nzbnLookupDueAt: timestamptz('nzbn_lookup_due_at'),
    nzbnLookupAttempts: integer('nzbn_lookup_attempts').notNull().default(0),
    /** The licence's expiry date (New Zealand calendar), recorded when it is accepted (docs/decisions/115-licence-expiry.md). */
    licenseExpiresOn: date('license_expires_on', { mode: 'string' }),
    /** Set when the accepted licence expired: the partner is on hold until a new licence is accepted. */
    licenseHoldAt: timestamptz('license_hold_at'),
    /** A new licence file sent by an approved partner, waiting for an admin to accept it (storage key, never sent to clients). */
    renewalLicenseKey: text('renewal_license_key'),
    renewalSentAt: timestamptz('renewal_sent_at'),
  },
  (t) => [
    check('companies_review_stage_check', sql`${t.reviewStage} in ('received', 'in_review', 'changes_requested')`),
    index('companies_nzbn_lookup_due_idx')
      .on(t.nzbnLookupDueAt)
      .where(sql`${t.nzbnLookupDueAt} is not null`),
    index('companies_license_expires_idx')
      .on(t.licenseExpiresOn)
      .where(sql`${t.verified} = 1 and ${t.licenseExpiresOn} is not null`),
    uniqueIndex('companies_name_key_uq')
      .on(t.nameKey)
      .where(sql`${t.verified} <> 2`),
    uniqueIndex('companies_phone_key_uq')
      .on(t.phoneKey)
      .where(sql`${t.verified} <> 2`),
    uniqueIndex('companies_email_key_uq')
      .on(t.emailKey)
      .where(sql`${t.verified} <> 2 and ${t.emailKey} is not null`),
    uniqueIndex('companies_nzbn_uq')
      .on(t.nzbn)
      .where(sql`${t.verified} <> 2 and ${t.nzbn} is not null`),
    index('companies_verified_idx').on(t.verified, t.lastUpdated),
  ],
);

/**
 * What happened to a partner application, oldest first, as its applicant's status page lists it
 * (docs/decisions/112-application-status-page.md): written in the same transaction as the change itself.
 */
export const companyEvents = pgTable(
  'company_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** One of APPLICATION_EVENT_KINDS (contracts/partner-status.ts). */
    kind: text('kind').notNull(),
    /** The reason the admin gave (rejections, changes requested: the reasons and note as the applicant reads them). */
    reason: text('reason'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    actorId: uuid('actor_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('company_events_company_idx').on(t.companyId, t.createdAt, t.id),
    check(
      'company_events_kind_check',
      sql`${t.kind} in ('received', 'approved', 'rejected', 'banned', 'unbanned', 'review_started', 'changes_requested', 'resubmitted', 'license_expired', 'license_sent', 'license_accepted', 'license_refused')`,
    ),
  ],
);

/**
 * The applicant's private status links (docs/decisions/112-application-status-page.md): the SHA-256
 * (hex) of each link's token, never the token, which is only ever in a mail. Every mail that carries
 * the link makes a new one (a hash cannot be turned back into its link), and the older ones keep
 * working; the links go with the application.
 */
export const companyStatusLinks = pgTable(
  'company_status_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [index('company_status_links_company_idx').on(t.companyId)],
);

/**
 * Licence expiry reminders sent (docs/decisions/115-licence-expiry.md): one row per licence expiry date
 * and reminder (30, 14 or 3 days before, 0 for the expiry itself), written in the transaction that
 * queues its mail, so each is sent exactly once however many workers run.
 */
export const companyLicenseReminders = pgTable(
  'company_license_reminders',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    expiresOn: date('expires_on', { mode: 'string' }).notNull(),
    daysBefore: smallint('days_before').notNull(),
    sentAt: timestamptz('sent_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.expiresOn, t.daysBefore] })],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    /** The name the person goes by (optional): mail greets them by it, and staff answers are signed with it. */
    name: text('name'),
    passwordHash: text('password_hash').notNull(),
    emailVerifiedAt: timestamptz('email_verified_at'),
    role: text('role').notNull().default('user'),
    disabledAt: timestamptz('disabled_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    /** The person asked to delete the account (it is disabled at the same moment). */
    deletionRequestedAt: timestamptz('deletion_requested_at'),
    /** When the erasure worker may erase it (ERASE_AFTER_DAYS after the request; an admin can bring it forward). */
    eraseAfter: timestamptz('erase_after'),
    /** When its personal data was erased; the row stays so records can say 'Deleted user'. */
    erasedAt: timestamptz('erased_at'),
    /** A mail to this address bounced for good: notifications wait until the person signs in again. */
    mailPausedAt: timestamptz('mail_paused_at'),
    /** The console's single-key shortcuts, on or off for this person wherever they sign in (WCAG 2.1.4; decision 146). */
    keyboardShortcuts: boolean('keyboard_shortcuts').notNull().default(true),
  },
  (t) => [
    uniqueIndex('users_email_uq').on(t.email),
    check('users_role_check', sql`${t.role} in ('user', 'admin')`),
    index('users_erase_due_idx')
      .on(t.eraseAfter)
      .where(sql`${t.eraseAfter} is not null and ${t.erasedAt} is null`),
  ],
);

/**
 * The roles a member of staff holds (docs/decisions/147-roles-and-permissions.md); a person may hold
 * several. `users.role` says whether the account is staff at all ('admin', for history: a console
 * account) and follows this table: a trigger gives a new console account the admin role, and taking
 * the account back to 'user' removes its roles.
 */
export const staffRoles = pgTable(
  'staff_roles',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    grantedAt: timestamptz('granted_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.role] }),
    check('staff_roles_role_check', sql`${t.role} in ('admin', 'lead', 'agent', 'partner-reviewer', 'auditor')`),
  ],
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
    /** The browser's User-Agent at sign-in (cut to 300 characters), shown as browser and OS in the sessions list. */
    userAgent: text('user_agent'),
    /** A coarse place: the IPv4 /24 or IPv6 /48 the session signed in from, never the full address. */
    ipPrefix: text('ip_prefix'),
    /** When this session also passed the second factor (an admin's console opens only then). */
    secondFactorAt: timestamptz('second_factor_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * A sign-in with the company's identity provider in flight (docs/decisions/148-staff-sign-in-oidc.md):
 * the state, nonce and PKCE verifier of one authorization request, used once, for ten minutes.
 * When our own second factor is still to come, the provider's answer waits here for it, under the
 * code step's ticket.
 */
export const oidcLogins = pgTable('oidc_logins', {
  state: text('state').primaryKey(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  returnTo: text('return_to').notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
  ticketHash: text('ticket_hash').unique(),
  subject: text('subject'),
  providerSid: text('provider_sid'),
  refreshToken: text('refresh_token'),
});

/**
 * A session that began at the identity provider: who it is there (sub, and the provider's session
 * id for back-channel logout) and the refresh token it is re-checked with every few minutes.
 */
export const oidcSessions = pgTable(
  'oidc_sessions',
  {
    tokenHash: text('token_hash')
      .primaryKey()
      .references(() => sessions.tokenHash, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    providerSid: text('provider_sid'),
    refreshToken: text('refresh_token'),
    checkedAt: timestamptz('checked_at').notNull().defaultNow(),
  },
  (t) => [index('oidc_sessions_sid_idx').on(t.providerSid), index('oidc_sessions_checked_idx').on(t.checkedAt)],
);

/** Someone the team asked to join (an email and the roles they will hold), valid for seven days. */
export const staffInvitations = pgTable(
  'staff_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    roles: text('roles').array().notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
    acceptedAt: timestamptz('accepted_at'),
  },
  (t) => [index('staff_invitations_email_idx').on(t.email)],
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
    /** For 'change-email': the address that becomes the account's once this link is followed. */
    newEmail: text('new_email'),
  },
  (t) => [
    index('email_tokens_user_idx').on(t.userId, t.purpose),
    check('email_tokens_purpose_check', sql`${t.purpose} in ('verify-email', 'reset-password', 'change-email')`),
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
/** Versions of tickets (decision 140): one sequence for all, so a merged ticket's messages keep theirs. */
export const ticketVersions = pgSequence('ticket_version_seq');

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
    /**
     * What the team has seen of the ticket (decision 140): a new value from `ticket_version_seq` with
     * every message (a note too) and every change of state, assignee, reason or merge, set by the
     * database's triggers (migration 0024). A staff write names the version it was written against
     * and is stopped when the ticket has moved on since.
     */
    version: bigint('version', { mode: 'number' })
      .notNull()
      .default(sql`nextval('ticket_version_seq')`),
    /** Chosen by the client for each new ticket, so a retried creation is stored once (DATA-05). */
    clientId: text('client_id'),
    /** The newest message a page of the owner showing this ticket received live (no mail for those). */
    ownerSeenMessageId: bigint('owner_seen_message_id', { mode: 'number' }).notNull().default(0),
    /** The admin handling the ticket; null while unassigned (or when that account is deleted). */
    assignedTo: uuid('assigned_to').references(() => users.id, { onDelete: 'set null' }),
    /** When it was last closed (resolution time); null while open. */
    closedAt: timestamptz('closed_at'),
    /** An admin marked it a request under the Privacy Act (Deactivation tickets are one anyway). */
    privacyRequest: boolean('privacy_request').notNull().default(false),
    /** An admin marked its messages as needed for the record: erasing the owner keeps them as 'Deleted user'. */
    keepForRecord: boolean('keep_for_record').notNull().default(false),
    /** 'Still need help?' after a rating: the closed ticket this one carries on from (shown on both). */
    followsTicketId: uuid('follows_ticket_id').references((): AnyPgColumn => supportTickets.id, {
      onDelete: 'set null',
    }),
    /**
     * The first response: when the team's answer ended the ticket's first wait, and whose it was.
     * Written by the database's message trigger (migration 0014), read by the reports; null while
     * unanswered, or when the first wait ended by a close.
     */
    firstAnswerAt: timestamptz('first_answer_at'),
    firstAnswerBy: uuid('first_answer_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * Merged into that ticket (docs/decisions/116-ticket-merge.md): closed, its messages moved there;
     * everything addressed to this one (page, stream, API, a reply by mail) reaches that one.
     */
    mergedIntoId: uuid('merged_into_id').references((): AnyPgColumn => supportTickets.id, { onDelete: 'set null' }),
    /**
     * The delivery in the Bagspace app the ticket is about (docs/integrations.md): given by the app
     * when it opens the ticket, added or corrected by staff. The staff view shows the app's card for it.
     */
    deliveryReference: text('delivery_reference'),
  },
  (t) => [
    uniqueIndex('support_tickets_ticket_no_uq').on(t.ticketNo),
    uniqueIndex('support_tickets_client_id_uq')
      .on(t.userId, t.clientId)
      .where(sql`${t.clientId} is not null`),
    index('support_tickets_user_idx').on(t.userId, t.open, t.lastMessage),
    index('support_tickets_open_idx').on(t.open, t.lastMessage),
    index('support_tickets_assigned_idx').on(t.assignedTo, t.open),
    // The reports: a range's new tickets, and the tickets closed in it (a closed ticket's close time
    // is closed_at, or its last message for tickets closed before closed_at was kept).
    index('support_tickets_created_idx').on(t.creationDate),
    // Erasing an account clears its first answers by this index, not a scan.
    index('support_tickets_first_answer_by_idx')
      .on(t.firstAnswerBy)
      .where(sql`${t.firstAnswerBy} is not null`),
    index('support_tickets_closed_idx')
      .on(sql`coalesce(${t.closedAt}, ${t.lastMessage})`)
      .where(sql`not ${t.open}`),
    // Erasing an account deletes its tickets: the follow-ups' links are cleared by this index, not a scan.
    index('support_tickets_follows_idx')
      .on(t.followsTicketId)
      .where(sql`${t.followsTicketId} is not null`),
    index('support_tickets_delivery_idx')
      .on(t.deliveryReference)
      .where(sql`${t.deliveryReference} is not null`),
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
    /** An admins-only note: never sent to the ticket's owner by any route, stream, mail or export. */
    internal: boolean('internal').notNull().default(false),
    /** Posted from a mail (modules/inbound): the "by email" mark, and the way to the whole mail. */
    inboundMailId: bigint('inbound_mail_id', { mode: 'number' }),
    /**
     * A line the system wrote into the thread, not a person's message (its kind, e.g.
     * 'auto-closed'): shown to both sides as a note across the thread, never an answer or a
     * customer's message (the service-level triggers pass it by). Null for every message a person wrote.
     */
    systemEvent: text('system_event'),
    /** The ticket's version this message made (decision 140): what changed since a version is the messages above it. */
    ticketVersion: bigint('ticket_version', { mode: 'number' }).notNull().default(0),
    /** The words of the message for the inbox's search (English stemming), kept by the database. */
    search: tsvector('search')
      .notNull()
      .generatedAlwaysAs(sql`to_tsvector('english'::regconfig, message_body)`),
  },
  (t) => [
    index('ticket_messages_ticket_idx').on(t.ticketId, t.id),
    index('ticket_messages_search_idx').using('gin', t.search),
    // The reports: the team's public answers in a range (who answered what).
    index('ticket_messages_answers_idx')
      .on(t.timestamp)
      .where(sql`${t.admin} and not ${t.internal} and ${t.systemEvent} is null`),
    uniqueIndex('ticket_messages_client_uq')
      .on(t.ticketId, t.clientId)
      .where(sql`${t.clientId} is not null`),
  ],
);

/**
 * Files on support messages (modules/attachments). A row is written before its file is stored and
 * has no message until the message that carries it commits (in the same statement as that message):
 * rows still without a message after an hour are a send that never completed, and the sweep removes
 * them with their files. The file lives in storage under `storage_key` (server-made, never the
 * client's name); photos also have a WebP thumbnail under `thumbnail_key`.
 */
export const ticketAttachments = pgTable(
  'ticket_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null until the message commits (a new ticket's files are received before the ticket exists). */
    ticketId: uuid('ticket_id').references(() => supportTickets.id, { onDelete: 'cascade' }),
    messageId: bigint('message_id', { mode: 'number' }).references(() => ticketMessages.id, { onDelete: 'cascade' }),
    /** Who sent it: the user's data export lists a user's own files by this. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    size: integer('size').notNull(),
    width: integer('width'),
    height: integer('height'),
    storageKey: text('storage_key').notNull(),
    thumbnailKey: text('thumbnail_key'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('ticket_attachments_message_idx').on(t.messageId),
    index('ticket_attachments_ticket_idx').on(t.ticketId),
    index('ticket_attachments_user_idx').on(t.userId),
    index('ticket_attachments_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.messageId} is null`),
    check('ticket_attachments_kind_check', sql`${t.kind} in ('jpg', 'png', 'webp', 'pdf')`),
  ],
);

/**
 * A merge of one ticket into another, or a split of one into two (docs/decisions/116-ticket-merge.md),
 * kept so it can be undone: both tickets as they were before, the messages and files it moved, and
 * the lines it wrote.
 */
export const ticketMerges = pgTable(
  'ticket_merges',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** 'merge': source merged into target; 'split': part of source moved into the new target. */
    kind: text('kind').notNull().default('merge'),
    sourceTicketId: uuid('source_ticket_id')
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    targetTicketId: uuid('target_ticket_id')
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    /** Both tickets' rows before the merge: { source, target } (row_to_json). */
    before: jsonb('before').notNull(),
    movedMessageIds: bigint('moved_message_ids', { mode: 'number' }).array().notNull(),
    movedAttachmentIds: uuid('moved_attachment_ids').array().notNull(),
    /** The lines the merge wrote: 'Merged into #N' (source) and '#M was merged into this ticket' (target). */
    lineIds: bigint('line_ids', { mode: 'number' }).array().notNull(),
    /** Labels the merge (or split) put on the target, which it did not have: the undo takes them off. */
    addedLabelIds: uuid('added_label_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    undoneAt: timestamptz('undone_at'),
  },
  (t) => [
    index('ticket_merges_source_idx').on(t.sourceTicketId),
    index('ticket_merges_target_idx').on(t.targetTicketId),
    check('ticket_merges_kind_check', sql`${t.kind} in ('merge', 'split')`),
  ],
);

/** The owner's answer to 'How did we do?' on a closed ticket: one per ticket, changeable for 7 days. */
export const ticketRatings = pgTable(
  'ticket_ratings',
  {
    ticketId: uuid('ticket_id')
      .primaryKey()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    good: boolean('good').notNull(),
    comment: text('comment'),
    ratedAt: timestamptz('rated_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('ticket_ratings_rated_idx').on(t.ratedAt)],
);

/** The team's saved replies: a title and a text with {{ticket.number}} and {{user.email}} placeholders. */
export const savedReplies = pgTable(
  'saved_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** A macro's actions (contracts/macros.ts MacroActions): {} for a plain saved reply. */
    actions: jsonb('actions').notNull().default({}),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('saved_replies_title_uq').on(sql`lower(${t.title})`)],
);

/**
 * The team's labels for sorting tickets by topic (docs/decisions/141-labels.md): any number on a
 * ticket; names unique whatever their case.
 */
export const labels = pgTable(
  'labels',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('labels_name_uq').on(sql`lower(${t.name})`)],
);

/** A label on a ticket; goes with either. */
export const ticketLabels = pgTable(
  'ticket_labels',
  {
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    labelId: uuid('label_id')
      .notNull()
      .references(() => labels.id, { onDelete: 'cascade' }),
    addedAt: timestamptz('added_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ticketId, t.labelId] }), index('ticket_labels_label_idx').on(t.labelId)],
);

/**
 * A bulk action on the inbox (docs/decisions/143-bulk-actions.md): what it did to each ticket and
 * what each was before, so its undo can put back what no one has changed since.
 */
export const bulkActions = pgTable(
  'bulk_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorId: uuid('actor_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    /** The assignee or label the action set, as asked. */
    detail: text('detail'),
    /** Per ticket done: { ticketId, ticketNo, open, assignedTo, labelAdded, versionAfter }. */
    items: jsonb('items').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    undoneAt: timestamptz('undone_at'),
  },
  (t) => [index('bulk_actions_actor_idx').on(t.actorId, t.createdAt)],
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

export * from './schema-inbound.ts';
export * from './schema-integrations.ts';
export * from './schema-mail.ts';
export * from './schema-service-levels.ts';
export * from './schema-side-conversations.ts';
export * from './schema-second-factor.ts';
export * from './schema-claims.ts';
