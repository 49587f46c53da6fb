import { type SQL, sql } from 'drizzle-orm';
import { REPORT_COMMENTS_LIMIT, SPREAD_BUCKETS } from '../../../contracts/reports.ts';
import type { ReportTicketsQuery } from '../../../contracts/reports.schemas.ts';
import { addDays } from '../../calendar/business-calendar.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { nzDayStart, pgArray, queryRows } from '../../db/sql.ts';
import { claimFigures, claimRows, claimsSelection } from './claims-report.repository.ts';
import { labelled, type Range } from './filters.ts';
import { type RollupParts, summed } from './rollup-figures.ts';
import { createRollups, NONE } from './rollups.ts';

/**
 * The report's figures, counted by the database (docs/decisions/109-reports-and-charts.md). Days
 * and hours are New Zealand ones: every instant is read `at time zone 'Pacific/Auckland'`, so a
 * day is 23 or 25 hours long across a clock change and an hour lands where the wall clock says.
 * Business time is the database's own (bh_between over business_intervals, migration 0013).
 *
 * Raw SQL: ordered-set aggregates (percentile_cont), lateral joins and the business-time functions
 * have no query-builder form, and one statement per figure keeps each readable beside its comment.
 */

const ZONE = sql.raw(`'Pacific/Auckland'`);

const startOf = (range: Range) => nzDayStart(range.from);
const endOf = (range: Range) => nzDayStart(addDays(range.to, 1));

/** A public answer by the team: not an internal note, not a line the system wrote. */
const PUBLIC_ANSWER = sql`m.admin and not m.internal and m.system_event is null`;

/**
 * One row per ticket of a selection, with what every figure reads (minutes are business minutes,
 * hours clock hours):
 * - first_answer_at, first_answer_by: when the team's answer ended its first wait (the first
 *   response), and whose it was: kept on the ticket by the message trigger (migration 0014);
 * - fr_waiting_min: while that first wait is still open, the business minutes since creation (so a
 *   ticket nobody has answered counts as late once it is past its target);
 * - closed_at: when a closed ticket closed (its last close);
 * - res_late: whether the business time the ticket waited on us (the sum of bh_between over its
 *   waits, an open wait counted to now) is past its resolution target;
 * - outcome: open, closed, or auto-closed (its newest line is the system's 'auto-closed' line; only
 *   when asked for).
 *
 * Business minutes are bh_between(a, b) = bh_cum(b) − bh_cum(a) of migration 0013, counted for all
 * the tickets at once: every moment a figure needs (creations, first answers, closes, the waits'
 * ends, now) is put in time order with the business intervals, and each moment takes the last
 * interval that starts at or before it (an as-of join by a running max: starts, ends and cum_before
 * all grow with time). Calling bh_between per ticket was one executor start per call (the planner
 * cannot inline a function with a subquery): a 28-day report over 100,000 tickets took seconds.
 */
