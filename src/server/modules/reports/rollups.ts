import { type SQL, sql } from 'drizzle-orm';
import { SPREAD_BUCKETS } from '../../../contracts/reports.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { pgArray, queryRows } from '../../db/sql.ts';
import { addValue, type Histogram, mergeInto } from './sketch.ts';

/**
 * The reports' rollups (docs/decisions/154-report-rollups.md, migration 0035): each ticket's
 * settled facts, each New Zealand day's counts and histograms, and each admin's answer days, kept
 * from the queue that the writes fill in their own transactions. `catchUp` empties the queue:
 * the worker runs it in the background, and a report runs it before it reads, so a report always
 * counts every write committed before it.
 */

/** "None" in a key: no label (every ticket), unassigned, no first answer. */
export const NONE = '00000000-0000-0000-0000-000000000000';
const ZONE = sql.raw(`'Pacific/Auckland'`);
/** Queue rows one transaction reads: it counts their tickets again (at most this many), taking all their rows. */
const TICKETS_PER_ROUND = 2_000;
/** Days one transaction counts again. */
const DAYS_PER_ROUND = 31;
/** Months one transaction counts again from their days. */
const MONTHS_PER_ROUND = 2;
/** The rollups' own advisory lock (PostgreSQL): one process counts at a time. */
const LOCK_KEY = 7_313_054;

/** What a day row holds besides `created` and `closed` (report_days.figures). */
export interface DayFigures {
  /** New tickets per hour of the day (0–23, New Zealand time). */
  hours: number[];
  /** First answers: counted, within target, late. */
  fr: [number, number, number];
  /** Closed tickets of the cohort: counted, within target, late. */
  res: [number, number, number];
  /** First answers per SPREAD_BUCKETS part, in clock hours. */
  spread: number[];
  /** The cohort's ratings: Good, all. */
  cohort: [number, number];
  /** Ratings given (or changed) this day: Good, all. */
  rated: [number, number];
  /** Histograms: first response in business minutes and clock hours, resolution likewise. */
  frMin: Histogram;
  frHours: Histogram;
  resMin: Histogram;
  resHours: Histogram;
}

export interface DayRow {
  label: string;
  day: string;
  reason: string;
  assignee: string;
  first_by: string;
  created: number;
  closed: number;
  figures: DayFigures;
}

/**
 * What a month row holds besides `created` and `closed` (report_months.figures): its days' figures
 * added up, the new tickets per weekday and hour (`weekHours[(weekday − 1) × 24 + hour]`, ISO
 * weekdays) in place of per hour, and no ratings given (a report reads those per day).
 */
export type MonthFigures = Omit<DayFigures, 'hours' | 'rated'> & { weekHours: number[] };

export interface MonthRow {
  label: string;
  month: string;
  reason: string;
  assignee: string;
  first_by: string;
  created: number;
  closed: number;
  figures: MonthFigures;
}

/** ISO weekday (1 = Monday … 7 = Sunday) of a 'YYYY-MM-DD' day. */
export const isoWeekday = (day: string) => ((new Date(`${day}T12:00:00Z`).getUTCDay() + 6) % 7) + 1;

const emptyFigures = (): DayFigures => ({
  hours: Array.from({ length: 24 }, () => 0),
  fr: [0, 0, 0],
  res: [0, 0, 0],
  spread: SPREAD_BUCKETS.map(() => 0),
  cohort: [0, 0],
  rated: [0, 0],
  frMin: {},
  frHours: {},
  resMin: {},
  resHours: {},
});

