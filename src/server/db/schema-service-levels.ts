import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';
import { supportTickets, users } from './schema.ts';

/**
 * Service levels (docs/decisions/108-service-levels.md): the team's business calendar, the targets
 * per reason, the spans a ticket waits on the team (kept by database triggers on every write path),
 * and the warnings sent about them.
 */

/** The one business calendar (a single row, id 1): opening hours, anniversary day, dated exceptions. */
export const businessCalendar = pgTable(
  'business_calendar',
  {
    id: smallint('id').primaryKey().default(1),
    /** CalendarSettings (contracts/service-levels.ts). */
    settings: jsonb('settings').notNull(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [check('business_calendar_one_row', sql`${t.id} = 1`)],
);

/**
 * The calendar's open hours as instants, made from `business_calendar` (server/calendar): one row
 * per opening span, with the business minutes of every earlier row, so the database counts business
 * time with two index lookups (the functions `bh_cum` and `bh_add`, in migration 0013).
 */
export const businessIntervals = pgTable(
  'business_intervals',
  {
    starts: timestamptz('starts').primaryKey(),
    ends: timestamptz('ends').notNull(),
    minutes: doublePrecision('minutes').notNull(),
    /** Business minutes of all earlier rows. */
    cumBefore: doublePrecision('cum_before').notNull(),
  },
  (t) => [uniqueIndex('business_intervals_cum_uq').on(t.cumBefore)],
);

/** Targets per ticket reason, in business minutes. */
export const serviceTargets = pgTable('service_targets', {
  reason: text('reason').primaryKey(),
  firstResponse: integer('first_response').notNull(),
  nextResponse: integer('next_response').notNull(),
  resolution: integer('resolution').notNull(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

/**
 * One span of a ticket waiting on the team: from a customer's message that follows an answer (or
 * the ticket's first message, or a reopen) until the team answers or the ticket closes. Written
 * only by triggers (migration 0013), so every path that adds a message or closes a ticket keeps it.
 * While open, its due times are stored (and moved when the calendar or targets change).
 */
export const ticketWaits = pgTable(
  'ticket_waits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    /** 'first': no answer yet; 'next': after an answer or a reopen. */
    phase: text('phase').notNull(),
    startedAt: timestamptz('started_at').notNull(),
    endedAt: timestamptz('ended_at'),
    /** 'answer', 'close', or 'split' (the messages that started it moved to a new ticket: zero length). */
    endedBy: text('ended_by'),
    /** When the answer (first or next) is due; when the ticket's resolution is due. */
    responseDue: timestamptz('response_due'),
    resolutionDue: timestamptz('resolution_due'),
    dueAt: timestamptz('due_at').generatedAlwaysAs(sql`least(response_due, resolution_due)`),
  },
  (t) => [
    index('ticket_waits_ticket_idx').on(t.ticketId, t.startedAt),
    uniqueIndex('ticket_waits_open_uq')
      .on(t.ticketId)
      .where(sql`${t.endedAt} is null`),
    index('ticket_waits_due_idx')
      .on(t.dueAt)
      .where(sql`${t.endedAt} is null`),
    check('ticket_waits_phase', sql`${t.phase} in ('first', 'next')`),
  ],
);

/**
 * A warning about a wait: 'soon' (the warning lead before a due time) or 'missed'. One row per
 * wait, target and moment, so a moment is told once, whatever restarts or instances there are; the
 * row and its mail are written in one statement (modules/service-levels).
 */
export const serviceLevelAlerts = pgTable(
  'service_level_alerts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    waitId: bigint('wait_id', { mode: 'number' })
      .notNull()
      .references(() => ticketWaits.id, { onDelete: 'cascade' }),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    /** 'response' or 'resolution'. */
    target: text('target').notNull(),
    /** 'soon' or 'missed'. */
    moment: text('moment').notNull(),
    dueAt: timestamptz('due_at').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('service_level_alerts_uq').on(t.waitId, t.target, t.moment),
    index('service_level_alerts_ticket_idx').on(t.ticketId),
  ],
);

/**
 * The nudge before an idle ticket closes itself, and the close: one row per ticket and the answer
 * it waits after, so each is done once.
 */
export const autoCloseSteps = pgTable(
  'auto_close_steps',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    /** The team's answer the customer has not replied to. */
    afterMessageId: bigint('after_message_id', { mode: 'number' }).notNull(),
    /** 'nudged' or 'closed'. */
    step: text('step').notNull(),
    closesAt: timestamptz('closes_at').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('auto_close_steps_uq').on(t.ticketId, t.afterMessageId, t.step)],
);
