import { minutesOfTime, WEEKDAYS, type WeekdayKey } from '../../../contracts/service-levels.ts';
import type { CalendarSettings, Span } from '../../../contracts/service-levels.schemas.ts';
import type { TargetKind } from '../../../contracts/due-times.ts';

/**
 * The Business hours page's forms (routes/admin-business-hours.tsx): their fields' names, and what
 * the forms show as they are typed. Reading a form into the settings the endpoints take, with the
 * contracts' schemas, is business-hours-read.ts: the action's, and the browser's once a form is
 * used (docs/decisions/119-schemas-stay-on-the-server.md).
 */

type Values = Record<string, string>;

/**
 * Spans a weekday shows: three cover a lunch break and an evening. The calendar keeps up to four
 * (set through the API), so a day that has four shows four, and the form reads as many.
 */
export const DAY_SPANS = 3;
export const MOST_DAY_SPANS = 4;
export const spansShown = (calendar: CalendarSettings) =>
  Math.max(DAY_SPANS, ...Object.values(calendar.hours).map((spans) => spans.length));
/** Spans an exception's form shows. */
export const EXCEPTION_SPANS = 2;

export const INTENTS = {
  calendar: 'calendar',
  targets: 'targets',
  addException: 'add-exception',
  removeException: 'remove-exception',
  claimPeriods: 'claim-periods',
} as const;

export type Side = 'opens' | 'closes';
export const hourField = (day: WeekdayKey, n: number, side: Side) => `${day}-${n}-${side}`;
export const exceptionField = (n: number, side: Side) => `exception-${n}-${side}`;
export const EXCEPTION_FIELDS = {
  date: 'exception-date',
  closed: 'exception-closed',
  hours: 'exception-hours',
  note: 'exception-note',
} as const;
export const targetField = (reason: string, kind: TargetKind) => `${reason}.${kind}`;
/** The message of the calendar as a whole ("open at least one span"). */
export const HOURS_FIELD = 'hours';
export const ANNIVERSARY_FIELD = 'anniversary';

/** A time as typed (a time input sends '09:00', a hand-typed one may be '9:00') as the calendar keeps it. */
export function timeOf(text: string): string {
  const match = /^(\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/.exec(text);
  return match ? `${match[1]!.padStart(2, '0')}:${match[2]}` : text;
}
/** A time input cannot show 24:00: a span closing at midnight is typed and shown as 00:00. */
export const closingOf = (text: string) => (timeOf(text) === '00:00' ? '24:00' : timeOf(text));
const inputTime = (time: string) => (time === '24:00' ? '00:00' : time);

/** The time fields' values a stored span shows, by field name. */
export function spanValues(spans: readonly Span[], field: (n: number, side: Side) => string): Values {
  const values: Values = {};
  spans.forEach((span, i) => {
    values[field(i + 1, 'opens')] = inputTime(span.start);
    values[field(i + 1, 'closes')] = inputTime(span.end);
  });
  return values;
}

/** Business minutes of the complete, well-formed spans typed (for the row's "Open 8 h"). */
export function openMinutes(values: Values, field: (n: number, side: Side) => string, count: number): number {
  let total = 0;
  for (let n = 1; n <= count; n++) {
    const start = timeOf(values[field(n, 'opens')]?.trim() ?? '');
    const end = closingOf(values[field(n, 'closes')]?.trim() ?? '');
    if (/^\d\d:\d\d$/.test(start) && /^\d\d:\d\d$/.test(end) && minutesOfTime(end) > minutesOfTime(start))
      total += minutesOfTime(end) - minutesOfTime(start);
  }
  return total;
}

const isWeekday = (key: string | undefined): key is WeekdayKey => WEEKDAYS.some((day) => day.key === key);

/**
 * The field of a calendar's message, from its path in CalendarSettings: a span's time, a day (spans
 * that overlap), the week as a whole, the anniversary day. `numbers` maps a day's spans back to the
 * form's span numbers. Paths come from the schema here, or as 'hours.mon.0.start' from the endpoint.
 */
export function calendarField(path: readonly string[], numbers: Partial<Record<WeekdayKey, number[]>>): string {
  const [top, day, index, side] = path;
  if (top === 'hours' && isWeekday(day)) {
    const n = index === undefined ? undefined : numbers[day]?.[Number(index)];
    if (n !== undefined && (side === 'start' || side === 'end'))
      return hourField(day, n, side === 'start' ? 'opens' : 'closes');
    return day;
  }
  if (top === 'hours') return HOURS_FIELD;
  if (top === 'anniversary') return ANNIVERSARY_FIELD;
  return '_';
}

/** The calendar without the exception on `date` (null: there is none, someone removed it already). */
export function withoutException(date: string, current: CalendarSettings): CalendarSettings | null {
  if (!current.overrides.some((o) => o.date === date)) return null;
  return { ...current, overrides: current.overrides.filter((o) => o.date !== date) };
}
