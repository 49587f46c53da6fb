import { sql } from 'drizzle-orm';
import type { ClaimOutcome } from '../../../contracts/claims.ts';
import type { AppDatabase } from '../../db/connection.ts';
import { queryRows } from '../../db/sql.ts';
import { announceAfterCommit } from '../../realtime/event-bus.ts';
import { claimPendingAttachments } from '../attachments/index.ts';

/** A claim as stored, with what the console shows beside it. */
export interface ClaimRow {
  id: string;
  ticket_id: string;
  ticket_no: number;
  kind: string;
  delivery_reference: string;
  item_value_cents: number | null;
  delivered_on: string | null;
  window_ends_on: string | null;
  state: string;
  state_since: Date | string;
  due_at: Date | string | null;
  version: number;
  outcome: ClaimOutcome | null;
  amount_cents: number | null;
  decision_reason: string | null;
  decided_by: string | null;
  decided_by_email: string | null;
  decided_at: Date | string | null;
  created_at: Date | string;
  evidence: number;
  owner_id: string;
  owner_email: string | null;
  traveller_email: string | null;
  traveller_name: string | null;
  traveller_statement: string | null;
  traveller_asked_at: Date | string | null;
  traveller_answered_at: Date | string | null;
  traveller_message_id: number | string | null;
  appealed_at: Date | string | null;
  appeal_reason: string | null;
  closed_at: Date | string | null;
  carrier_company_id: string | null;
  carrier_name: string | null;
  notice_sent_on: string | null;
  decisions: {
    version: number;
    outcome: ClaimOutcome;
    amount_cents: number;
    reason: string | null;
    decided_by_email: string | null;
    decided_at: string;
  }[];
}

/** The states in which the claim waits on the team (a decision is due). */
const WITH_TEAM = `{submitted,information-requested,with-traveller,appealed}`;

const CLAIM_SELECT = sql`select c.id, c.ticket_id, t.ticket_no, c.kind, c.delivery_reference, c.item_value_cents,
    c.delivered_on::text as delivered_on, c.window_ends_on::text as window_ends_on, c.state, c.state_since,
    c.due_at, c.version, c.outcome, c.amount_cents, c.decision_reason, c.decided_by, u.email as decided_by_email,
    c.decided_at, c.created_at, t.user_id as owner_id, o.email as owner_email,
    c.traveller_email, c.traveller_name, c.traveller_statement, c.traveller_asked_at, c.traveller_answered_at,
    c.traveller_message_id, c.appealed_at, c.appeal_reason, c.closed_at, c.carrier_company_id,
    co.company_name as carrier_name, c.notice_sent_on::text as notice_sent_on,
    (select count(*)::int from ticket_attachments a
      where a.message_id = (select min(m.id) from ticket_messages m where m.ticket_id = c.ticket_id)) as evidence,
    coalesce((select json_agg(json_build_object('version', d.version, 'outcome', d.outcome, 'amount_cents', d.amount_cents,
        'reason', d.reason, 'decided_by_email', du.email, 'decided_at', d.decided_at) order by d.version)
      from claim_decisions d left join users du on du.id = d.decided_by where d.claim_id = c.id), '[]'::json) as decisions
  from incident_claims c
  join support_tickets t on t.id = c.ticket_id
  left join users u on u.id = c.decided_by
  left join users o on o.id = t.user_id
  left join companies co on co.id = c.carrier_company_id`;

const asRow = (row: ClaimRow): ClaimRow => ({ ...row, ticket_no: Number(row.ticket_no), version: Number(row.version) });

/**
 * The claims' statements (docs/decisions/152-incident-claims.md). A claim is made with its ticket
 * (modules/support, in the ticket's own statement); here it is read and decided. Due times are
 * counted in the database's working days (0033_claims.sql), from the app's clock.
 */
