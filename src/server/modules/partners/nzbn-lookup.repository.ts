import { sql } from 'drizzle-orm';
import type { NzbnCheck } from '../../../contracts/companies.schemas.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { companies } from '../../db/schema.ts';
import { queryRows } from '../../db/sql.ts';

/**
 * The NZBN register lookup's rows (docs/decisions/114-nzbn-lookup.md): companies.nzbn_lookup holds
 * what the admin is shown (one of NzbnCheck's shapes, `retrying` aside), nzbn_lookup_due_at when the
 * worker should (next) look the number up, nzbn_lookup_attempts the failed tries since the last
 * answer.
 */

/** What a lookup ended with, as stored in companies.nzbn_lookup. */
export type StoredNzbnLookup =
  Exclude<NzbnCheck, { result: 'failed' }> | Omit<Extract<NzbnCheck, { result: 'failed' }>, 'retrying'>;

/**
 * The admin's view of the lookup: the stored answer, a failure with whether another try is planned,
 * or null (no NZBN, or never looked at: without NZBN_API_KEY nothing writes nzbn_lookup).
 */
export const nzbnCheckColumn = sql<NzbnCheck | null>`(case
  when ${companies.nzbn} is null or ${companies.nzbnLookup} is null then null
  when ${companies.nzbnLookup}->>'result' = 'failed'
    then ${companies.nzbnLookup} || jsonb_build_object('retrying', ${companies.nzbnLookupDueAt} is not null)
  else ${companies.nzbnLookup} end)`;

export interface ClaimedLookup {
  id: string;
  nzbn: string;
  attempts: number;
}

export function createNzbnLookupRepository(db: AppDatabase) {
  return {
    /**
     * Takes up to `limit` companies whose lookup is due at `now`, skipping rows another instance has
     * locked, and leases them until `leaseUntil` (pushing their due time there) in one short
     * transaction: the HTTP call happens outside any transaction, and a process that dies during it
     * leaves the lookup due again when the lease ends. A company never looked at shows 'waiting'.
     */
    async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedLookup[]> {
      return inTransaction(db, async (tx) => {
        // Raw SQL: FOR UPDATE SKIP LOCKED has no builder form, and the update reuses the locked set.
        const rows = await queryRows<{ id: string; nzbn: string; attempts: unknown }>(
          tx,
          sql`with due as (
                select id from companies
                where nzbn_lookup_due_at <= ${now.toISOString()}::timestamptz and nzbn is not null
                order by nzbn_lookup_due_at, id limit ${limit}
                for update skip locked)
              update companies c set nzbn_lookup_due_at = ${leaseUntil.toISOString()}::timestamptz,
                nzbn_lookup = coalesce(c.nzbn_lookup, '{"result":"waiting"}'::jsonb)
              from due where c.id = due.id
              returning c.id, c.nzbn, c.nzbn_lookup_attempts as attempts`,
        );
        return rows.map((r) => ({ id: r.id, nzbn: r.nzbn, attempts: Number(r.attempts) }));
      });
    },

    /**
     * Records an answer (found, not found): no more tries. Only while the number is still the one
     * looked up and the lease is ours (`leaseUntil`), so a late answer never overwrites a newer one.
     */
    async recordAnswer(claim: ClaimedLookup, leaseUntil: Date, lookup: StoredNzbnLookup): Promise<boolean> {
      // Raw SQL: a jsonb value with a compare-and-set on the lease (see claimDue).
      const rows = await queryRows<{ id: string }>(
        db,
        sql`update companies set nzbn_lookup = ${JSON.stringify(lookup)}::jsonb,
              nzbn_lookup_due_at = null, nzbn_lookup_attempts = 0
            where id = ${claim.id} and nzbn = ${claim.nzbn}
              and nzbn_lookup_due_at = ${leaseUntil.toISOString()}::timestamptz
            returning id`,
      );
      return rows.length > 0;
    },

    /** Records a failed try: the next one at `retryAt`, or none (null: the worker gives up). */
    async recordFailure(
      claim: ClaimedLookup,
      leaseUntil: Date,
      lookup: StoredNzbnLookup,
      retryAt: Date | null,
    ): Promise<boolean> {
      // Raw SQL: as recordAnswer.
      const rows = await queryRows<{ id: string }>(
        db,
        sql`update companies set nzbn_lookup = ${JSON.stringify(lookup)}::jsonb,
              nzbn_lookup_due_at = ${retryAt ? retryAt.toISOString() : null}::timestamptz,
              nzbn_lookup_attempts = ${claim.attempts + 1}
            where id = ${claim.id} and nzbn = ${claim.nzbn}
              and nzbn_lookup_due_at = ${leaseUntil.toISOString()}::timestamptz
            returning id`,
      );
      return rows.length > 0;
    },
  };
}
