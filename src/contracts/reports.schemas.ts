import { CLAIM_KIND_VALUES, CLAIM_OUTCOMES } from './claims.ts';
import { ClaimsFigureSchema } from './report-claims.schemas.ts';
import { FIGURE_IDS, REPORT_FIGURES, REPORT_OUTCOMES, REPORTS_TEXT, SPREAD_KEYS } from './reports.ts';
import { TICKET_REASON_VALUES } from './support.ts';
import { z } from './zod.ts';

/**
 * The zod schemas of reports.ts: what the reports' API checks and answers. The pages' words and
 * constants are in reports.ts, which needs no zod (docs/decisions/119-schemas-stay-on-the-server.md).
 */

const NzDay = z.iso
  .date({ error: REPORTS_TEXT.dayInvalid })
  .refine((day) => day >= '2000-01-01', REPORTS_TEXT.dayTooEarly)
  // A week or a range reaches a few days past the day: far-future years have no place in a report
  // (and past 9999 a date no longer has the YYYY-MM-DD shape; found by the fuzz).
  .refine((day) => day < '2100-01-01', REPORTS_TEXT.dayTooLate);

export const ReportQuerySchema = z.object({
  /** The first New Zealand day of the range; REPORT_DEFAULT_DAYS before `to` when left out. */
  from: NzDay.optional(),
  /** The last New Zealand day, included; today (the app's clock) when left out. */
  to: NzDay.optional(),
  /** Only the tickets with this label (its id), in every figure, list and the CSV; all when left out. */
  label: z.uuid({ error: REPORTS_TEXT.labelUnknown }).optional(),
  /** Only the tickets of this reason; all when left out. */
  reason: z.enum(TICKET_REASON_VALUES, { error: REPORTS_TEXT.reasonUnknown }).optional(),
  /** Only the tickets assigned to this admin (their user id); all when left out. */
  agent: z.uuid({ error: REPORTS_TEXT.agentUnknown }).optional(),
});
export type ReportQuery = z.infer<typeof ReportQuerySchema>;

export const ReportTicketsQuerySchema = ReportQuerySchema.extend({
  /** Which figure's tickets; every ticket created in the range when left out. */
  figure: z.enum(FIGURE_IDS).default('created'),
  /** spread: which part. */
  bucket: z.enum(SPREAD_KEYS).optional(),
  /** created-day, closed-day, backlog-day: that New Zealand day; rating-week: the Monday its week starts. */
  day: NzDay.optional(),
  /** hour: the weekday, 1 (Monday) to 7 (Sunday), and the hour, 0 to 23, New Zealand time. */
  weekday: z.coerce.number().int().min(1).max(7).optional(),
  hour: z.coerce.number().int().min(0).max(23).optional(),
  /** admin-*: the admin's user id. */
  admin: z.uuid().optional(),
  /** claim-kind: what happened (lost, damaged, late, not-as-described, other). */
  claimKind: z.enum(CLAIM_KIND_VALUES).optional(),
  /** claim-outcome: the claims' first decision (upheld, part, declined). */
  claimOutcome: z.enum(CLAIM_OUTCOMES).optional(),
}).superRefine((query, context) => {
  const needs = REPORT_FIGURES[query.figure].needs;
  const missing =
    (needs === 'bucket' && query.bucket === undefined) ||
    (needs === 'day' && query.day === undefined) ||
    (needs === 'admin' && query.admin === undefined) ||
    (needs === 'claimKind' && query.claimKind === undefined) ||
    (needs === 'claimOutcome' && query.claimOutcome === undefined) ||
    (needs === 'weekday-hour' && (query.weekday === undefined || query.hour === undefined));
  if (needs && missing) {
    const path = needs === 'weekday-hour' ? (query.weekday === undefined ? 'weekday' : 'hour') : needs;
    context.addIssue({ code: 'custom', message: REPORTS_TEXT.figureNeeds[needs], path: [path] });
  }
});
export type ReportTicketsQuery = z.infer<typeof ReportTicketsQuerySchema>;

