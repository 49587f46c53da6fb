import { sql } from 'drizzle-orm';
import { CLAIM_PERIOD_NAMES, CLAIM_PERIODS } from '../../../contracts/claims.ts';
import type { ClaimPeriods } from '../../../contracts/claims.schemas.ts';
import { DEFAULT_CALENDAR, DEFAULT_TARGETS } from '../../../contracts/service-levels.ts';
import {
  type CalendarSettings,
  CalendarSettingsSchema,
  type Targets,
} from '../../../contracts/service-levels.schemas.ts';
import { TICKET_REASON_VALUES } from '../../../contracts/support.ts';
import { addDays, BusinessCalendar, newZealandDate } from '../../calendar/business-calendar.ts';
import { type AppDatabase, inTransaction } from '../../db/connection.ts';
import { queryRows } from '../../db/sql.ts';

/** The settings row the database's `claim_period(name)` reads (0034_claim_life.sql). */
const CLAIM_PERIODS_KEY = 'claims/periods';

/** The intervals reach this far back (or to the first ticket, if older) and this far ahead. */
const INTERVALS_FROM = '2020-01-01';
const YEARS_AHEAD = 3;
/** Made again at start-up once fewer than this many years are left ahead. */
const YEARS_AHEAD_MIN = 2;

interface RawTargets {
  reason: string;
  first_response: number;
  next_response: number;
  resolution: number;
}

/**
 * The business calendar and the targets, and what follows from them in the database: the open
 * intervals (`business_intervals`, which `bh_cum` and `bh_add` read) and the due times of every
 * wait still open. A change writes all three in one transaction, so no reader sees a calendar and
 * due times that disagree (docs/decisions/108-service-levels.md).
 */
