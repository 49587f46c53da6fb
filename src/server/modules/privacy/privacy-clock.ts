import { createRequire } from 'node:module';
import type HolidaysClass from 'date-holidays';

/**
 * The privacy clock: a request under the Privacy Act 2020 (to see, correct or erase what we hold)
 * must be answered within 20 working days after the day it arrived (s 44). A working day (s 7) is
 * any day but a Saturday or Sunday, a national public holiday (Waitangi Day, Good Friday, Easter
 * Monday, Anzac Day, the Sovereign's birthday, Matariki, Labour Day, and the Monday a weekend
 * Waitangi or Anzac Day moves to) and any day from 25 December to 15 January. Regional
 * anniversary days are working days. Days are New Zealand calendar days, whatever the server's
 * time zone. The holiday dates come from `date-holidays` (maintained, with Matariki's dates as the
 * Act fixes them and the Mondayised days); the unit tests pin them against dates checked by hand.
 */
export const PRIVACY_WORKING_DAYS = 20;
const ZONE = 'Pacific/Auckland';

// Loaded when a date is first asked for (its CommonJS build, so the clock stays synchronous): its
// holiday data is about 0.2 s of CPU that most starts and every command-line run never need.
let nationalHolidays: HolidaysClass | undefined;
const holidaysNZ = () =>
  (nationalHolidays ??= new (createRequire(import.meta.url)('date-holidays') as typeof HolidaysClass)('NZ'));
const holidayCache = new Map<number, Set<string>>();

/** The national public holidays of a year, as 'YYYY-MM-DD' (substitute Mondays included). */
function holidaysOf(year: number): Set<string> {
  let days = holidayCache.get(year);
  if (!days) {
    days = new Set(
      holidaysNZ()
        .getHolidays(year)
        .filter((holiday) => holiday.type === 'public')
        .map((holiday) => holiday.date.slice(0, 10)),
    );
    holidayCache.set(year, days);
  }
  return days;
}

const nzDate = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** The New Zealand calendar date of an instant, as 'YYYY-MM-DD'. */
export function newZealandDate(instant: Date): string {
  return nzDate.format(instant);
}

/** Calendar arithmetic on 'YYYY-MM-DD' dates (UTC noon, so no clock change can shift a day). */
function addDays(date: string, days: number): string {
  const next = new Date(`${date}T12:00:00Z`);
  next.setUTCDate(next.getUTCDate() + days);
  return next.toISOString().slice(0, 10);
}

/** Whether a New Zealand calendar date ('YYYY-MM-DD') is a working day as the Privacy Act counts. */
export function isWorkingDay(date: string): boolean {
  const day = new Date(`${date}T12:00:00Z`);
  const weekday = day.getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  const month = day.getUTCMonth() + 1;
  const dayOfMonth = day.getUTCDate();
  if ((month === 12 && dayOfMonth >= 25) || (month === 1 && dayOfMonth <= 15)) return false;
  return !holidaysOf(day.getUTCFullYear()).has(date);
}

/**
 * Due dates already counted, by arrival date and working days: the desk's ticket list asks for one
 * per privacy request on every load, and counting walks a month of calendar days. A day's answer
 * never changes; the map is emptied past a few years' worth of arrival days.
 */
const dueDates = new Map<string, string>();
const MAX_REMEMBERED = 2_000;

/** The New Zealand date by which a request received at `received` must be answered. */
export function privacyDueDate(received: Date, workingDays = PRIVACY_WORKING_DAYS): string {
  const arrived = newZealandDate(received);
  const key = `${arrived}+${workingDays}`;
  const known = dueDates.get(key);
  if (known) return known;
  let date = arrived;
  let counted = 0;
  while (counted < workingDays) {
    date = addDays(date, 1);
    if (isWorkingDay(date)) counted += 1;
  }
  if (dueDates.size >= MAX_REMEMBERED) dueDates.clear();
  dueDates.set(key, date);
  return date;
}

/**
 * Working days left until the due date, seen from `now`: the working days after today up to and
 * including the due day; 0 on the due day itself; negative once it has passed (by the working days
 * after the due day up to and including today).
 */
export function workingDaysLeft(due: string, now: Date): number {
  const today = newZealandDate(now);
  const [from, to, sign] = today <= due ? [today, due, 1] : [due, today, -1];
  let count = 0;
  for (let date = addDays(from, 1); date <= to; date = addDays(date, 1)) {
    if (isWorkingDay(date)) count += 1;
  }
  return sign * count;
}