export function createClaimsRepository(db: AppDatabase) {
  return {
    async findByTicket(ticketId: string): Promise<ClaimRow | null> {
      const [row] = await queryRows<ClaimRow>(db, sql`${CLAIM_SELECT} where c.ticket_id = ${ticketId}::uuid`);
      return row ? asRow(row) : null;
    },

    async findById(claimId: string): Promise<ClaimRow | null> {
      const [row] = await queryRows<ClaimRow>(db, sql`${CLAIM_SELECT} where c.id = ${claimId}::uuid`);
      return row ? asRow(row) : null;
    },

    /** Approved partner companies (a claim's carrier is one of them), by name. */
    async carriers(): Promise<{ id: string; name: string }[]> {
      return queryRows<{ id: string; name: string }>(
        db,
        sql`select id, company_name as name from companies where verified = 1 order by lower(company_name), id limit 500`,
      );
    },

    /** The claim waits for the sender's answer (the trigger of 0034_claim_life.sql gives it back). */
    async waitForSender(ticketId: string, seenVersion: number, now: Date): Promise<boolean> {
      const rows = await queryRows<{ id: string }>(
        db,
        sql`update incident_claims set state = 'information-requested', state_since = ${now.toISOString()}::timestamptz,
              due_at = null, due_warned_at = null, version = version + 1
            where ticket_id = ${ticketId}::uuid and version = ${seenVersion}::integer
              and state in ('submitted', 'with-traveller')
            returning id`,
      );
      return rows.length > 0;
    },

    /** The traveller is asked (the caller mails them in the same transaction); their answer is due. */
    async askTraveller(input: {
      ticketId: string;
      seenVersion: number;
      email: string;
      name: string | null;
      statement: string;
      now: Date;
    }): Promise<{ id: string } | null> {
      const now = input.now.toISOString();
      const [row] = await queryRows<{ id: string }>(
        db,
        sql`update incident_claims set state = 'with-traveller', state_since = ${now}::timestamptz,
              traveller_email = ${input.email}, traveller_name = ${input.name}::text,
              traveller_statement = ${input.statement}, traveller_asked_at = ${now}::timestamptz,
              traveller_answered_at = null, traveller_message_id = null, due_warned_at = null,
              due_at = claim_working_days(${now}::timestamptz, claim_period('travellerAnswerDays')), version = version + 1
            where ticket_id = ${input.ticketId}::uuid and version = ${input.seenVersion}::integer
              and state in ('submitted', 'information-requested', 'with-traveller')
            returning id`,
      );
      return row ?? null;
    },

    /** The partner company that carried a leg and the day notice was given; false when the claim moved on or the company is gone. */
    async setCarrier(input: {
      ticketId: string;
      seenVersion: number;
      companyId: string | null;
      noticeSentOn: string | null;
    }): Promise<'saved' | 'stale' | 'no-company'> {
      const [row] = await queryRows<{ found: boolean }>(
        db,
        sql`with co as (select id from companies where id = ${input.companyId}::uuid)
            update incident_claims set carrier_company_id = (select id from co),
              notice_sent_on = ${input.noticeSentOn}::date, version = version + 1
            where ticket_id = ${input.ticketId}::uuid and version = ${input.seenVersion}::integer
              and (${input.companyId}::uuid is null or exists (select 1 from co))
            returning true as found`,
      );
      if (row) return 'saved';
      if (input.companyId === null) return 'stale';
      const [company] = await queryRows<{ id: string }>(
        db,
        sql`select id from companies where id = ${input.companyId}::uuid`,
      );
      return company ? 'stale' : 'no-company';
    },

    /**
     * The traveller's answer: a note on the ticket (staff only) with its files, and the claim back
     * with the team with a decision due, in one statement. Null when the claim does not wait for
     * this traveller's answer.
     */
    async answer(input: {
      claimId: string;
      userId: string;
      email: string;
      body: string;
      attachmentIds: string[];
      now: Date;
    }): Promise<{ ticketId: string; messageId: number } | null> {
      const now = input.now.toISOString();
      const ids = input.attachmentIds;
      const [row] = await queryRows<{ ticket_id: string; id: number | string }>(
        db,
        sql`with n as (select nextval(pg_get_serial_sequence('ticket_messages', 'id')) as id),
            c as (
              update incident_claims set state = 'submitted', state_since = ${now}::timestamptz,
                traveller_answered_at = ${now}::timestamptz, traveller_message_id = (select id from n),
                due_at = claim_working_days(${now}::timestamptz, claim_period('decisionDays')), due_warned_at = null,
                version = version + 1
              where id = ${input.claimId}::uuid and lower(traveller_email) = lower(${input.email})
                and state = 'with-traveller' and traveller_answered_at is null
              returning ticket_id, traveller_message_id
            ), m as (
              insert into ticket_messages (id, ticket_id, message_body, user_id, admin, internal, timestamp)
              select c.traveller_message_id, c.ticket_id, ${input.body}, ${input.userId}::uuid, false, true, clock_timestamp()
              from c
              returning id, ticket_id
            )${ids.length > 0 ? sql`, ${claimPendingAttachments(ids, input.userId)}` : sql``}
            select m.ticket_id, m.id from m`,
      );
      if (!row) return null;
      const messageId = Number(row.id);
      // Announced like a note: staff's streams only; the sender's ticket never shows it.
      await announceAfterCommit(db, { type: 'message.created', ticketId: row.ticket_id, userId: '', messageId });
      return { ticketId: row.ticket_id, messageId };
    },

    /** The sender appeals the decision: once, within its window; someone else decides it. */
    async appeal(input: { ticketId: string; ownerId: string; reason: string; now: Date }): Promise<boolean> {
      const now = input.now.toISOString();
      const rows = await queryRows<{ id: string }>(
        db,
        sql`update incident_claims c set state = 'appealed', state_since = ${now}::timestamptz,
              appealed_at = ${now}::timestamptz, appeal_reason = ${input.reason}, due_warned_at = null,
              due_at = claim_working_days(${now}::timestamptz, claim_period('appealDecisionDays')), version = c.version + 1
            from support_tickets t
            where c.ticket_id = ${input.ticketId}::uuid and t.id = c.ticket_id and t.user_id = ${input.ownerId}::uuid
              and c.state = 'decided' and c.appealed_at is null and c.due_at > ${now}::timestamptz
            returning c.id`,
      );
      return rows.length > 0;
    },

    /**
     * Decides the claim if it is still at `seenVersion` and waiting for a decision: the claim moves
     * to its next version, and that version's decision row is inserted in the same statement (its
     * trigger tells the app). The appeal window starts now. Null when nothing was decided.
     */
    async decide(input: {
      ticketId: string;
      seenVersion: number;
      outcome: ClaimOutcome;
      amountCents: number;
      reason: string | null;
      decidedBy: string;
      now: Date;
      /** The audit entry of the decision, written in its statement (a kill never leaves one without the other). */
      audit: { actorEmail: string; ticketNo: number };
    }): Promise<{ version: number } | null> {
      const now = input.now.toISOString();
      const [row] = await queryRows<{ version: number }>(
        db,
        sql`with c as (
              -- A first decision opens the appeal window; the appeal's decision (by someone else) closes the claim.
              update incident_claims set version = version + 1, state_since = ${now}::timestamptz,
                state = case when state = 'appealed' then 'closed' else 'decided' end,
                closed_at = case when state = 'appealed' then ${now}::timestamptz end,
                due_at = case when state = 'appealed' then null
                  else claim_working_days(${now}::timestamptz, claim_period('appealWindowDays')) end,
                due_warned_at = null,
                outcome = ${input.outcome}, amount_cents = ${input.amountCents}::integer, decision_reason = ${input.reason}::text,
                decided_by = ${input.decidedBy}::uuid, decided_at = ${now}::timestamptz
              where ticket_id = ${input.ticketId}::uuid and version = ${input.seenVersion}::integer
                and state = any(${WITH_TEAM}::text[])
                and (state <> 'appealed' or decided_by is distinct from ${input.decidedBy}::uuid)
              returning id, ticket_id, version
            ), d as (
              insert into claim_decisions (claim_id, version, outcome, amount_cents, reason, decided_by, decided_at)
              select c.id, c.version, ${input.outcome}, ${input.amountCents}::integer, ${input.reason}::text,
                ${input.decidedBy}::uuid, ${now}::timestamptz
              from c
            ), au as (
              insert into audit_log (actor_id, actor_email, action, target_type, target_id, details, at)
              select ${input.decidedBy}::uuid, ${input.audit.actorEmail}, 'claim.decide', 'ticket', c.ticket_id::text,
                jsonb_strip_nulls(jsonb_build_object('ticketNo', ${input.audit.ticketNo}::integer,
                  'outcome', ${input.outcome}::text, 'amountCents', ${input.amountCents}::integer,
                  'reason', ${input.reason}::text, 'version', c.version)), ${now}::timestamptz
              from c
            )
            select version from c`,
      );
      return row ? { version: Number(row.version) } : null;
    },
  };
}

export type ClaimsRepository = ReturnType<typeof createClaimsRepository>;
