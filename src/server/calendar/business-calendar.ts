import { createRequire } from 'node:module';
import { TZDate } from '@date-fns/tz';
import type HolidaysClass from 'date-holidays';
import { minutesOfTime, WEEKDAY_BY_INDEX } from '../../contracts/service-levels.ts';
import type { CalendarSettings, Span } from '../../contracts/service-levels.schemas.ts';

/**
 * The team's business calendar (docs/decisions/108-service-levels.md), in New Zealand time
 * whatever the server's zone: opening spans per weekday, New Zealand's national public holidays
 * (with the Mondayised days and Matariki, from `date-holidays`), one chosen regional anniversary
 * day, and dated exceptions (a closed day, extra hours). The privacy clock reads its national
 * holidays from here too (modules/privacy/privacy-clock.ts), so there is one list of holidays.
 *
 * Dates are New Zealand calendar dates as 'YYYY-MM-DD'; instants are Dates. A span's wall times
 * become instants with the day's own UTC offset, so the nights the clocks change (the first Sunday
 * of April, the last Sunday of September) count their real length.
 */
export const ZONE = 'Pacific/Auckland';

// Loaded when a date is first asked for (its CommonJS build keeps this synchronous): its holiday
// data is about 0.2 s of CPU that most starts and every command-line run never need.
const requireCjs = createRequire(import.meta.url);
let nationalSource: HolidaysClass | undefined;
const regionalSources = new Map<string, HolidaysClass>();
const Holidays = () => requireCjs('date-holidays') as typeof HolidaysClass;

const nationalCache = new Map<number, Map<string, string>>();
/** New Zealand's national public holidays of a year: date → name (the substitute Mondays included). */
export function nationalHolidays(year: number): Map<string, string> {
  let days = nationalCache.get(year);
  if (!days) {
    nationalSource ??= new (Holidays())('NZ');
    days = new Map(
      nationalSource
        .getHolidays(year)
        .filter((holiday) => holiday.type === 'public')
        .map((holiday) => [holiday.date.slice(0, 10), holiday.name]),
    );
    nationalCache.set(year, days);
  }
  return days;
}

const anniversaryCache = new Map<string, { date: string; name: string } | null>();
/** A region's anniversary day in a year (Canterbury keeps Christchurch Show Day), or null. */
export function anniversaryDay(region: string, year: number): { date: string; name: string } | null {
  const key = `${region}:${year}`;
  if (anniversaryCache.has(key)) return anniversaryCache.get(key)!;
  let source = regionalSources.get(region);
  if (!source) {
    source = new (Holidays())('NZ', region);
    regionalSources.set(region, source);
  }
  const national = nationalHolidays(year);
  const found = source
    .getHolidays(year)
    .find((holiday) => holiday.type === 'public' && !national.has(holiday.date.slice(0, 10)));
  const day = found ? { date: found.date.slice(0, 10), name: found.name } : null;
  anniversaryCache.set(key, day);
  return day;
}

const nzDate = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
/** The New Zealand calendar date of an instant, as 'YYYY-MM-DD'. */
export const newZealandDate = (instant: Date): string => nzDate.format(instant);

/** Calendar arithmetic on 'YYYY-MM-DD' dates (UTC noon, so no clock change can shift a day). */
export function addDays(date: string, days: number): string {
  const next = new Date(`${date}T12:00:00Z`);
  next.setUTCDate(next.getUTCDate() + days);
  return next.toISOString().slice(0, 10);
}
export const weekdayOf = (date: string) => WEEKDAY_BY_INDEX[new Date(`${date}T12:00:00Z`).getUTCDay()]!;

/**
 * Instants already worked out, by date and minute of the day. Finding a wall time's offset in the
 * time zone is the costly part of making the open intervals (a calendar saved makes about 2,600 of
 * them, back to 2020 and three years ahead: 9 s of a fuzz file's 128 s of CPU went to it), and a
 * team's opening times are the same few minutes of the day, so the answers repeat. Bounded.
 */
const instants = new Map<string, number>();
const INSTANTS_KEPT = 50_000;

/** The instant of a New Zealand wall time on a date ('24:00' is the next day's midnight). */
export function instantOf(date: string, minutes: number): Date {
  if (minutes >= 24 * 60) return instantOf(addDays(date, 1), minutes - 24 * 60);
  const key = `${date} ${minutes}`;
  let instant = instants.get(key);
  if (instant === undefined) {
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    instant = +new TZDate(y, m - 1, d, Math.floor(minutes / 60), minutes % 60, ZONE);
    if (instants.size >= INSTANTS_KEPT) instants.clear();
    instants.set(key, instant);
  }
  return new Date(instant);
}

export interface Interval {
  starts: Date;
  ends: Date;
}

