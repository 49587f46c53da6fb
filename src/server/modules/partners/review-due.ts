import { REVIEW_WORKING_DAYS } from '../../../contracts/partner-review.ts';
import { addDays, type BusinessCalendar, instantOf, newZealandDate } from '../../calendar/business-calendar.ts';

/**
 * When a partner application is due for review (docs/decisions/111-partner-review-due.md): on the
 * second New Zealand working day after the New Zealand date it was submitted on, whatever the time
 * of day; the day of submission never counts, even a working morning. Working days are the team's
 * business calendar (server/calendar): days with opening hours, so weekends, New Zealand's public
 * holidays (the Mondayised days and Matariki too), the chosen anniversary day and closed days do
 * not count. An application is late once New Zealand's date is after its due date.
 *
 * `submittedAt` is the last submission: today the application itself (companies.created_at); a
 * resubmission after changes were asked for will pass its own instant and start the count again.
 */
export function reviewDue(submittedAt: Date, calendar: BusinessCalendar): { dueDate: string } {
  return { dueDate: newZealandDate(calendar.addWorkingDays(submittedAt, REVIEW_WORKING_DAYS)) };
}

/** Whether a review due on `dueDate` is late on the New Zealand date `today`. */
export const isLate = (dueDate: string, today: string): boolean => today > dueDate;

/**
 * The instant before which a submission is late on `today`: due dates only move forward with the
 * submission, so the late ones are exactly those submitted before the start (New Zealand midnight)
 * of the REVIEW_WORKING_DAYS-th working day counted back from yesterday. The list filters and
 * counts with it in SQL (`created_at < lateBefore`) instead of computing every due date.
 */
export function lateBefore(today: string, calendar: BusinessCalendar): Date {
  let date = today;
  for (let counted = 0, guard = 0; counted < REVIEW_WORKING_DAYS; guard++) {
    if (guard > 3_660) throw new Error('The business calendar has no working days within ten years.');
    date = addDays(date, -1);
    if (calendar.isWorkingDay(date)) counted++;
  }
  return instantOf(date, 0);
}