/** The month rows of the days' rows `days` (every day of those months), added up. */
export function monthRowsOf(days: Array<Omit<DayRow, 'figures'> & { figures: DayFigures | string }>): MonthRow[] {
  const rows = new Map<string, MonthRow>();
  for (const d of days) {
    const month = `${d.day.slice(0, 7)}-01`;
    const key = `${d.label}|${month}|${d.reason}|${d.assignee}|${d.first_by}`;
    let found = rows.get(key);
    if (!found) {
      const { hours: _hours, rated: _rated, ...empty } = emptyFigures();
      found = {
        label: d.label,
        month,
        reason: d.reason,
        assignee: d.assignee,
        first_by: d.first_by,
        created: 0,
        closed: 0,
        figures: { ...empty, weekHours: Array.from({ length: 7 * 24 }, () => 0) },
      };
      rows.set(key, found);
    }
    const g = typeof d.figures === 'string' ? (JSON.parse(d.figures) as DayFigures) : d.figures;
    const m = found.figures;
    found.created += d.created;
    found.closed += d.closed;
    const offset = (isoWeekday(d.day) - 1) * 24;
    g.hours.forEach((count, hour) => (m.weekHours[offset + hour]! += count));
    for (let i = 0; i < 3; i++) {
      m.fr[i]! += g.fr[i]!;
      m.res[i]! += g.res[i]!;
    }
    g.spread.forEach((count, i) => (m.spread[i]! += count));
    m.cohort[0] += g.cohort[0];
    m.cohort[1] += g.cohort[1];
    mergeInto(m.frMin, g.frMin);
    mergeInto(m.frHours, g.frHours);
    mergeInto(m.resMin, g.resMin);
    mergeInto(m.resHours, g.resHours);
  }
  return [...rows.values()];
}

interface FactRow {
  created_day: string;
  hour: number;
  reason: string;
  assignee: string;
  first_by: string;
  labels: string[] | string;
  fr_min: number | null;
  fr_hours: number | null;
  fr_late: boolean | null;
  closed_day: string | null;
  res_min: number | null;
  res_hours: number | null;
  res_late: boolean | null;
  rated_day: string | null;
  good: boolean | null;
}

/** A uuid[] or date[] as the driver hands it: an array, or PostgreSQL's text form. */
const uuids = (value: string[] | string): string[] =>
  Array.isArray(value)
    ? value
    : value
        .replace(/^\{|\}$/g, '')
        .split(',')
        .filter(Boolean);

/** The day rows of the days `days`, counted from the facts of the tickets created, closed or rated on them. */
export function dayRowsOf(facts: FactRow[], days: ReadonlySet<string>): DayRow[] {
  const rows = new Map<string, DayRow>();
  const row = (label: string, day: string, f: FactRow) => {
    const key = `${label}|${day}|${f.reason}|${f.assignee}|${f.first_by}`;
    let found = rows.get(key);
    if (!found) {
      found = {
        label,
        day,
        reason: f.reason,
        assignee: f.assignee,
        first_by: f.first_by,
        created: 0,
        closed: 0,
        figures: emptyFigures(),
      };
      rows.set(key, found);
    }
    return found;
  };
  for (const f of facts) {
    for (const label of [NONE, ...uuids(f.labels)]) {
      if (days.has(f.created_day)) {
        const r = row(label, f.created_day, f);
        const g = r.figures;
        r.created++;
        g.hours[f.hour]!++;
        if (f.fr_min !== null && f.fr_hours !== null) {
          const frMin = Number(f.fr_min);
          const frHours = Number(f.fr_hours);
          g.fr[0]++;
          if (f.fr_late === false) g.fr[1]++;
          if (f.fr_late === true) g.fr[2]++;
          addValue(g.frMin, frMin);
          addValue(g.frHours, frHours);
          const part = SPREAD_BUCKETS.findIndex((b) => frHours >= b.min && (b.max === null || frHours < b.max));
          if (part >= 0) g.spread[part]!++;
        }
        if (f.closed_day !== null && f.res_min !== null && f.res_hours !== null) {
          g.res[0]++;
          if (f.res_late) g.res[2]++;
          else g.res[1]++;
          addValue(g.resMin, Number(f.res_min));
          addValue(g.resHours, Number(f.res_hours));
        }
        if (f.good !== null) {
          g.cohort[1]++;
          if (f.good) g.cohort[0]++;
        }
      }
      if (f.closed_day !== null && days.has(f.closed_day)) row(label, f.closed_day, f).closed++;
      if (f.rated_day !== null && days.has(f.rated_day) && f.good !== null) {
        const g = row(label, f.rated_day, f).figures;
        g.rated[1]++;
        if (f.good) g.rated[0]++;
      }
    }
  }
  return [...rows.values()];
}