export function facts(selection: SQL, now: Date, options: { outcome?: boolean } = {}): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  return sql`
    with t0 as materialized (
      select t.id, t.ticket_no, t.reason, t.creation_date, t.open, t.assigned_to, x.closed_at,
        t.first_answer_at, t.first_answer_by,
        -- Still in its first wait: only an open ticket nobody has answered can be.
        case when t.open and t.first_answer_at is null then exists (
          select 1 from ticket_waits w where w.ticket_id = t.id and w.phase = 'first' and w.ended_at is null)
          else false end as first_open,
        g.first_response as target_first, g.resolution as target_resolution,
        ${
          options.outcome
            ? sql`case when t.open then 'open'
          when (select m.system_event from ticket_messages m
                where m.ticket_id = t.id and not m.internal order by m.id desc limit 1) = 'auto-closed' then 'auto-closed'
          else 'closed' end`
            : sql`null::text`
        } as outcome
      from support_tickets t
      cross join lateral (select case when not t.open then coalesce(t.closed_at, t.last_message) end as closed_at) x
      left join service_targets g on g.reason = t.reason
      where ${selection}
    ), moments as (
      -- Each ticket's moments (1 created, 2 first answer, 3 closed), and now (0).
      select id, 1 as k, creation_date as m from t0
      union all select id, 2, first_answer_at from t0 where first_answer_at is not null
      union all select id, 3, closed_at from t0 where closed_at is not null
      union all select null, 0, ${at}
    ), bh as (${asOf('moments', 'uuid')}), cums as (
      select id, max(cum) filter (where k = 1) as c, max(cum) filter (where k = 2) as fa,
        max(cum) filter (where k = 3) as cl
      from bh where k > 0 group by id
    ), t1 as materialized (
      select t0.*,
        case when t0.first_answer_at is not null then greatest(0, b.fa - b.c) end as fr_min,
        extract(epoch from t0.first_answer_at - t0.creation_date)::float8 / 3600 as fr_hours,
        case when t0.first_open then greatest(0, (select cum from bh where k = 0) - b.c) end as fr_waiting_min,
        case when t0.closed_at is not null then greatest(0, b.cl - b.c) end as res_min,
        extract(epoch from t0.closed_at - t0.creation_date)::float8 / 3600 as res_hours,
        -- Business time from creation to closing (or now): every wait lies within it.
        greatest(0, coalesce(b.cl, (select cum from bh where k = 0)) - b.c) as span_min
      from t0
      -- Now's business minutes as a value read once (an InitPlan): a join with it was a nested loop
      -- that scanned every moment again for each ticket.
      join cums b on b.id = t0.id
    ), w0 as materialized (
      -- The waits are summed only where that span is past the resolution target: elsewhere the
      -- time waited on us, no longer than the span, is within it.
      select w.id, w.ticket_id, w.started_at as a, coalesce(w.ended_at, greatest(w.started_at, ${at})) as b
      from t1 join ticket_waits w on w.ticket_id = t1.id
      where t1.span_min > t1.target_resolution
    ), wait_moments as (
      -- Each wait's start (1) and end (2).
      select id, 1 as k, a as m from w0 union all select id, 2, b from w0
    ), wbh as (${asOf('wait_moments', 'bigint')}), waited as (
      select w0.ticket_id, sum(greatest(0, x.e - x.s)) as minutes
      from (
        select id, max(cum) filter (where k = 1) as s, max(cum) filter (where k = 2) as e from wbh group by id
      ) x join w0 on w0.id = x.id
      group by 1
    )
    select t1.*, waited.minutes as waited_min,
      -- Late for resolution: waited on us longer than the target (closed or not).
      coalesce(waited.minutes > t1.target_resolution, false) as res_late
    from t1 left join waited on waited.ticket_id = t1.id`;
}

/**
 * bh_cum(m) for every moment of the CTE `moments` (columns `id`, `k`, `m`: whose moment, which one,
 * when; passed through), by an as-of join: the moments in time order with the business intervals,
 * each moment taking the last interval that starts at or before it (a running max: starts, ends
 * and cum_before all grow with time), then the minutes before that interval and the moment's part
 * of it, as bh_cum does (migration 0013). One sort of them all, with no lookups per moment.
 */
function asOf(moments: string, idType: 'uuid' | 'bigint'): SQL {
  const from = sql.identifier(moments);
  return sql`
    select id, k, case when starts is null then 0
      else cum_before + greatest(0, least(extract(epoch from m - starts), extract(epoch from ends - starts)) / 60) end as cum
    from (
      select id, k, kind, m, max(starts) over run as starts, max(ends) over run as ends,
        max(cum_before) over run as cum_before
      from (
        select id, k, m, 1 as kind, null::timestamptz as starts, null::timestamptz as ends, null::float8 as cum_before
        from ${from}
        union all
        select null::${sql.raw(idType)}, null, i.starts, 0, i.starts, i.ends, i.cum_before from business_intervals i
        -- From the last interval starting at or before the first moment, to the last moment.
        where i.starts <= (select max(m) from ${from})
          and i.starts >= coalesce((select max(j.starts) from business_intervals j
                                    where j.starts <= (select min(m) from ${from})), '-infinity')
      ) u
      window run as (order by m, kind rows unbounded preceding)
    ) v
    where kind = 1`;
}

/**
 * The tickets created in the range (with its label, when it has one): the cohort the time figures,
 * spread and hours are about.
 */
