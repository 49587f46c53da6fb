import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, date, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';
import { companies, supportTickets, ticketMessages, users } from './schema.ts';

/**
 * Incident claims (docs/decisions/152-incident-claims.md): the claim an Incident Report about a
 * delivery opens, one per ticket, its waits counted in working days of the team's calendar.
 */
export const incidentClaims = pgTable(
  'incident_claims',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ticketId: uuid('ticket_id')
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    deliveryReference: text('delivery_reference').notNull(),
    itemValueCents: integer('item_value_cents'),
    deliveredOn: date('delivered_on', { mode: 'string' }),
    /** The last day of Bagspace's window to claim (working days after delivery), when the day is known. */
    windowEndsOn: date('window_ends_on', { mode: 'string' }),
    state: text('state').notNull().default('submitted'),
    stateSince: timestamptz('state_since').notNull().defaultNow(),
    /** When the wait of the state it is in ends (a decision, the traveller's answer, an appeal's window). */
    dueAt: timestamptz('due_at'),
    /** Every change of the claim moves it on by one: a decision is made against the version it read. */
    version: integer('version').notNull().default(1),
    outcome: text('outcome'),
    amountCents: integer('amount_cents'),
    decisionReason: text('decision_reason'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamptz('decided_at'),
    /** The traveller of the delivery, asked to answer by mail (the delivery card's, or typed by staff). */
    travellerEmail: text('traveller_email'),
    travellerName: text('traveller_name'),
    /** What the traveller reads: the claim in staff's words, never the sender's ticket. */
    travellerStatement: text('traveller_statement'),
    travellerAskedAt: timestamptz('traveller_asked_at'),
    travellerAnsweredAt: timestamptz('traveller_answered_at'),
    /** The traveller's answer: a note on the ticket (staff only), with its photos. */
    travellerMessageId: bigint('traveller_message_id', { mode: 'number' }).references(() => ticketMessages.id, {
      onDelete: 'set null',
    }),
    /** The sender's appeal of the decision (once). */
    appealedAt: timestamptz('appealed_at'),
    appealReason: text('appeal_reason'),
    closedAt: timestamptz('closed_at'),
    /** The due time a late warning was last sent about (so each wait warns once). */
    dueWarnedAt: timestamptz('due_warned_at'),
    /** A partner company that carried a leg of the delivery (the carriage law's notice applies). */
    carrierCompanyId: uuid('carrier_company_id').references(() => companies.id, { onDelete: 'set null' }),
    /** The day written notice of the claim was given to that carrier. */
    noticeSentOn: date('notice_sent_on', { mode: 'string' }),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('incident_claims_ticket_uq').on(t.ticketId),
    index('incident_claims_due_idx')
      .on(t.dueAt)
      .where(sql`${t.dueAt} is not null`),
    index('incident_claims_traveller_idx')
      .on(t.travellerEmail)
      .where(sql`${t.travellerEmail} is not null`),
    check('incident_claims_kind', sql`${t.kind} in ('lost', 'damaged', 'late', 'not-as-described', 'other')`),
    check(
      'incident_claims_state',
      sql`${t.state} in ('submitted', 'information-requested', 'with-traveller', 'decided', 'appealed', 'closed')`,
    ),
    check('incident_claims_outcome', sql`${t.outcome} is null or ${t.outcome} in ('upheld', 'part', 'declined')`),
  ],
);

/**
 * Each decision of a claim, once per version of the claim it was made on (the unique index): the
 * row whose insert sends `claim.decided` to the app, so one version never makes two decisions.
 */
export const claimDecisions = pgTable(
  'claim_decisions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    claimId: uuid('claim_id')
      .notNull()
      .references(() => incidentClaims.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    outcome: text('outcome').notNull(),
    amountCents: integer('amount_cents').notNull(),
    reason: text('reason'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamptz('decided_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('claim_decisions_version_uq').on(t.claimId, t.version)],
);
