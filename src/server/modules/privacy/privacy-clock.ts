import { addDays, nationalHolidays, newZealandDate } from '../../calendar/business-calendar.ts';

/**
 * The privacy clock: a request under the Privacy Act 2020 (to see, correct or erase what we hold)
 * must be answered within 20 working days after the day it arrived (s 44). A working day (s 7) is
 * any day but a Saturday or Sunday, a national public holiday (Waitangi Day, Good Friday, Easter
 * Monday, Anzac Day, the Sovereign's birthday, Matariki, Labour Day, and the Monday a weekend
 * Waitangi or Anzac Day moves to) and any day from 25 December to 15 January. Regional
 * anniversary days are working days. Days are New Zealand calendar days, whatever the server's
 * time zone. The national holidays are the business calendar's (server/calendar), the one list the
 * desk's due times also use; the team's own opening hours, anniversary day and closed days are not
 * the Act's and do not move this clock. The unit tests pin the dates against ones checked by hand.
 */
export const PRIVACY_WORKING_DAYS = 20;

export { newZealandDate };

/** Whether a New Zealand calendar date ('YYYY-MM-DD') is a working day as the Privacy Act counts. */
export function isWorkingDay(date: string): boolean {
  const day = new Date(`${date}T12:00:00Z`);
  const weekday = day.getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  const month = day.getUTCMonth() + 1;
  const dayOfMonth = day.getUTCDate();
  if ((month === 12 && dayOfMonth >= 25) || (month === 1 && dayOfMonth <= 15)) return false;
  return !nationalHolidays(day.getUTCFullYear()).has(date);
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