export interface DayFacts {
  date: string;
  /** Why the weekday's hours do not apply: a holiday's or the exception's name. */
  holiday: string | null;
  exception: boolean;
  spans: Span[];
}

export class BusinessCalendar {
  readonly #overrides: Map<string, { spans: Span[]; note: string }>;
  readonly #days = new Map<string, Interval[]>();

  readonly settings: CalendarSettings;

  constructor(settings: CalendarSettings) {
    this.settings = settings;
    this.#overrides = new Map(settings.overrides.map((o) => [o.date, { spans: o.spans, note: o.note }]));
  }

  /** What a date is: a holiday, an exception, or a plain weekday, and its opening spans. */
  day(date: string): DayFacts {
    const override = this.#overrides.get(date);
    const year = Number(date.slice(0, 4));
    const holiday =
      nationalHolidays(year).get(date) ??
      (this.settings.anniversary && anniversaryDay(this.settings.anniversary, year)?.date === date
        ? anniversaryDay(this.settings.anniversary, year)!.name
        : null);
    if (override) return { date, holiday: override.note || holiday, exception: true, spans: override.spans };
    if (holiday) return { date, holiday, exception: false, spans: [] };
    return { date, holiday: null, exception: false, spans: this.settings.hours[weekdayOf(date)] };
  }

  /** The opening spans of a New Zealand date as instants, earliest first. */
  intervalsOn(date: string): Interval[] {
    let intervals = this.#days.get(date);
    if (!intervals) {
      intervals = [...this.day(date).spans]
        .sort((a, b) => minutesOfTime(a.start) - minutesOfTime(b.start))
        .map((span) => ({
          starts: instantOf(date, minutesOfTime(span.start)),
          ends: instantOf(date, minutesOfTime(span.end)),
        }))
        .filter((interval) => interval.ends > interval.starts);
      if (this.#days.size > 5_000) this.#days.clear();
      this.#days.set(date, intervals);
    }
    return intervals;
  }

  /** Every opening span between two dates (inclusive), earliest first. */
  intervalsBetween(fromDate: string, toDate: string): Interval[] {
    const out: Interval[] = [];
    for (let date = fromDate; date <= toDate; date = addDays(date, 1)) out.push(...this.intervalsOn(date));
    return out;
  }

  /** A day the team works: it has opening hours. */
  isWorkingDay(date: string): boolean {
    return this.intervalsOn(date).length > 0;
  }

  isOpenAt(instant: Date): boolean {
    return this.intervalsOn(newZealandDate(instant)).some((i) => i.starts <= instant && instant < i.ends);
  }

  /** The instant `minutes` business minutes after `start`: inside opening hours (or at a span's close). */
  addBusinessMinutes(start: Date, minutes: number): Date {
    let remaining = minutes;
    let date = newZealandDate(start);
    // Ten years of days: a calendar with opening hours reaches any target long before.
    for (let guard = 0; guard < 3_660; guard++, date = addDays(date, 1)) {
      for (const interval of this.intervalsOn(date)) {
        if (interval.ends <= start) continue;
        const from = interval.starts > start ? interval.starts : start;
        const available = (interval.ends.getTime() - from.getTime()) / 60_000;
        if (remaining <= available) {
          // A zero target from a closed moment is due at the next opening, never before the start.
          return new Date(from.getTime() + remaining * 60_000);
        }
        remaining -= available;
      }
    }
    throw new Error('The business calendar has no opening hours within ten years.');
  }

  /** Business minutes between two instants (0 when `to` is not after `from`). */
  businessMinutesBetween(from: Date, to: Date): number {
    if (to <= from) return 0;
    let total = 0;
    const last = newZealandDate(to);
    for (let date = newZealandDate(from); date <= last; date = addDays(date, 1)) {
      for (const interval of this.intervalsOn(date)) {
        const a = Math.max(interval.starts.getTime(), from.getTime());
        const b = Math.min(interval.ends.getTime(), to.getTime());
        if (b > a) total += (b - a) / 60_000;
      }
    }
    return total;
  }

  /**
   * The instant `days` working days after `start`, at the same New Zealand wall time (a wall time
   * the clocks skip moves on with them): what "closes after 7 working days" means.
   */
  addWorkingDays(start: Date, days: number): Date {
    let date = newZealandDate(start);
    for (let counted = 0, guard = 0; counted < days && guard < 3_660; guard++) {
      date = addDays(date, 1);
      if (this.isWorkingDay(date)) counted++;
    }
    const wall = new TZDate(start.getTime(), ZONE);
    const rest = wall.getSeconds() * 1000 + wall.getMilliseconds();
    return new Date(instantOf(date, wall.getHours() * 60 + wall.getMinutes()).getTime() + rest);
  }
}
