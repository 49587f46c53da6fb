import { type SQL, sql } from 'drizzle-orm';
import { CLAIM_KIND_VALUES, CLAIM_OUTCOMES, type ClaimKind, type ClaimOutcome } from '../../../contracts/claims.ts';
import type { ReportTicketsQuery } from '../../../contracts/reports.schemas.ts';
import type { AppDatabase } from '../../db/connection.ts';
import { nzDayStart, queryRows } from '../../db/sql.ts';
import { labelled, type Range } from './filters.ts';

/**
 * The report's incident claims (contracts/report-claims.ts says what each figure means). A claim
 * belongs to the range by its own `created_at` (the app's clock when it was made, which its due
 * times count from), not its ticket's. Working days are the database's: New Zealand dates with
 * opening hours in business_intervals, found as claim_working_date (migration 0033) finds them,
 * by the distinct dates of the intervals' starts.
 */

const ZONE = sql.raw(`'Pacific/Auckland'`);

type ClaimsRange = Range;

/** The claim `c` was made in the range, on a ticket with the range's label, reason and assignee when it asks for them. */
function madeIn(range: ClaimsRange): SQL {
  return sql`c.created_at >= ${nzDayStart(range.from)} and c.created_at < ${nzDayStart(range.to, 1)}
    and ${labelled(range, sql`c.ticket_id`)}`;
}

/**
 * The claims made in the range, each with its first decision (the lowest version's) and the
 * working days from the claim's New Zealand date to that decision's: the working dates after the
 * first, up to and including the second (decided the same day: 0).
 */
function claimsOf(range: ClaimsRange): SQL {
  return sql`
    with c0 as (
      select c.id, c.ticket_id, c.kind, c.delivery_reference, c.item_value_cents, c.state, c.outcome,
        c.amount_cents, c.created_at, d.outcome as first_outcome, d.decided_at as first_decided_at
      from incident_claims c
      left join lateral (
        select d.outcome, d.decided_at from claim_decisions d where d.claim_id = c.id order by d.version limit 1
      ) d on true
      where ${madeIn(range)}
    )
    select c0.*, case when c0.first_decided_at is not null then (
        select count(distinct (i.starts at time zone ${ZONE})::date)::int from business_intervals i
        where i.starts >= (((c0.created_at at time zone ${ZONE})::date + 1)::timestamp at time zone ${ZONE})
          and i.starts < (((c0.first_decided_at at time zone ${ZONE})::date + 1)::timestamp at time zone ${ZONE})
      ) end as decision_days
    from c0`;
}

const kindColumn = (kind: ClaimKind) => sql.identifier(`kind_${kind}`);
const outcomeColumn = (outcome: ClaimOutcome) => sql.identifier(`first_${outcome}`);

export interface ClaimsFigureRow {
  made: number;
  kinds: Array<{ kind: ClaimKind; count: number }>;
  decided: number;
  outcomes: Array<{ outcome: ClaimOutcome; count: number }>;
  paidCents: number;
  claimedCents: number;
  medianDays: number | null;
  p90Days: number | null;
}

/** The claims' figures of the range, in one statement (in the report's snapshot). */
export async function claimFigures(tx: AppDatabase, range: ClaimsRange): Promise<ClaimsFigureRow> {
  const [row] = await queryRows<Record<string, unknown>>(
    tx,
    sql`
    with f as (${claimsOf(range)})
    select count(*)::int as made,
      ${sql.join(
        CLAIM_KIND_VALUES.map((kind) => sql`(count(*) filter (where kind = ${kind}))::int as ${kindColumn(kind)}`),
        sql`, `,
      )},
      count(first_outcome)::int as decided,
      ${sql.join(
        CLAIM_OUTCOMES.map(
          (outcome) => sql`(count(*) filter (where first_outcome = ${outcome}))::int as ${outcomeColumn(outcome)}`,
        ),
        sql`, `,
      )},
      coalesce(sum(amount_cents) filter (where outcome in ('upheld', 'part')), 0)::bigint as paid,
      coalesce(sum(item_value_cents), 0)::bigint as claimed,
      -- Nearest rank: the first days count whose place in the order reaches the fraction.
      percentile_disc(0.5) within group (order by decision_days) filter (where decision_days is not null) as median_days,
      percentile_disc(0.9) within group (order by decision_days) filter (where decision_days is not null) as p90_days
    from f`,
  );
  const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    made: Number(row!.made),
    kinds: CLAIM_KIND_VALUES.map((kind) => ({ kind, count: Number(row![`kind_${kind}`]) })),
    decided: Number(row!.decided),
    outcomes: CLAIM_OUTCOMES.map((outcome) => ({ outcome, count: Number(row![`first_${outcome}`]) })),
    paidCents: Number(row!.paid),
    claimedCents: Number(row!.claimed),
    medianDays: num(row!.median_days),
    p90Days: num(row!.p90_days),
  };
}

/** The tickets of a claims figure, as a condition on the ticket `t`; null for a figure of tickets. */
export function claimsSelection(range: ClaimsRange, query: ReportTicketsQuery): SQL | null {
  const first = sql`(select d.outcome from claim_decisions d where d.claim_id = c.id order by d.version limit 1)`;
  const which = (condition: SQL) =>
    sql`exists (select 1 from incident_claims c where c.ticket_id = t.id and ${madeIn(range)} and ${condition})`;
  switch (query.figure) {
    case 'claims':
      return which(sql`true`);
    case 'claims-decided':
      return which(sql`${first} is not null`);
    case 'claim-kind':
      return which(sql`c.kind = ${query.claimKind!}`);
    case 'claim-outcome':
      return which(sql`${first} = ${query.claimOutcome!}`);
    default:
      return null;
  }
}

export interface ClaimCsvRow {
  ticket_no: number;
  created_at: Date | string;
  kind: ClaimKind;
  delivery_reference: string;
  item_value_cents: number | null;
  state: string;
  first_outcome: ClaimOutcome | null;
  first_decided_at: Date | string | null;
  decision_days: number | null;
  outcome: ClaimOutcome | null;
  amount_cents: number | null;
}

/** Every claim made in the range, oldest first, for the CSV. */
export function claimRows(tx: AppDatabase, range: ClaimsRange): Promise<ClaimCsvRow[]> {
  return queryRows<ClaimCsvRow>(
    tx,
    sql`select t.ticket_no, f.created_at, f.kind, f.delivery_reference, f.item_value_cents, f.state, f.first_outcome,
          f.first_decided_at, f.decision_days, f.outcome, f.amount_cents
        from (${claimsOf(range)}) f join support_tickets t on t.id = f.ticket_id
        order by f.created_at, t.ticket_no`,
  );
}
