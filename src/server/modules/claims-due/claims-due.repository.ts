import { sql } from 'drizzle-orm';
import type { ClaimKind } from '../../../contracts/claims.ts';
import type { AppDatabase } from '../../db/connection.ts';
import { queryRows } from '../../db/sql.ts';

/**
 * The states whose due time is a wait the team answers for: a decision (submitted), an appeal's
 * decision (appealed), and the traveller's answer, which the team chases once it is late
 * (with-traveller). A decided claim's due time is the sender's appeal window, and an information
 * request waits on the sender: neither warns the team.
 */
export const TEAM_WAIT_STATES = ['submitted', 'with-traveller', 'appealed'] as const;
export type TeamWaitState = (typeof TEAM_WAIT_STATES)[number];

/** A claim just marked as warned about its due time: what its mail says. */
export interface WarnedClaim {
  claimId: string;
  ticketId: string;
  kind: ClaimKind;
  deliveryReference: string;
  state: TeamWaitState;
  dueAt: Date;
}

const FIRST_ID = '00000000-0000-0000-0000-000000000000';
const teamWaits = sql.raw(TEAM_WAIT_STATES.map((s) => `'${s}'`).join(', '));

/**
 * The claims-due worker's statements on incident_claims (docs/decisions/152-incident-claims.md):
 * each is conditional on the claim still being as the round found it, so a second instance, a
 * retry or a change committed meanwhile never warns twice or closes what moved on.
 */
export function createClaimsDueRepository(db: AppDatabase) {
  return {
    firstId: FIRST_ID,

    /** Claims waiting on the team whose due time is within `leadMinutes` of `now` (or past) and not yet warned about, by id. */
    async listToWarn(now: Date, leadMinutes: number, afterId: string, limit: number): Promise<string[]> {
      const rows = await queryRows<{ id: string }>(
        db,
        sql`select c.id from incident_claims c
            where c.due_at is not null
              and c.due_at <= ${now.toISOString()}::timestamptz + make_interval(mins => ${leadMinutes}::int)
              and c.state in (${teamWaits})
              and c.due_warned_at is distinct from c.due_at
              and c.id > ${afterId}::uuid
            order by c.id limit ${limit}`,
      );
      return rows.map((r) => r.id);
    },

    /**
     * Marks one claim as warned about its current due time, if it still needs it; returns what the
     * mail says, or null. Run in the transaction that records the mail: both commit or neither.
     */
    async markWarned(tx: AppDatabase, claimId: string, now: Date, leadMinutes: number): Promise<WarnedClaim | null> {
      const [row] = await queryRows<{
        id: string;
        ticket_id: string;
        kind: ClaimKind;
        delivery_reference: string;
        state: TeamWaitState;
        due_at: unknown;
      }>(
        tx,
        sql`update incident_claims c set due_warned_at = c.due_at
            where c.id = ${claimId}::uuid and c.due_at is not null
              and c.due_at <= ${now.toISOString()}::timestamptz + make_interval(mins => ${leadMinutes}::int)
              and c.state in (${teamWaits})
              and c.due_warned_at is distinct from c.due_at
            returning c.id, c.ticket_id, c.kind, c.delivery_reference, c.state, c.due_at`,
      );
      if (!row) return null;
      return {
        claimId: row.id,
        ticketId: row.ticket_id,
        kind: row.kind,
        deliveryReference: row.delivery_reference,
        state: row.state,
        dueAt: new Date(row.due_at as string),
      };
    },

    /**
     * Closes every decided claim whose appeal window has ended by `now`, in one statement: the
     * condition is read again on each row it locks, so a claim appealed meanwhile stays appealed and
     * a claim another instance closed is not closed twice. Returns how many it closed.
     */
    async closeDecided(now: Date): Promise<number> {
      const rows = await queryRows<{ id: string }>(
        db,
        sql`update incident_claims c
            set state = 'closed', closed_at = ${now.toISOString()}::timestamptz,
              state_since = ${now.toISOString()}::timestamptz, due_at = null, version = c.version + 1
            where c.state = 'decided' and c.due_at is not null and c.due_at <= ${now.toISOString()}::timestamptz
            returning c.id`,
      );
      return rows.length;
    },
  };
}

export type ClaimsDueRepository = ReturnType<typeof createClaimsDueRepository>;