export function createServiceLevelsRepository(db: AppDatabase) {
  async function readCalendar(tx: AppDatabase): Promise<CalendarSettings> {
    const [row] = await queryRows<{ settings: unknown }>(tx, sql`select settings from business_calendar where id = 1`);
    const parsed = row ? CalendarSettingsSchema.safeParse(row.settings) : null;
    return parsed?.success ? parsed.data : DEFAULT_CALENDAR;
  }

  async function readTargets(tx: AppDatabase): Promise<Targets> {
    const rows = await queryRows<RawTargets>(
      tx,
      sql`select reason, first_response, next_response, resolution from service_targets`,
    );
    const targets = structuredClone(DEFAULT_TARGETS);
    for (const row of rows) {
      if (!(TICKET_REASON_VALUES as readonly string[]).includes(row.reason)) continue;
      targets[row.reason as keyof Targets] = {
        firstResponse: Number(row.first_response),
        nextResponse: Number(row.next_response),
        resolution: Number(row.resolution),
      };
    }
    return targets;
  }

  /** Each period as `claim_period(name)` reads it: the setting's whole number, else the default. */
  async function readClaimPeriods(tx: AppDatabase): Promise<ClaimPeriods> {
    const [row] = await queryRows<{ value: Record<string, unknown> | null }>(
      tx,
      sql`select value from settings where key = ${CLAIM_PERIODS_KEY}`,
    );
    const periods: ClaimPeriods = { ...CLAIM_PERIODS };
    for (const name of CLAIM_PERIOD_NAMES) {
      const days = row?.value?.[name];
      if (typeof days === 'number' && Number.isInteger(days)) periods[name] = days;
    }
    return periods;
  }

  /** Writes the calendar's open hours as intervals, from before the first ticket to years ahead. */
  async function rebuildIntervals(tx: AppDatabase, settings: CalendarSettings, now: Date): Promise<number> {
    const [first] = await queryRows<{ first: string | null }>(
      tx,
      sql`select min(creation_date)::text as first from support_tickets`,
    );
    const firstTicket = first?.first ? newZealandDate(new Date(first.first)) : INTERVALS_FROM;
    const from = addDays(firstTicket < INTERVALS_FROM ? firstTicket : INTERVALS_FROM, -1);
    const to = addDays(newZealandDate(now), 366 * YEARS_AHEAD);
    const intervals = new BusinessCalendar(settings).intervalsBetween(from, to);
    let cumulative = 0;
    const rows = intervals.map((interval) => {
      const minutes = (interval.ends.getTime() - interval.starts.getTime()) / 60_000;
      const row = {
        starts: interval.starts.toISOString(),
        ends: interval.ends.toISOString(),
        minutes,
        cum: cumulative,
      };
      cumulative += minutes;
      return row;
    });
    await tx.execute(sql`delete from business_intervals`);
    // In batches: one JSON parameter each, read by the database as rows.
    for (let i = 0; i < rows.length; i += 2_000) {
      await tx.execute(sql`
        insert into business_intervals (starts, ends, minutes, cum_before)
        select starts, ends, minutes, cum from json_to_recordset(${JSON.stringify(rows.slice(i, i + 2_000))}::json)
          as x(starts timestamptz, ends timestamptz, minutes double precision, cum double precision)`);
    }
    return rows.length;
  }

  /** Every open wait's due times again, from the intervals and targets as they now are. */
  async function recomputeOpenWaits(tx: AppDatabase): Promise<void> {
    await tx.execute(sql`
      update ticket_waits w set response_due = d.response_due, resolution_due = d.resolution_due
      from ticket_waits o cross join lateral wait_dues(o.ticket_id, o.phase, o.started_at) d
      where o.id = w.id and o.ended_at is null`);
  }

  /** Takes the calendar row's lock (made first if missing): changes and start-ups queue here. */
  async function lockCalendar(tx: AppDatabase): Promise<void> {
    await tx.execute(sql`
      insert into business_calendar (id, settings) values (1, ${JSON.stringify(DEFAULT_CALENDAR)}::jsonb)
      on conflict (id) do nothing`);
    await tx.execute(sql`select 1 from business_calendar where id = 1 for update`);
  }

  return {
    async read(): Promise<{ calendar: CalendarSettings; targets: Targets }> {
      const [calendar, targets] = await Promise.all([readCalendar(db), readTargets(db)]);
      return { calendar, targets };
    },

    /**
     * At start-up: makes the intervals when there are none (a new database, or one from before
     * service levels), or when fewer than two years are left ahead, and then the open waits' due
     * times. Instances starting together queue on the calendar's row; the second finds it done.
     */
    async ensureIntervals(now: Date): Promise<{ rebuilt: boolean; intervals: number }> {
      return inTransaction(db, async (tx) => {
        await lockCalendar(tx);
        const [row] = await queryRows<{ until: string | null }>(
          tx,
          sql`select max(ends)::text as until from business_intervals`,
        );
        const needed = addDays(newZealandDate(now), 365 * YEARS_AHEAD_MIN);
        if (row?.until && newZealandDate(new Date(row.until)) >= needed) return { rebuilt: false, intervals: 0 };
        const intervals = await rebuildIntervals(tx, await readCalendar(tx), now);
        await recomputeOpenWaits(tx);
        return { rebuilt: true, intervals };
      });
    },

    async saveCalendar(settings: CalendarSettings, actorId: string, now: Date): Promise<CalendarSettings> {
      return inTransaction(db, async (tx) => {
        await lockCalendar(tx);
        const before = await readCalendar(tx);
        await tx.execute(sql`
          update business_calendar set settings = ${JSON.stringify(settings)}::jsonb, updated_at = now(),
            updated_by = ${actorId}::uuid
          where id = 1`);
        await rebuildIntervals(tx, settings, now);
        await recomputeOpenWaits(tx);
        return before;
      });
    },

    claimPeriods: () => readClaimPeriods(db),

    /** All five periods in one row (a key left out would fall back to its default unseen); the periods before. */
    async saveClaimPeriods(periods: ClaimPeriods): Promise<ClaimPeriods> {
      const value = JSON.stringify(Object.fromEntries(CLAIM_PERIOD_NAMES.map((name) => [name, periods[name]])));
      return inTransaction(db, async (tx) => {
        // Two saves at once: the second reads the first's as its before.
        await tx.execute(sql`select 1 from settings where key = ${CLAIM_PERIODS_KEY} for update`);
        const before = await readClaimPeriods(tx);
        await tx.execute(sql`
          insert into settings (key, value) values (${CLAIM_PERIODS_KEY}, ${value}::jsonb)
          on conflict (key) do update set value = excluded.value, updated_at = now()`);
        return before;
      });
    },

    async saveTargets(targets: Targets): Promise<Targets> {
      return inTransaction(db, async (tx) => {
        await lockCalendar(tx);
        const before = await readTargets(tx);
        for (const reason of TICKET_REASON_VALUES) {
          const t = targets[reason];
          await tx.execute(sql`
            insert into service_targets (reason, first_response, next_response, resolution)
            values (${reason}, ${t.firstResponse}, ${t.nextResponse}, ${t.resolution})
            on conflict (reason) do update set first_response = excluded.first_response,
              next_response = excluded.next_response, resolution = excluded.resolution, updated_at = now()`);
        }
        await recomputeOpenWaits(tx);
        return before;
      });
    },
  };
}

export type ServiceLevelsRepository = ReturnType<typeof createServiceLevelsRepository>;
