/**
 * How dates are written for people: en-NZ, in New Zealand time (docs/product.md §9). Every page
 * and mail formats dates through these, so one calendar day reads the same everywhere.
 */

const NZ = 'Pacific/Auckland';

/** Dates are shown in the en-NZ locale, in New Zealand time (docs/product.md §9). */
export function formatNzDateTime(iso: string): string {
  return new Intl.DateTimeFormat('en-NZ', {
    timeZone: NZ,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(iso));
}

/** A date as the pages and mail write it: 'Friday 25 December 2026' (New Zealand calendar day). */
export function longDate(instant: Date | string): string {
  return new Intl.DateTimeFormat('en-NZ', {
    timeZone: NZ,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  })
    .format(new Date(instant))
    .replace(',', '');
}

/** A New Zealand calendar date ('YYYY-MM-DD', a privacy request's due date) as people read it: '12 Dec 2026'. */
export function formatNzDay(day: string): string {
  return new Intl.DateTimeFormat('en-NZ', { timeZone: 'UTC', dateStyle: 'medium' }).format(
    new Date(`${day}T12:00:00Z`),
  );
}

const SHORT_DATE_TIME = new Intl.DateTimeFormat('en-NZ', {
  timeZone: NZ,
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const DAY = new Intl.DateTimeFormat('en-NZ', { timeZone: NZ, day: 'numeric', month: 'long', year: 'numeric' });

/** An instant in a list of sessions: '3 Dec 2026, 4:05 pm'. */
export const formatNzShortDateTime = (instant: Date | string) => SHORT_DATE_TIME.format(new Date(instant));

/** The calendar day of an instant: '3 December 2026'. */
export const formatNzDate = (instant: Date | string) => DAY.format(new Date(instant));

const WEEKDAY_TIME = new Intl.DateTimeFormat('en-NZ', {
  timeZone: NZ,
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** A due time within the coming days: 'Mon 30 Nov, 10:30' (put together from parts, the same in every engine). */
export function formatNzDueTime(instant: Date | string): string {
  const part = Object.fromEntries(WEEKDAY_TIME.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  return `${part.weekday} ${part.day} ${part.month}, ${part.hour}:${part.minute}`;
}
