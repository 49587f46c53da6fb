import {
  BUSINESS_HOURS_TEXT,
  CALENDAR_TEXT,
  type CalendarOverride,
  CalendarOverrideSchema,
  type CalendarSettings,
  CalendarSettingsSchema,
  minutesOfTime,
  type Span,
  type Targets,
  TARGETS_TEXT,
  TargetsSchema,
  parseTargetMinutes,
  WEEKDAYS,
  type WeekdayKey,
} from '../../../contracts/service-levels.ts';
import { TARGET_KINDS, type TargetKind } from '../../../contracts/due-times.ts';
import { TICKET_REASON_VALUES } from '../../../contracts/support.ts';
import { z } from '../../../contracts/zod.ts';
import { CLAIM_PERIOD_NAMES } from '../../../contracts/claims.ts';
import { type ClaimPeriods, ClaimPeriodsSchema } from '../../../contracts/claims.schemas.ts';

/**
 * The Business hours page's forms (routes/admin-business-hours.tsx) read into the settings the
 * endpoints take: the same function checks the fields in the browser before a form is sent and in
 * the action after, so both say the same thing under the same field. A form's messages are keyed
 * by its fields' names; the contracts' schemas decide, their paths mapped back to those fields.
 */

type Values = Record<string, string>;
type Fields = Record<string, string>;
export type Read<T> = { ok: true; data: T } | { ok: false; fields: Fields };

/**
 * Spans a weekday shows: three cover a lunch break and an evening. The calendar keeps up to four
 * (set through the API), so a day that has four shows four, and the form reads as many.
 */
export const DAY_SPANS = 3;
const MOST_DAY_SPANS = 4;
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