const Hours = z.number().nullable();
const Count = z.number().int().nonnegative();

/** Median and 90th percentile of a time, in business and clock hours, and how many met the target. */
export const TimeFigureSchema = z.object({
  /** Tickets measured (answered, or closed). */
  count: Count,
  medianBusinessHours: Hours,
  p90BusinessHours: Hours,
  medianClockHours: Hours,
  p90ClockHours: Hours,
  withinTarget: Count,
  /** Past the target: answered (or closed) late, or still waiting beyond it. */
  late: Count,
  /** withinTarget / (withinTarget + late); null when neither. */
  shareWithinTarget: z.number().nullable(),
});
export type TimeFigure = z.infer<typeof TimeFigureSchema>;

export const ReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** The label the report is limited to, or null for every ticket. */
  label: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** The app's clock when the report was read (ISO). */
  now: z.string(),
  /** Tickets created in the range. */
  created: Count,
  firstResponse: TimeFigureSchema,
  resolution: TimeFigureSchema,
  spread: z.array(z.object({ bucket: z.enum(SPREAD_KEYS), count: Count })),
  days: z.array(z.object({ day: z.string(), created: Count, closed: Count, backlog: Count })),
  /** Every weekday (1 = Monday) and hour (0–23), New Zealand time: 168 cells. */
  hours: z.array(z.object({ weekday: z.number().int(), hour: z.number().int(), count: Count })),
  ratings: z.object({
    good: Count,
    total: Count,
    /** By the Monday each week starts. */
    weeks: z.array(z.object({ week: z.string(), good: Count, total: Count })),
    /** Newest first. */
    comments: z.array(
      z.object({
        ticketId: z.string(),
        ticketNo: z.number().int(),
        good: z.boolean(),
        comment: z.string(),
        ratedAt: z.string(),
      }),
    ),
  }),
  /**
   * The tickets created in the range, split by label (a ticket with two labels counts in both; those
   * with none are left out), most tickets first.
   */
  labels: z.array(
    z.object({
      labelId: z.string(),
      name: z.string(),
      created: Count,
      answered: Count,
      medianFirstResponseBusinessHours: Hours,
      medianFirstResponseClockHours: Hours,
      firstResponseWithinTarget: Count,
      closed: Count,
      good: Count,
      rated: Count,
    }),
  ),
  admins: z.array(
    z.object({
      userId: z.string(),
      email: z.string(),
      answered: Count,
      firstAnswers: Count,
      medianFirstResponseBusinessHours: Hours,
      medianFirstResponseClockHours: Hours,
      good: Count,
      rated: Count,
    }),
  ),
  /** The incident claims made in the range (contracts/report-claims.ts). */
  claims: ClaimsFigureSchema,
});
export type Report = z.infer<typeof ReportSchema>;

export const ReportTicketSchema = z.object({
  id: z.string(),
  ticketNo: z.number().int(),
  reason: z.string(),
  createdAt: z.string(),
  firstResponseAt: z.string().nullable(),
  firstResponseBusinessHours: Hours,
  firstResponseClockHours: Hours,
  closedAt: z.string().nullable(),
  resolutionBusinessHours: Hours,
  resolutionClockHours: Hours,
  assignee: z.string().nullable(),
  rating: z.enum(['good', 'bad']).nullable(),
  outcome: z.enum(REPORT_OUTCOMES),
  /** The ticket's labels, by name. */
  labels: z.array(z.string()),
});
export type ReportTicket = z.infer<typeof ReportTicketSchema>;

export const ReportTicketsSchema = z.object({
  from: z.string(),
  to: z.string(),
  figure: z.enum(FIGURE_IDS),
  /** The label the list is limited to, or null. */
  label: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** What the list is, in words: 'First answered in 1–4 h'. */
  title: z.string(),
  tickets: z.array(ReportTicketSchema),
  /** More tickets than REPORT_LIST_LIMIT: only the first are listed. */
  truncated: z.boolean(),
});
export type ReportTickets = z.infer<typeof ReportTicketsSchema>;