const createdIn = (range: Range) =>
  sql`t.creation_date >= ${startOf(range)} and t.creation_date < ${endOf(range)} and ${labelled(range)}`;

/** Tickets an admin (or any admin) answered in the range. A message in the range is on a ticket whose last message is. */
function answeredIn(range: Range, admin?: string): SQL {
  return sql`exists (
    select 1 from ticket_messages m
    where m.ticket_id = t.id and ${PUBLIC_ANSWER} and m.timestamp >= ${startOf(range)} and m.timestamp < ${endOf(range)}
      ${admin ? sql`and m.user_id = ${admin}::uuid` : sql``})
    and t.last_message >= ${startOf(range)} and ${labelled(range)}`;
}

export interface FactRow {
  id: string;
  ticket_no: number;
  reason: string;
  creation_date: Date | string;
  first_answer_at: Date | string | null;
  fr_min: number | null;
  fr_hours: number | null;
  closed_at: Date | string | null;
  res_min: number | null;
  res_hours: number | null;
  assignee: string | null;
  good: boolean | null;
  comment: string | null;
  outcome: 'open' | 'closed' | 'auto-closed';
  /** The ticket's labels, by name. */
  labels: string[];
}

/**
 * Percentiles are exact while a range holds at most this many tickets: the database sorts them in a
 * few milliseconds. Beyond it they come from the days' histograms (docs/decisions/154-report-rollups.md).
 */
const EXACT_TICKETS = 5_000;