type Side = 'opens' | 'closes';
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
function timeOf(text: string): string {
  const match = /^(\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/.exec(text);
  return match ? `${match[1]!.padStart(2, '0')}:${match[2]}` : text;
}
/** A time input cannot show 24:00: a span closing at midnight is typed and shown as 00:00. */
const closingOf = (text: string) => (timeOf(text) === '00:00' ? '24:00' : timeOf(text));
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

/**
 * The spans typed in `count` pairs of fields: a pair left blank is no span; a pair half filled is
 * refused on its blank field. `numbers[i]` is the form's span number of the i-th span kept.
 */
function readSpans(values: Values, field: (n: number, side: Side) => string, count: number, fields: Fields) {
  const spans: Span[] = [];
  const numbers: number[] = [];
  for (let n = 1; n <= count; n++) {
    const opens = values[field(n, 'opens')]?.trim() ?? '';
    const closes = values[field(n, 'closes')]?.trim() ?? '';
    if (!opens && !closes) continue;
    if (!opens || !closes) {
      fields[field(n, opens ? 'closes' : 'opens')] ??= BUSINESS_HOURS_TEXT.spanIncomplete;
      continue;
    }
    spans.push({ start: timeOf(opens), end: closingOf(closes) });
    numbers.push(n);
  }
  return { spans, numbers };
}

/** Adds a schema's issues to `fields`, each under the field `fieldOf` names for its path. */
function addIssues(error: z.ZodError, fields: Fields, fieldOf: (path: string[]) => string) {
  for (const issue of error.issues) fields[fieldOf(issue.path.map(String))] ??= issue.message;
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

/** The calendar form: opening hours per weekday and the anniversary day; the exceptions stay as they are. */
export function readCalendarForm(values: Values, current: CalendarSettings) {
  const fields: Fields = {};
  const numbers: Partial<Record<WeekdayKey, number[]>> = {};
  const hours = Object.fromEntries(
    WEEKDAYS.map(({ key }) => {
      const read = readSpans(values, (n, side) => hourField(key, n, side), MOST_DAY_SPANS, fields);
      numbers[key] = read.numbers;
      return [key, read.spans];
    }),
  ) as CalendarSettings['hours'];
  const calendar = { hours, anniversary: values[ANNIVERSARY_FIELD] || null, overrides: current.overrides };
  const parsed = CalendarSettingsSchema.safeParse(calendar);
  if (!parsed.success) addIssues(parsed.error, fields, (path) => calendarField(path, numbers));
  const read: Read<CalendarSettings> =
    Object.keys(fields).length > 0 || !parsed.success ? { ok: false, fields } : { ok: true, data: parsed.data };
  return { read, fieldOf: (path: readonly string[]) => calendarField(path, numbers) };
}

/** A real calendar date (2026-02-30 passes the pattern but is no day). */
const isDay = (date: string) => {
  const at = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === date;
};

function exceptionFieldOf(path: readonly string[]): string {
  const [top, index, side] = path;
  if (top === 'date') return EXCEPTION_FIELDS.date;
  if (top === 'note') return EXCEPTION_FIELDS.note;
  if (top === 'spans' && index !== undefined && (side === 'start' || side === 'end'))
    return exceptionField(Number(index) + 1, side === 'start' ? 'opens' : 'closes');
  if (top === 'spans') return EXCEPTION_FIELDS.hours;
  if (top === 'overrides') return EXCEPTION_FIELDS.date;
  return '_';
}

/** The exception form: a date closed all day, or open the hours typed; the calendar with it added. */
export function readExceptionForm(values: Values, current: CalendarSettings) {
  const fields: Fields = {};
  const closed = Boolean(values[EXCEPTION_FIELDS.closed]);
  const typed = readSpans(values, exceptionField, EXCEPTION_SPANS, closed ? {} : fields);
  const spans = closed ? [] : typed.spans;
  // The fields of the spans kept, in order (a blank first pair leaves the second as span 0).
  const fieldOf = (path: readonly string[]) => {
    const [top, index, side] = path;
    if (top === 'spans' && index !== undefined) {
      const n = typed.numbers[Number(index)];
      if (n !== undefined && (side === 'start' || side === 'end'))
        return exceptionField(n, side === 'start' ? 'opens' : 'closes');
    }
    return exceptionFieldOf(path);
  };
  if (!closed && spans.length === 0 && Object.keys(fields).length === 0)
    fields[EXCEPTION_FIELDS.hours] = BUSINESS_HOURS_TEXT.exceptionHoursMissing;
  const date = values[EXCEPTION_FIELDS.date]?.trim() ?? '';
  if (!date) fields[EXCEPTION_FIELDS.date] = BUSINESS_HOURS_TEXT.dateRequired;
  const override = { date, spans, note: values[EXCEPTION_FIELDS.note] ?? '' };
  const parsed = CalendarOverrideSchema.safeParse(override);
  if (!parsed.success) addIssues(parsed.error, fields, fieldOf);
  else if (!isDay(date)) fields[EXCEPTION_FIELDS.date] ??= CALENDAR_TEXT.dateInvalid;
  else if (current.overrides.some((o) => o.date === date))
    fields[EXCEPTION_FIELDS.date] ??= CALENDAR_TEXT.overrideDuplicate;
  if (Object.keys(fields).length > 0 || !parsed.success)
    return { read: { ok: false, fields } as Read<CalendarSettings>, fieldOf };
  const calendar = { ...current, overrides: [...current.overrides, parsed.data as CalendarOverride] };
  const whole = CalendarSettingsSchema.safeParse(calendar);
  if (!whole.success) {
    addIssues(whole.error, fields, fieldOf);
    return { read: { ok: false, fields } as Read<CalendarSettings>, fieldOf };
  }
  return { read: { ok: true, data: whole.data } as Read<CalendarSettings>, fieldOf };
}

/** The calendar without the exception on `date` (null: there is none, someone removed it already). */
export function withoutException(date: string, current: CalendarSettings): CalendarSettings | null {
  if (!current.overrides.some((o) => o.date === date)) return null;
  return { ...current, overrides: current.overrides.filter((o) => o.date !== date) };
}

/** The targets form: 'H:MM' of business time per reason and clock. */
export function readTargetsForm(values: Values): Read<Targets> {
  const fields: Fields = {};
  const targets = Object.fromEntries(
    TICKET_REASON_VALUES.map((reason) => [
      reason,
      Object.fromEntries(
        TARGET_KINDS.map(({ key }) => {
          const minutes = parseTargetMinutes(values[targetField(reason, key)] ?? '');
          if (minutes === null) fields[targetField(reason, key)] = TARGETS_TEXT.minutesInvalid;
          return [key, minutes];
        }),
      ),
    ]),
  );
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  const parsed = TargetsSchema.safeParse(targets);
  if (!parsed.success) {
    addIssues(parsed.error, fields, (path) => path.join('.'));
    return { ok: false, fields };
  }
  return { ok: true, data: parsed.data };
}

/**
 * The claim periods' form: a field per period, named as the period, typed as a whole number of
 * working days ('7'); anything else is left as typed, for the schema to refuse in its words.
 */
export function readClaimPeriodsForm(values: Values): Read<ClaimPeriods> {
  const typed = Object.fromEntries(
    CLAIM_PERIOD_NAMES.map((name) => {
      const text = (values[name] ?? '').trim();
      return [name, /^\d{1,4}$/.test(text) ? Number(text) : text];
    }),
  );
  const parsed = ClaimPeriodsSchema.safeParse(typed);
  if (parsed.success) return { ok: true, data: parsed.data };
  const fields: Fields = {};
  addIssues(parsed.error, fields, (path) => path[0] ?? '_');
  return { ok: false, fields };
}

/**
 * A form's check as a schema, for the browser's half of a form (useFormCheck): the same reading
 * as the action's, its messages under the same fields.
 */
export function checkOf(read: (values: Values) => Read<unknown>) {
  return z.record(z.string(), z.string()).superRefine((values, ctx) => {
    const result = read(values);
    if (!result.ok)
      for (const [field, message] of Object.entries(result.fields))
        ctx.addIssue({ code: 'custom', path: [field], message });
  });
}
