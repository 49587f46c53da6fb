import {
  ANNIVERSARY_REGION_VALUES,
  CALENDAR_TEXT,
  minutesOfTime,
  TARGET_MINUTES_MAX,
  TARGET_MINUTES_MIN,
  TIME,
} from './service-levels.ts';
import { TICKET_REASON_VALUES } from './support.ts';
import { z } from './zod.ts';

/**
 * The zod schemas of service-levels.ts: the business calendar and the targets as the API checks
 * them. The console's words and constants are in service-levels.ts, which needs no zod
 * (docs/decisions/119-schemas-stay-on-the-server.md).
 */

export const SpanSchema = z
  .object({
    start: z.string().regex(TIME, { error: CALENDAR_TEXT.timeInvalid }),
    end: z.string().regex(TIME, { error: CALENDAR_TEXT.timeInvalid }),
  })
  .refine((span) => minutesOfTime(span.end) > minutesOfTime(span.start), {
    error: CALENDAR_TEXT.spanOrder,
    path: ['end'],
  });
export type Span = z.infer<typeof SpanSchema>;

const spansOfADay = z
  .array(SpanSchema)
  .max(4, { error: CALENDAR_TEXT.tooManySpans })
  .refine(
    (spans) => {
      const sorted = [...spans].sort((a, b) => minutesOfTime(a.start) - minutesOfTime(b.start));
      return sorted.every((span, i) => i === 0 || minutesOfTime(span.start) >= minutesOfTime(sorted[i - 1]!.end));
    },
    { error: CALENDAR_TEXT.spansOverlap },
  );

export const CalendarOverrideSchema = z.object({
  // A real calendar date (not 2027-13-40), in the years a calendar can reach.
  date: z.iso
    .date({ error: CALENDAR_TEXT.dateInvalid })
    .refine((date) => date >= '2000-01-01' && date < '2100-01-01', { error: CALENDAR_TEXT.dateInvalid }),
  /** Empty: closed all day. */
  spans: spansOfADay,
  note: z.string().trim().max(120, { error: CALENDAR_TEXT.noteTooLong }).default(''),
});
export type CalendarOverride = z.infer<typeof CalendarOverrideSchema>;

export const CalendarSettingsSchema = z
  .object({
    hours: z.object({
      mon: spansOfADay,
      tue: spansOfADay,
      wed: spansOfADay,
      thu: spansOfADay,
      fri: spansOfADay,
      sat: spansOfADay,
      sun: spansOfADay,
    }),
    /** The one regional anniversary day the team keeps (null: none). */
    anniversary: z.enum(ANNIVERSARY_REGION_VALUES).nullable(),
    overrides: z.array(CalendarOverrideSchema).max(366),
  })
  .refine((settings) => Object.values(settings.hours).some((spans) => spans.length > 0), {
    error: CALENDAR_TEXT.noOpenHours,
    path: ['hours'],
  })
  .refine((settings) => new Set(settings.overrides.map((o) => o.date)).size === settings.overrides.length, {
    error: CALENDAR_TEXT.overrideDuplicate,
    path: ['overrides'],
  });
export type CalendarSettings = z.infer<typeof CalendarSettingsSchema>;

/** A target in business minutes (TARGET_MINUTES_MIN to TARGET_MINUTES_MAX). */
export const TargetMinutesSchema = z.number().int().min(TARGET_MINUTES_MIN).max(TARGET_MINUTES_MAX);
export const ReasonTargetsSchema = z.object({
  firstResponse: TargetMinutesSchema,
  nextResponse: TargetMinutesSchema,
  resolution: TargetMinutesSchema,
});
export const TargetsSchema = z.object(
  Object.fromEntries(TICKET_REASON_VALUES.map((reason) => [reason, ReasonTargetsSchema])) as Record<
    (typeof TICKET_REASON_VALUES)[number],
    typeof ReasonTargetsSchema
  >,
);
export type Targets = z.infer<typeof TargetsSchema>;

/** A day the calendar does not keep its weekday hours: a holiday (closed) or an exception. */
export const SpecialDaySchema = z.object({
  date: z.string(),
  name: z.string(),
  spans: z.array(SpanSchema),
  exception: z.boolean(),
});
export type SpecialDay = z.infer<typeof SpecialDaySchema>;

export const ServiceLevelSettingsSchema = z.object({
  calendar: CalendarSettingsSchema,
  targets: TargetsSchema,
  /** The holidays and exceptions of the next twelve months, earliest first. */
  specialDays: z.array(SpecialDaySchema),
});
export type ServiceLevelSettings = z.infer<typeof ServiceLevelSettingsSchema>;