export function createReportsRepository(
  db: AppDatabase,
  kind: 'pglite' | 'postgres',
  options: { exactTickets?: number } = {},
) {
  const exactTickets = options.exactTickets ?? EXACT_TICKETS;
  const rollups = createRollups(db, kind, (ids, now) => facts(sql`t.id = any(${pgArray(ids)}::uuid[])`, now));
  /**
   * A read-only transaction, in the snapshot another exported when one is given. The report's
   * statements are many small index probes and sorts that PostgreSQL's cost estimate takes for one
   * large query: it compiled them with JIT first (1.3 s of a 28-day report's 2.7 s over 100,000
   * tickets), and sorted the as-of join's moments on disk.
   */
  function readOnly<T>(work: (tx: AppDatabase) => Promise<T>, snapshot?: string): Promise<T> {
    return inTransaction(
      db,
      async (tx) => {
        if (snapshot) await tx.execute(sql.raw(`set transaction snapshot '${snapshot.replace(/[^0-9A-Fa-f-]/g, '')}'`));
        await tx.execute(sql`set local jit = off`);
        await tx.execute(sql`set local work_mem = '32MB'`);
        return work(tx);
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }

  /** A report reading side by side holds connections while it takes more: only one at a time does. */
  let sideBySide = false;

  /**
   * Runs reads that see the same data: on PostgreSQL side by side, the first exporting its
   * snapshot and the others taking it before they read; on the embedded database (one connection),
   * or while another report reads side by side (a pool could be all held by reports waiting for
   * more), one after another in one transaction.
   */
  async function inOneSnapshot<const R extends readonly ((tx: AppDatabase) => Promise<unknown>)[]>(
    reads: R,
  ): Promise<{ -readonly [K in keyof R]: Awaited<ReturnType<R[K]>> }> {
    type Results = { -readonly [K in keyof R]: Awaited<ReturnType<R[K]>> };
    if (kind !== 'postgres' || sideBySide) {
      return readOnly(async (tx) => {
        const results: unknown[] = [];
        for (const read of reads) results.push(await read(tx));
        return results as Results;
      });
    }
    const [first, ...rest] = reads;
    sideBySide = true;
    try {
      return await readOnly(async (tx) => {
        const [exported] = await queryRows<{ id: string }>(tx, sql`select pg_export_snapshot() as id`);
        const others = Promise.all(rest.map((read) => readOnly(read, exported!.id)));
        // The exporting transaction stays open until the others have their snapshot (and have read).
        const [mine, theirs] = await Promise.allSettled([first!(tx), others]);
        if (mine.status === 'rejected') throw mine.reason;
        if (theirs.status === 'rejected') throw theirs.reason;
        return [mine.value, ...theirs.value] as Results;
      });
    } finally {
      sideBySide = false;
    }
  }

  /**
   * The figures of one range, from one snapshot so they agree with each other, read from the
   * rollups (docs/decisions/154-report-rollups.md) once they have counted every write before this
   * call (the months excepted: a queued month is read from its days): the range's day and month
   * rows, each day's counts, the backlog before the range from all earlier months and days, the open tickets'
   * lateness (which depends on the time), the admins' answers, the comments and the claims. On
   * PostgreSQL the statements run side by side on their own connections, each in the snapshot the
   * first exported; the embedded database has one connection and runs them in turn.
   */
  async function report(range: Range, now: Date) {
    await rollups.catchUp(now, { wait: true });
    const label = range.label ?? NONE;
    const keyFilter = sql`${range.reason ? sql`and d.reason = ${range.reason}` : sql``}
      ${range.agent ? sql`and d.assignee = ${range.agent}::uuid` : sql``}`;
    const factsFilter = sql`f.created_day >= ${range.from}::date and f.created_day <= ${range.to}::date
      ${range.label ? sql`and f.labels @> array[${range.label}::uuid]` : sql``}
      ${range.reason ? sql`and f.reason = ${range.reason}` : sql``}
      ${range.agent ? sql`and f.assignee = ${range.agent}::uuid` : sql``}`;
    const ratedIn = sql`r.updated_at >= ${startOf(range)} and r.updated_at < ${endOf(range)}
      and (select ${labelled(range, sql`r.ticket_id`)})`;
    // A month wholly in the range is read from its month row unless the month is queued to be
    // counted again (report_dirty_months: its days changed since), and then from its days, as every
    // day of a month only partly in the range is. `clean(m)` says which.
    const counted = (month: SQL) => sql`not exists (select 1 from report_dirty_months q where q.month = ${month})`;
    const clean = (month: SQL) => sql`(${month} >= ${range.from}::date
      and (${month} + interval '1 month' - interval '1 day')::date <= ${range.to}::date and ${counted(month)})`;
    /** A month wholly before the range, read from its month row (when not queued). */
    const earlier = (month: SQL) =>
      sql`((${month} + interval '1 month' - interval '1 day')::date < ${range.from}::date and ${counted(month)})`;
    const dayMonth = sql`date_trunc('month', d.day)::date`;
    const inDays = sql`d.day >= ${range.from}::date and d.day <= ${range.to}::date and not ${clean(dayMonth)}`;
    const [rows, perDay, labelRows, [before], [exact], [open], comments, answers, claims] = await inOneSnapshot([
      // The range's days and whole months (every ticket, or the label's).
      (tx) =>
        queryRows<RollupParts['rows'][number]>(
          tx,
          sql`select d.day::text as day, false as month, d.first_by::text as first_by, d.created, d.figures
              from report_days d where d.label = ${label}::uuid and ${inDays} ${keyFilter}
              union all
              select d.month::text, true, d.first_by::text, d.created, d.figures
              from report_months d where d.label = ${label}::uuid and ${clean(sql`d.month`)} ${keyFilter}`,
        ),
      // Each day's new and closed tickets and ratings given, for the charts.
      (tx) =>
        queryRows<RollupParts['perDay'][number]>(
          tx,
          sql`select d.day::text as day, sum(d.created)::int as created, sum(d.closed)::int as closed,
                sum(d.rated_good)::int as rated_good, sum(d.rated_all)::int as rated_all
              from report_days d
              where d.label = ${label}::uuid and d.day >= ${range.from}::date and d.day <= ${range.to}::date ${keyFilter}
              group by d.day`,
        ),
      // Without a label chosen, each label's figures for the By label table: what it shows only.
      (tx) =>
        range.label
          ? Promise.resolve([])
          : queryRows<RollupParts['labelRows'][number]>(
              tx,
              sql`select x.label::text as label, l.name, x.created, x.figures->'fr' as fr, x.figures->'res' as res,
                    x.figures->'cohort' as cohort, x.figures->'frMin' as "frMin", x.figures->'frHours' as "frHours"
                  from (
                    select d.label, d.created, d.figures from report_days d
                    where d.label <> ${NONE}::uuid and ${inDays} ${keyFilter}
                    union all
                    select d.label, d.created, d.figures from report_months d
                    where d.label <> ${NONE}::uuid and ${clean(sql`d.month`)} ${keyFilter}
                  ) x join labels l on l.id = x.label`,
            ),
      // Open as the range began: every ticket created before it, less those closed before it; by
      // months wholly before it where they are counted, else by days.
      (tx) =>
        queryRows<{ created: number; closed: number }>(
          tx,
          sql`select coalesce(sum(x.created), 0)::int as created, coalesce(sum(x.closed), 0)::int as closed from (
                select d.created, d.closed from report_days d
                where d.label = ${label}::uuid and d.day < ${range.from}::date and not ${earlier(dayMonth)} ${keyFilter}
                union all
                select d.created, d.closed from report_months d
                where d.label = ${label}::uuid and ${earlier(sql`d.month`)} ${keyFilter}
              ) x`,
        ),
      // Exact percentiles (PostgreSQL's percentile_cont over the tickets' facts) while the range has
      // at most EXACT_TICKETS tickets; beyond that, the days' histograms (sketch.ts).
      (tx) =>
        queryRows<{ small: boolean; totals: Record<string, number | null> | null; firsts: unknown; labels: unknown }>(
          tx,
          sql`
          with f as (select * from report_ticket_facts f where ${factsFilter}),
          small as (select coalesce(sum(d.created), 0) <= ${exactTickets} as ok from report_days d
            where d.label = ${label}::uuid and d.day >= ${range.from}::date and d.day <= ${range.to}::date ${keyFilter})
          select (select ok from small) as small,
            case when (select ok from small) then (select json_build_object(
              'fr_median_min', percentile_cont(0.5) within group (order by fr_min),
              'fr_p90_min', percentile_cont(0.9) within group (order by fr_min),
              'fr_median_hours', percentile_cont(0.5) within group (order by fr_hours),
              'fr_p90_hours', percentile_cont(0.9) within group (order by fr_hours),
              'res_median_min', percentile_cont(0.5) within group (order by res_min),
              'res_p90_min', percentile_cont(0.9) within group (order by res_min),
              'res_median_hours', percentile_cont(0.5) within group (order by res_hours),
              'res_p90_hours', percentile_cont(0.9) within group (order by res_hours)) from f) end as totals,
            case when (select ok from small) then (select coalesce(json_agg(x), '[]'::json) from (
              select first_by as key, percentile_cont(0.5) within group (order by fr_min) as median_min,
                percentile_cont(0.5) within group (order by fr_hours) as median_hours
              from f where first_by <> ${NONE}::uuid group by 1) x) end as firsts,
            case when (select ok from small) then (select coalesce(json_agg(x), '[]'::json) from (
              select l.id as label_id, l.name, count(*)::int as created, count(f.fr_min)::int as answered,
                percentile_cont(0.5) within group (order by f.fr_min) as median_min,
                percentile_cont(0.5) within group (order by f.fr_hours) as median_hours,
                (count(*) filter (where f.fr_late = false))::int as fr_met, count(f.closed_day)::int as closed,
                (count(*) filter (where f.good))::int as good, count(f.good)::int as rated
              from f cross join unnest(f.labels) u(label) join labels l on l.id = u.label group by 1, 2) x) end as labels`,
        ),
      // The range's open tickets, late or not as of now: still waiting for a first answer past its
      // target, or waited on us longer than the resolution target, by the instants their facts keep.
      (tx) =>
        queryRows<{ fr_late: number; res_late: number }>(
          tx,
          sql`select (count(*) filter (where f.fr_due <= ${now.toISOString()}::timestamptz))::int as fr_late,
                (count(*) filter (where f.res_due <= ${now.toISOString()}::timestamptz))::int as res_late
              from report_ticket_facts f
              where (f.fr_due is not null or f.res_due is not null) and ${factsFilter}`,
        ),
      (tx) =>
        queryRows<{ id: string; ticket_no: number; good: boolean; comment: string; rated_at: Date | string }>(
          tx,
          // The newest commented ratings by their own index (ticket_ratings_commented_idx), each
          // tested for the filters as it is read (a scalar subquery: an EXISTS would be planned as a
          // join with every ticket of a label), with ties at the last one kept, then ordered with
          // their ticket numbers. Joined first and sorted, a year of a label took 140–200 ms.
          sql`select t.id, t.ticket_no, r.good, r.comment, r.rated_at
              from (
                select r.ticket_id, r.good, r.comment, r.updated_at as rated_at from ticket_ratings r
                where ${ratedIn} and btrim(coalesce(r.comment, '')) <> ''
                order by r.updated_at desc fetch first ${REPORT_COMMENTS_LIMIT} rows with ties
              ) r join support_tickets t on t.id = r.ticket_id
              order by r.rated_at desc, t.ticket_no desc limit ${REPORT_COMMENTS_LIMIT}`,
        ),
      // Per admin: the tickets they answered on a day of the range, and those tickets' ratings.
      (tx) =>
        queryRows<RollupParts['answers'][number]>(
          tx,
          sql`select x.day, x.user_id::text as user_id, u.email, x.gaps
              from (
                select d.day::text as day, d.user_id, d.gaps from report_answer_days d
                where d.label = ${label}::uuid and ${inDays} ${keyFilter}
                union all
                select d.month::text, d.user_id, d.gaps from report_answer_months d
                where d.label = ${label}::uuid and ${clean(sql`d.month`)} ${keyFilter}
              ) x join users u on u.id = x.user_id`,
        ),
      // The incident claims made in the range.
      (tx) => claimFigures(tx, range),
    ] as const);
    const firstIds = [...new Set(rows.map((d) => d.first_by).filter((id) => id !== NONE))];
    const emails = new Map(
      (firstIds.length === 0
        ? []
        : await queryRows<{ id: string; email: string }>(
            db,
            sql`select id::text as id, email from users where id = any(${pgArray(firstIds)}::uuid[])`,
          )
      ).map((u) => [u.id, u.email] as const),
    );
    const [named] = range.label
      ? await queryRows<{ name: string }>(db, sql`select name from labels where id = ${range.label}::uuid`)
      : [];
    return summed(range, {
      labelName: named?.name ?? null,
      rows,
      perDay,
      labelRows,
      before: before!,
      exact: exact!,
      open: open!,
      comments,
      answers,
      claims,
      emails,
    });
  }

  /** Which tickets a figure is about, as a condition on its facts row `f` and its ticket `t`. */
  function figureSelection(range: Range, query: ReportTicketsQuery): { selection: SQL; filter: SQL } {
    const all = sql`true`;
    const claims = claimsSelection(range, query);
    if (claims) return { selection: claims, filter: all };
    const cohort = createdIn(range);
    switch (query.figure) {
      case 'created':
        return { selection: cohort, filter: all };
      case 'first-response':
        return { selection: cohort, filter: sql`f.fr_min is not null` };
      case 'first-response-met':
        return { selection: cohort, filter: sql`f.fr_min <= f.target_first` };
      case 'first-response-missed':
        return { selection: cohort, filter: sql`(f.fr_min > f.target_first or f.fr_waiting_min > f.target_first)` };
      case 'resolution':
        return { selection: cohort, filter: sql`f.closed_at is not null` };
      case 'resolution-met':
        return { selection: cohort, filter: sql`f.closed_at is not null and not f.res_late` };
      case 'resolution-missed':
        return { selection: cohort, filter: sql`f.res_late` };
      case 'spread': {
        const b = SPREAD_BUCKETS.find((bucket) => bucket.key === query.bucket)!;
        return {
          selection: cohort,
          filter: sql`f.fr_hours >= ${b.min} ${b.max === null ? sql`` : sql`and f.fr_hours < ${b.max}`}`,
        };
      }
      case 'hour':
        return {
          selection: sql`${cohort}
            and extract(isodow from t.creation_date at time zone ${ZONE}) = ${query.weekday!}
            and extract(hour from t.creation_date at time zone ${ZONE}) = ${query.hour!}`,
          filter: all,
        };
      case 'created-day':
        return {
          selection: sql`${cohort} and t.creation_date >= ${nzDayStart(query.day!)}
            and t.creation_date < ${nzDayStart(addDays(query.day!, 1))}`,
          filter: all,
        };
      case 'closed-day': {
        const closedAt = sql`coalesce(t.closed_at, t.last_message)`;
        return {
          selection: sql`not t.open and ${closedAt} >= greatest(${nzDayStart(query.day!)}, ${startOf(range)})
            and ${closedAt} < least(${nzDayStart(addDays(query.day!, 1))}, ${endOf(range)})`,
          filter: all,
        };
      }
      case 'backlog-day': {
        // Open at the end of the day: created before it ended, not closed by then. Days outside
        // the range have no bar, and so no list.
        const inRange = query.day! >= range.from && query.day! <= range.to;
        const end = nzDayStart(addDays(query.day!, 1));
        return {
          selection: inRange
            ? sql`t.creation_date < ${end} and (t.open or coalesce(t.closed_at, t.last_message) >= ${end})`
            : sql`false`,
          filter: all,
        };
      }
      case 'ratings':
      case 'rating-week': {
        const from =
          query.figure === 'rating-week' ? sql`greatest(${nzDayStart(query.day!)}, ${startOf(range)})` : startOf(range);
        const to =
          query.figure === 'rating-week'
            ? sql`least(${nzDayStart(addDays(query.day!, 7))}, ${endOf(range)})`
            : endOf(range);
        return {
          selection: sql`exists (select 1 from ticket_ratings r where r.ticket_id = t.id
            and r.updated_at >= ${from} and r.updated_at < ${to})`,
          filter: all,
        };
      }
      case 'admin-answered':
        return { selection: answeredIn(range, query.admin), filter: all };
      case 'admin-rated':
        return {
          selection: sql`${answeredIn(range, query.admin)} and exists (select 1 from ticket_ratings r where r.ticket_id = t.id)`,
          filter: all,
        };
      case 'admin-first':
        return { selection: cohort, filter: sql`f.first_answer_by = ${query.admin!}::uuid` };
      default:
        // The claims' figures, chosen above.
        return { selection: sql`false`, filter: all };
    }
  }

  /** The tickets of a selection with their times, assignee, rating and outcome, oldest first. */
  async function ticketRows(selection: SQL, filter: SQL, now: Date, limit: number | null): Promise<FactRow[]> {
    return readOnly((tx) =>
      queryRows<FactRow>(
        tx,
        sql`
      select f.id, f.ticket_no, f.reason, f.creation_date, f.first_answer_at, f.fr_min, f.fr_hours, f.closed_at,
        f.res_min, f.res_hours, f.outcome, u.email as assignee, r.good, r.comment,
        array(select l.name from ticket_labels tl join labels l on l.id = tl.label_id
              where tl.ticket_id = f.id order by lower(l.name)) as labels
      from (${facts(selection, now, { outcome: true })}) f
      left join users u on u.id = f.assigned_to
      left join ticket_ratings r on r.ticket_id = f.id
      where ${filter}
      order by f.creation_date, f.ticket_no
      ${limit === null ? sql`` : sql`limit ${limit}`}`,
      ),
    );
  }

  return {
    report,
    rollups,

    /** A figure's tickets (one more than `limit`, so the caller knows there were more). */
    figureTickets(range: Range, query: ReportTicketsQuery, now: Date, limit: number): Promise<FactRow[]> {
      const { selection, filter } = figureSelection(range, query);
      return ticketRows(sql`(${selection}) and ${labelled(range)}`, filter, now, limit + 1);
    },

    /** Every ticket created in the range, for the CSV. */
    createdTickets(range: Range, now: Date): Promise<FactRow[]> {
      return ticketRows(createdIn(range), sql`true`, now, null);
    },

    /** Every claim made in the range, for the claims' CSV. */
    claimRows(range: Range) {
      return readOnly((tx) => claimRows(tx, range));
    },

    async labelName(labelId: string): Promise<string | null> {
      const [row] = await queryRows<{ name: string }>(db, sql`select name from labels where id = ${labelId}::uuid`);
      return row?.name ?? null;
    },

    async adminEmail(userId: string): Promise<string | null> {
      const [row] = await queryRows<{ email: string }>(db, sql`select email from users where id = ${userId}::uuid`);
      return row?.email ?? null;
    },
  };
}

export type ReportsRepository = ReturnType<typeof createReportsRepository>;
