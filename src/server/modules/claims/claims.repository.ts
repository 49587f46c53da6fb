import { sql } from 'drizzle-orm';
import type { ClaimOutcome, ClaimPeriods } from '../../../contracts/claims.ts';
import type { AppDatabase } from '../../db/connection.ts';
import { queryRows } from '../../db/sql.ts';

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
}

/** The states a decision may be made in: everything before it, and an appeal. */
const DECIDABLE = `{submitted,information-requested,with-traveller,appealed}`;

/**
 * The claims' statements (docs/decisions/152-incident-claims.md). A claim is made with its ticket
 * (modules/support, in the ticket's own statement); here it is read and decided. Due times are
 * counted in the database's working days (0033_claims.sql), from the app's clock.
 */
export function createClaimsRepository(db: AppDatabase) {
  return {
    async findByTicket(ticketId: string): Promise<ClaimRow | null> {
      const [row] = await queryRows<ClaimRow>(
        db,
        sql`select c.id, c.ticket_id, t.ticket_no, c.kind, c.delivery_reference, c.item_value_cents,
              c.delivered_on::text as delivered_on, c.window_ends_on::text as window_ends_on, c.state, c.state_since,
              c.due_at, c.version, c.outcome, c.amount_cents, c.decision_reason, c.decided_by, u.email as decided_by_email,
              c.decided_at, c.created_at,
              (select count(*)::int from ticket_attachments a
                where a.message_id = (select min(m.id) from ticket_messages m where m.ticket_id = c.ticket_id)) as evidence
            from incident_claims c
            join support_tickets t on t.id = c.ticket_id
            left join users u on u.id = c.decided_by
            where c.ticket_id = ${ticketId}::uuid`,
      );
      return row ? { ...row, ticket_no: Number(row.ticket_no), version: Number(row.version) } : null;
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
      periods: ClaimPeriods;
    }): Promise<{ version: number } | null> {
      const now = input.now.toISOString();
      const [row] = await queryRows<{ version: number }>(
        db,
        sql`with c as (
              update incident_claims set version = version + 1, state = 'decided', state_since = ${now}::timestamptz,
                due_at = claim_working_days(${now}::timestamptz, ${input.periods.appealWindowDays}::integer),
                outcome = ${input.outcome}, amount_cents = ${input.amountCents}::integer, decision_reason = ${input.reason}::text,
                decided_by = ${input.decidedBy}::uuid, decided_at = ${now}::timestamptz
              where ticket_id = ${input.ticketId}::uuid and version = ${input.seenVersion}::integer
                and state = any(${DECIDABLE}::text[])
              returning id, version
            ), d as (
              insert into claim_decisions (claim_id, version, outcome, amount_cents, reason, decided_by, decided_at)
              select c.id, c.version, ${input.outcome}, ${input.amountCents}::integer, ${input.reason}::text,
                ${input.decidedBy}::uuid, ${now}::timestamptz
              from c
            )
            select version from c`,
      );
      return row ? { version: Number(row.version) } : null;
    },
  };
}

export type ClaimsRepository = ReturnType<typeof createClaimsRepository>;