interface AnswerRow {
  user_id: string;
  days: string[] | string;
  reason: string;
  assignee: string;
  labels: string[] | string;
  good: boolean | null;
}

/** The gap of an admin's first answer on a ticket: never answered before. */
export const FIRST_ANSWER_GAP = 100_000;

/** Days from one 'YYYY-MM-DD' date to another. */
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

export interface AnswerDayRow {
  label: string;
  day: string;
  reason: string;
  assignee: string;
  user_id: string;
  /** Days since the admin's previous answer day on the ticket → [tickets, Good, rated]. */
  gaps: Record<string, [number, number, number]>;
}

/** The answer-day rows of the days `days`, from each admin's sorted answer days per ticket. */
export function answerDayRowsOf(answers: AnswerRow[], days: ReadonlySet<string>): AnswerDayRow[] {
  const rows = new Map<string, AnswerDayRow>();
  for (const a of answers) {
    const answered = uuids(a.days);
    answered.forEach((day, i) => {
      if (!days.has(day)) return;
      const gap = String(i === 0 ? FIRST_ANSWER_GAP : daysBetween(answered[i - 1]!, day));
      for (const label of [NONE, ...uuids(a.labels)]) {
        const key = `${label}|${day}|${a.reason}|${a.assignee}|${a.user_id}`;
        let row = rows.get(key);
        if (!row) {
          row = { label, day, reason: a.reason, assignee: a.assignee, user_id: a.user_id, gaps: {} };
          rows.set(key, row);
        }
        const counts = (row.gaps[gap] ??= [0, 0, 0]);
        counts[0]++;
        if (a.good === true) counts[1]++;
        if (a.good !== null) counts[2]++;
      }
    });
  }
  return [...rows.values()];
}

/**
 * The answer-month rows of answer-day rows (every day of those months): a month row reads as a
 * day row on the month's first day, its gaps counted back from that day. Only answers whose
 * previous answer day on the ticket lies before the month are kept, those a range holding the
 * whole month can count (its first answer day in the range is then in this month); a gap
 * reaching back g days from day D reaches back g − (D − first day) from the first day.
 */
export function answerMonthRowsOf(days: AnswerDayRow[]): AnswerDayRow[] {
  const rows = new Map<string, AnswerDayRow>();
  for (const d of days) {
    const month = `${d.day.slice(0, 7)}-01`;
    const into = daysBetween(month, d.day);
    const gaps = typeof d.gaps === 'string' ? (JSON.parse(d.gaps) as AnswerDayRow['gaps']) : d.gaps;
    for (const gap in gaps) {
      const g = Number(gap);
      if (g !== FIRST_ANSWER_GAP && g <= into) continue;
      const key = `${d.label}|${month}|${d.reason}|${d.assignee}|${d.user_id}`;
      let row = rows.get(key);
      if (!row) {
        row = { label: d.label, day: month, reason: d.reason, assignee: d.assignee, user_id: d.user_id, gaps: {} };
        rows.set(key, row);
      }
      const counts = (row.gaps[String(g === FIRST_ANSWER_GAP ? g : g - into)] ??= [0, 0, 0]);
      for (let i = 0; i < 3; i++) counts[i]! += gaps[gap]![i]!;
    }
  }
  return [...rows.values()];
}

/** Rows written 1,000 to a statement, each batch handed to `insert` as JSON (json_to_recordset). */
async function insertInBatches(tx: AppDatabase, rows: unknown[], insert: (batch: string) => SQL): Promise<void> {
  for (let i = 0; i < rows.length; i += 1_000) await tx.execute(insert(JSON.stringify(rows.slice(i, i + 1_000))));
}

