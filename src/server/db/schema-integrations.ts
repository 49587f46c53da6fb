import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';
import { users } from './schema.ts';

/**
 * What connects the company's own systems (docs/integrations.md): service API keys and webhooks.
 * Kept apart from schema.ts (re-exported from it) so each schema file stays readable.
 */

/**
 * A service API key (docs/decisions/149-service-api-keys.md): a secret the app presents as
 * `Authorization: Bearer`, not a person's password. Only its SHA-256 is kept; the list shows the
 * name and the last four characters. Rotating makes a new key and ends the old one after an overlap.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    lastFour: text('last_four').notNull(),
    scopes: text('scopes').array().notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
    lastUsedAt: timestamptz('last_used_at'),
    /** The key this one replaced by a rotation (which stays valid until its own end). */
    rotatedFrom: uuid('rotated_from'),
  },
  (t) => [uniqueIndex('api_keys_token_hash_uq').on(t.tokenHash), index('api_keys_created_idx').on(t.createdAt)],
);

/**
 * A webhook subscription (docs/decisions/150-webhooks.md): an endpoint URL, the events it hears and
 * the secret its deliveries are signed with (Standard Webhooks). An endpoint failing for three days
 * is disabled and the admins are told.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    events: text('events').array().notNull(),
    /** `whsec_` and the base64 of 32 random bytes: kept whole, as signing needs it. */
    secret: text('secret').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Why it was turned off, when the app turned it off (three days failing). */
    disabledReason: text('disabled_reason'),
    /** The first failure since its last success; null while it succeeds. */
    failingSince: timestamptz('failing_since'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_enabled_idx').on(t.enabled)],
);

/**
 * Something a webhook may tell: written by the database's triggers in the same transaction as its
 * cause (migration 0032), only while an enabled endpoint listens for its type. `subject` is what the
 * order is kept per (a ticket's id, a company's id).
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type').notNull(),
    subject: text('subject').notNull(),
    payload: jsonb('payload').notNull(),
    occurredAt: timestamptz('occurred_at').notNull().defaultNow(),
  },
  (t) => [index('webhook_events_occurred_idx').on(t.occurredAt), index('webhook_events_subject_idx').on(t.subject)],
);

/**
 * One event for one endpoint, with a `webhook-id` that stays the same through every attempt and a
 * "Deliver again", so the receiver can tell a repeat. The worker claims due rows (lease, SKIP LOCKED).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    webhookId: text('webhook_id').notNull(),
    subject: text('subject').notNull(),
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().defaultNow(),
    leaseUntil: timestamptz('lease_until'),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    deliveredAt: timestamptz('delivered_at'),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_webhook_id_uq').on(t.webhookId),
    index('webhook_deliveries_due_idx').on(t.state, t.nextAttemptAt),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_subject_idx')
      .on(t.endpointId, t.subject, t.id)
      .where(sql`${t.state} = 'pending'`),
    check('webhook_deliveries_state_check', sql`${t.state} in ('pending', 'delivered', 'failed')`),
  ],
);

/** Each attempt of a delivery: the log on the console's webhook page. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    at: timestamptz('at').notNull().defaultNow(),
    /** The HTTP status the endpoint answered; null when no answer came (refused, time-out). */
    status: integer('status'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.id)],
);
