import { CLAIM_PERIOD_NAMES } from '../../../contracts/claims.ts';
import { type ClaimPeriods, ClaimPeriodsSchema } from '../../../contracts/claims.schemas.ts';
import { TARGET_KINDS } from '../../../contracts/due-times.ts';
import {
  BUSINESS_HOURS_TEXT,
  CALENDAR_TEXT,
  parseTargetMinutes,
  TARGETS_TEXT,
  WEEKDAYS,
  type WeekdayKey,
} from '../../../contracts/service-levels.ts';
import {
  type CalendarOverride,
  CalendarOverrideSchema,
  type CalendarSettings,
  CalendarSettingsSchema,
  type Span,
  type Targets,
  TargetsSchema,
} from '../../../contracts/service-levels.schemas.ts';
import { TICKET_REASON_VALUES } from '../../../contracts/support.ts';
import { z } from '../../../contracts/zod.ts';
import {
  ANNIVERSARY_FIELD,
  calendarField,
  closingOf,
  EXCEPTION_FIELDS,
  EXCEPTION_SPANS,
  exceptionField,
  hourField,
  MOST_DAY_SPANS,
  type Side,
  targetField,
  timeOf,
} from './business-hours-form.ts';

/**
 * The Business hours page's forms read into the settings the endpoints take: the same function
 * checks the fields in the browser before a form is sent and in the action after, so both say the
 * same thing under the same field. A form's messages are keyed by its fields' names
 * (business-hours-form.ts); the contracts' schemas decide, their paths mapped back to those fields.
 * The browser loads this module, and zod with it, when a form is first used (useFormCheck).
 */

type Values = Record<string, string>;
type Fields = Record<string, string>;
export type Read<T> = { ok: true; data: T } | { ok: false; fields: Fields };

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