export interface CatchUpResult {
  tickets: number;
  days: number;
  months: number;
}

/**
 * The rollups' writer. `facts(ids, now)` is the reports' per-ticket figures (reports.repository's
 * `facts`) for the tickets `ids`.
 */
export function createRollups(
  db: AppDatabase,
  kind: 'pglite' | 'postgres',
  factsOf: (ticketIds: string[], now: Date) => ReturnType<typeof sql>,
) {
  /** Counts one batch of the queue again: true when it found work. */
  async function round(now: Date, wait: boolean, months: boolean, counted: CatchUpResult): Promise<boolean> {
    return inTransaction(db, async (tx) => {
      if (kind === 'postgres') {
        if (wait) await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_KEY})`);
        else {
          const [got] = await queryRows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${LOCK_KEY}) as ok`);
          if (!got?.ok) return false;
        }
      }
      // A calendar or target change: every ticket again.
      const [state] = await queryRows<{ rebuild: boolean }>(
        tx,
        sql`update report_state set rebuild = false where id = 1 and rebuild returning true as rebuild`,
      );
      if (state?.rebuild) {
        await tx.execute(sql`insert into report_dirty (ticket_id) select id from support_tickets`);
        await tx.execute(sql`insert into report_dirty (ticket_id) select ticket_id from report_ticket_facts`);
      }
      // The oldest queued tickets, then every queued row of theirs: two statements, so the planner
      // never joins the queue with itself (with its statistics stale after a bulk queue, it
      // scanned the whole queue once per ticket).
      const oldest = await queryRows<{ ticket_id: string }>(
        tx,
        sql`select ticket_id::text as ticket_id from report_dirty order by id limit ${TICKETS_PER_ROUND}`,
      );
      if (oldest.length > 0) {
        const ids = pgArray([...new Set(oldest.map((t) => t.ticket_id))]);
        await tx.execute(sql`delete from report_dirty where ticket_id = any(${ids}::uuid[])`);
        await countTickets(tx, ids, now);
        counted.tickets += ids.split(',').length;
        return true;
      }
      const days = await queryRows<{ day: string }>(
        tx,
        sql`delete from report_dirty_days where day in (select day from report_dirty_days order by day limit ${DAYS_PER_ROUND})
            returning day::text as day`,
      );
      if (days.length > 0) {
        await countDays(
          tx,
          days.map((d) => d.day),
        );
        counted.days += days.length;
        return true;
      }
      if (!months) return false;
      const queuedMonths = await queryRows<{ month: string }>(
        tx,
        sql`delete from report_dirty_months
            where month in (select month from report_dirty_months order by month limit ${MONTHS_PER_ROUND})
            returning month::text as month`,
      );
      if (queuedMonths.length === 0) return false;
      await countMonths(
        tx,
        queuedMonths.map((m) => m.month),
      );
      counted.months += queuedMonths.length;
      return true;
    });
  }

  /** The tickets' facts and answer days again, and the days they were and are on marked to count again. */
  async function countTickets(tx: AppDatabase, ids: string, now: Date) {
    const dayList = sql`select d from report_ticket_facts f
      cross join lateral (values (f.created_day), (f.closed_day), (f.rated_day)) v(d)
      where f.ticket_id = any(${ids}::uuid[]) and d is not null
      union select unnest(a.days) from report_answers a where a.ticket_id = any(${ids}::uuid[])`;
    await tx.execute(sql`insert into report_dirty_days (day) ${dayList} on conflict do nothing`);
    await tx.execute(sql`delete from report_ticket_facts where ticket_id = any(${ids}::uuid[])`);
    const ticketIds = ids.slice(1, -1).split(',');
    await tx.execute(sql`
      insert into report_ticket_facts (ticket_id, created_day, hour, reason, assignee, first_by, labels,
        fr_min, fr_hours, fr_late, closed_day, res_min, res_hours, res_late, rated_day, good, fr_due, res_due)
      select f.id, (f.creation_date at time zone ${ZONE})::date, extract(hour from f.creation_date at time zone ${ZONE})::int,
        f.reason, coalesce(f.assigned_to, ${NONE}::uuid),
        case when f.first_answer_at is null then ${NONE}::uuid else coalesce(f.first_answer_by, ${NONE}::uuid) end,
        array(select tl.label_id from ticket_labels tl where tl.ticket_id = f.id order by tl.label_id),
        f.fr_min, f.fr_hours, case when f.fr_min is not null then f.fr_min > f.target_first end,
        (f.closed_at at time zone ${ZONE})::date,
        case when f.closed_at is not null then f.res_min end, case when f.closed_at is not null then f.res_hours end,
        case when f.closed_at is not null then f.res_late end,
        (r.updated_at at time zone ${ZONE})::date, r.good,
        -- Late once the business minutes since creation pass the target (just after it: 0.001 min),
        -- as the report's lists count an open ticket's first wait.
        case when f.open and f.first_open and f.target_first is not null
          then bh_add(f.creation_date, f.target_first + 0.001) end,
        -- Late once the waits' business minutes pass the target: already, or when the open wait has
        -- gone on for what is left of it.
        case when f.open and f.target_resolution is not null then
          case when w.waited > f.target_resolution then '-infinity'::timestamptz
            when w.open_since is not null then bh_add(w.open_since, f.target_resolution - w.waited + 0.001) end
        end
      from (${factsOf(ticketIds, now)}) f
      left join ticket_ratings r on r.ticket_id = f.id
      left join lateral (
        select coalesce(sum(bh_between(w.started_at, w.ended_at)) filter (where w.ended_at is not null), 0) as waited,
          max(w.started_at) filter (where w.ended_at is null) as open_since
        from ticket_waits w where w.ticket_id = f.id
      ) w on f.open`);
    await tx.execute(sql`delete from report_answers where ticket_id = any(${ids}::uuid[])`);
    await tx.execute(sql`
      insert into report_answers (ticket_id, user_id, days)
      select m.ticket_id, m.user_id, array_agg(distinct x.d order by x.d)
      from ticket_messages m cross join lateral (select (m.timestamp at time zone ${ZONE})::date as d) x
      where m.ticket_id = any(${ids}::uuid[]) and m.admin and not m.internal and m.system_event is null
        and m.user_id is not null
      group by 1, 2`);
    await tx.execute(sql`insert into report_dirty_days (day) ${dayList} on conflict do nothing`);
  }

  /** The days' rows again, from the facts of the tickets created, closed or rated on them. */
  async function countDays(tx: AppDatabase, days: string[]) {
    const list = pgArray(days);
    const facts = await queryRows<FactRow>(
      tx,
      sql`select created_day::text as created_day, hour, reason, assignee::text as assignee, first_by::text as first_by,
            labels, fr_min, fr_hours, fr_late, closed_day::text as closed_day, res_min, res_hours, res_late,
            rated_day::text as rated_day, good
          from report_ticket_facts
          where created_day = any(${list}::date[]) or closed_day = any(${list}::date[]) or rated_day = any(${list}::date[])`,
    );
    await tx.execute(sql`delete from report_days where day = any(${list}::date[])`);
    const dayset = new Set(days);
    const rows = dayRowsOf(facts, dayset);
    await insertInBatches(
      tx,
      rows,
      (batch) => sql`
        insert into report_days (label, day, reason, assignee, first_by, created, closed, figures, rated_good, rated_all)
        select label, day, reason, assignee, first_by, created, closed, figures,
          (figures->'rated'->>0)::int, (figures->'rated'->>1)::int
        from json_to_recordset(${batch}::json)
          as x(label uuid, day date, reason text, assignee uuid, first_by uuid, created int, closed int, figures jsonb)`,
    );
    // Their months are counted again from their days, later (countMonths); until then a report
    // reads those months' days.
    await tx.execute(sql`insert into report_dirty_months (month)
      select distinct date_trunc('month', d)::date from unnest(${list}::date[]) d on conflict do nothing`);
    const answers = await queryRows<AnswerRow>(
      tx,
      sql`select a.user_id::text as user_id, a.days::text[] as days, f.reason, f.assignee::text as assignee,
            f.labels, f.good
          from report_answers a join report_ticket_facts f on f.ticket_id = a.ticket_id
          where a.days && ${list}::date[]`,
    );
    await tx.execute(sql`delete from report_answer_days where day = any(${list}::date[])`);
    const answerRows = answerDayRowsOf(answers, dayset);
    await insertInBatches(
      tx,
      answerRows,
      (batch) => sql`
        insert into report_answer_days (label, day, reason, assignee, user_id, gaps)
        select label, day, reason, assignee, user_id, gaps
        from json_to_recordset(${batch}::json)
          as x(label uuid, day date, reason text, assignee uuid, user_id uuid, gaps jsonb)`,
    );
  }

  /** The months' rows and answer-month rows again, from all their days' rows. */
  async function countMonths(tx: AppDatabase, months: string[]) {
    const list = pgArray(months);
    const days = await queryRows<Omit<DayRow, 'figures'> & { figures: DayFigures | string }>(
      tx,
      sql`select label::text as label, day::text as day, reason, assignee::text as assignee, first_by::text as first_by,
            created, closed, figures
          from report_days where date_trunc('month', day)::date = any(${list}::date[])`,
    );
    await tx.execute(sql`delete from report_months where month = any(${list}::date[])`);
    const rows = monthRowsOf(days);
    await insertInBatches(
      tx,
      rows,
      (batch) => sql`
        insert into report_months (label, month, reason, assignee, first_by, created, closed, figures)
        select label, month, reason, assignee, first_by, created, closed, figures
        from json_to_recordset(${batch}::json)
          as x(label uuid, month date, reason text, assignee uuid, first_by uuid, created int, closed int, figures jsonb)`,
    );
    const answerDays = await queryRows<AnswerDayRow>(
      tx,
      sql`select label::text as label, day::text as day, reason, assignee::text as assignee, user_id::text as user_id, gaps
          from report_answer_days where date_trunc('month', day)::date = any(${list}::date[])`,
    );
    await tx.execute(sql`delete from report_answer_months where month = any(${list}::date[])`);
    const answerRows = answerMonthRowsOf(answerDays);
    await insertInBatches(
      tx,
      answerRows,
      (batch) => sql`
        insert into report_answer_months (label, month, reason, assignee, user_id, gaps)
        select label, day, reason, assignee, user_id, gaps
        from json_to_recordset(${batch}::json)
          as x(label uuid, day date, reason text, assignee uuid, user_id uuid, gaps jsonb)`,
    );
  }

  return {
    /**
     * Counts everything queued. `wait`: on PostgreSQL, waits for another process's round to end
     * (a report must count what that round took); else leaves the work to it. `months`: the months
     * too (the worker; a report reads a queued month's days, so it need not wait for them).
     */
    async catchUp(
      now: Date,
      options: { wait: boolean; months?: boolean; stopped?: () => boolean },
    ): Promise<CatchUpResult> {
      const counted: CatchUpResult = { tickets: 0, days: 0, months: 0 };
      const months = options.months ?? false;
      // Nothing queued (the usual case): one look, no transaction. A batch another process has
      // taken but not yet committed is still seen here, so a report then waits for it below.
      // By the keys' indexes: a queue just emptied holds dead rows until vacuumed, and a plain
      // scan read them all (400 ms after a backfill of 100,000 tickets).
      const [queued] = await queryRows<{ any: boolean }>(
        db,
        sql`select exists (select 1 from report_dirty order by id limit 1)
              or exists (select 1 from report_dirty_days order by day limit 1)
              or exists (select 1 from report_state where rebuild)
              or (${months} and exists (select 1 from report_dirty_months order by month limit 1)) as any`,
      );
      if (!queued?.any) return counted;
      while (!options.stopped?.() && (await round(now, options.wait, months, counted)));
      return counted;
    },
  };
}
