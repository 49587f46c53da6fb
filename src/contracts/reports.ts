import { formatNzDay, formatter, remembered } from './dates.ts';
import { CLAIM_REPORT_TEXT } from './report-claims.ts';
import { WEEKDAYS } from './service-levels.ts';
import { TICKET_WORDS } from './ticket-words.ts';
import type { ReportTicketsQuery } from './reports.schemas.ts';

/**
 * Reports (/admin/reports, docs/decisions/109-reports-and-charts.md): how fast the desk answers and
 * resolves, when tickets come in, what customers thought, and per admin. Days and hours are New
 * Zealand ones; business hours count only the team's opening hours (the business calendar). Every
 * figure opens a list of its tickets. Every word the pages and the CSV show lives here.
 */

/** The range when none is asked for: the last 28 New Zealand days, today included. */
export const REPORT_DEFAULT_DAYS = 28;
/** The longest range one report reads. */
export const REPORT_MAX_DAYS = 366;
/** A figure's list shows at most this many tickets (the CSV has them all). */
export const REPORT_LIST_LIMIT = 500;
/** The newest rating comments shown. */
export const REPORT_COMMENTS_LIMIT = 50;

/** First-response spread, in clock hours from the ticket's creation to its first answer. */
export const SPREAD_BUCKETS = [
  { key: 'lt1h', label: 'Under 1 h', min: 0, max: 1 },
  { key: '1-4h', label: '1–4 h', min: 1, max: 4 },
  { key: '4-8h', label: '4–8 h', min: 4, max: 8 },
  { key: '8-24h', label: '8–24 h', min: 8, max: 24 },
  { key: 'gt24h', label: 'Over a day', min: 24, max: null },
] as const;
export type SpreadBucket = (typeof SPREAD_BUCKETS)[number]['key'];
export const SPREAD_KEYS = SPREAD_BUCKETS.map((b) => b.key) as [SpreadBucket, ...SpreadBucket[]];

/** The figures whose tickets a list can show, and what each needs besides the range. */
export const REPORT_FIGURES = {
  created: { needs: null },
  'first-response': { needs: null },
  'first-response-met': { needs: null },
  'first-response-missed': { needs: null },
  resolution: { needs: null },
  'resolution-met': { needs: null },
  'resolution-missed': { needs: null },
  spread: { needs: 'bucket' },
  hour: { needs: 'weekday-hour' },
  'created-day': { needs: 'day' },
  'closed-day': { needs: 'day' },
  'backlog-day': { needs: 'day' },
  ratings: { needs: null },
  'rating-week': { needs: 'day' },
  'admin-answered': { needs: 'admin' },
  'admin-first': { needs: 'admin' },
  'admin-rated': { needs: 'admin' },
  // The claims made in the range (contracts/report-claims.ts).
  claims: { needs: null },
  'claims-decided': { needs: null },
  'claim-kind': { needs: 'claimKind' },
  'claim-outcome': { needs: 'claimOutcome' },
} as const;
export type ReportFigure = keyof typeof REPORT_FIGURES;
export const FIGURE_IDS = Object.keys(REPORT_FIGURES) as [ReportFigure, ...ReportFigure[]];

export const REPORTS_TEXT = {
  title: 'Reports',
  lead: 'How the desk did over these New Zealand days. Times count from when a ticket was created. Business hours count only the team’s opening hours; clock hours count every hour.',
  rangeLabel: 'Days to report on',
  from: 'From',
  to: 'To',
  dayHint: 'New Zealand date',
  toHint: 'New Zealand date, included',
  show: 'Show report',
  presets: 'Or show the last',
  presetDays: (days: number) => `${days} days`,
  downloadCsv: 'Download CSV',
  csvAbout: 'One row per ticket created in these days, with its times, reason, assignee, rating, outcome and labels.',
  labelFilter: 'Label',
  labelAll: 'Every ticket',
  labelUnknown: 'Choose a label from the list.',
  reasonFilter: 'Reason',
  reasonAll: 'Every reason',
  reasonUnknown: 'Choose a reason from the list.',
  agentFilter: 'Assignee',
  agentAll: 'Anyone',
  agentUnknown: 'Choose an admin from the list.',
  labelOnly: (name: string) => `Only tickets labelled “${name}”.`,
  reasonOnly: (reason: string) => `Only “${reason}” tickets.`,
  agentOnly: (email: string) => `Only tickets assigned to ${email}.`,
  filtersLabel: 'Which tickets',
  listShow: 'Show tickets',
  labelsTitle: 'By label',
  labelsLead:
    'Tickets created in these days, by their labels: a ticket with two labels counts under both, one with none under neither. Ratings: Good of all ratings on those tickets.',
  labelsNone: 'No ticket created in these days has a label.',
  labelColumns: ['Label', 'Created', 'Median first response', 'First answer within target', 'Closed', 'Ratings'],
  dayInvalid: 'Write the date as YYYY-MM-DD.',
  dayTooEarly: 'Choose a date from 2000 on.',
  dayTooLate: 'Choose a date before 2100.',
  rangeBackwards: 'Choose a day on or after the From date.',
  rangeTooLong: `Choose at most ${REPORT_MAX_DAYS} days.`,
  figureNeeds: {
    bucket: 'Choose which part of the spread.',
    'weekday-hour': 'Choose a weekday (1 to 7, Monday first) and an hour (0 to 23).',
    day: 'Choose a day (YYYY-MM-DD).',
    admin: 'Choose an admin.',
    claimKind: CLAIM_REPORT_TEXT.needsKind,
    claimOutcome: CLAIM_REPORT_TEXT.needsOutcome,
  },
  // The headline figures.
  timesTitle: 'Response and resolution',
  timesLead:
    'Of the tickets created in these days. Within target: the first answer within the reason’s first-response target, and the business time a ticket waited on us within its resolution target. Late: past its target already, answered or not.',
  firstResponse: 'First response',
  firstResponseAbout: 'From creation to the team’s first answer.',
  resolution: 'Resolution',
  resolutionAbout: 'From creation to closing.',
  median: 'Median',
  p90: '90th percentile',
  businessHours: 'business time',
  clockHours: 'clock time',
  withinTarget: 'Within target',
  late: TICKET_WORDS.late,
  measured: (n: number, what: string) => `${n.toLocaleString('en-NZ')} ${what}`,
  none: '—',
  // The charts.
  spreadTitle: 'How long the first answer took',
  spreadLead: 'Tickets created in these days, by clock hours from creation to the first answer.',
  spreadAxis: 'Clock hours to the first answer',
  daysTitle: 'Created, closed and open per day',
  daysLead:
    'Tickets created and closed on each New Zealand day, and how many were open at the end of it (the backlog).',
  created: 'Created',
  closed: 'Closed',
  backlog: 'Open at the end of the day',
  hoursTitle: 'Busiest hours',
  hoursLead: 'New tickets by weekday and hour of the day, New Zealand time. Darker: more tickets.',
  hoursEmpty: 'Hours not listed had no new tickets.',
  hourLabel: (hour: number) => `${String(hour).padStart(2, '0')}:00`,
  hourSpan: (hour: number) => `${String(hour).padStart(2, '0')}:00–${String(hour + 1).padStart(2, '0')}:00`,
  ratingsTitle: 'Ratings',
  ratingsLead: 'The share of ratings that were Good, by the week (Monday first) a customer rated.',
  ratingsNone: 'No ratings in these days.',
  good: TICKET_WORDS.good,
  bad: TICKET_WORDS.bad,
  commentsTitle: 'What customers wrote',
  commentsNone: 'No comments with ratings in these days.',
  adminsTitle: 'Per admin',
  adminsLead:
    'Answered: tickets they replied to in these days. Median first response: of the tickets created in these days that they answered first. Ratings: Good of all ratings on the tickets they answered.',
  adminsNone: 'No admin answered a ticket in these days.',
  adminColumn: 'Admin',
  answeredColumn: 'Answered',
  firstAnswersColumn: 'Answered first',
  medianColumn: 'Median first response',
  ratingsColumn: 'Ratings',
  showTable: 'Show the figures as a table',
  tableCaption: (chart: string) => `${chart}: the figures`,
  openList: 'Open its tickets',
  readFailed: 'We could not read the report.',
  // A figure's list.
  listBack: 'Back to the report',
  listCount: (n: number) => `${n.toLocaleString('en-NZ')} ${n === 1 ? 'ticket' : 'tickets'}`,
  listTruncated: (n: number) =>
    `Showing the first ${n.toLocaleString('en-NZ')}. The CSV download has every ticket created in these days.`,
  listEmpty: 'No tickets.',
  columns: ['Ticket', 'Reason', 'Created', 'First response', 'Closed', 'Assignee', 'Rating', 'Outcome'] as const,
  unassigned: TICKET_WORDS.unassigned,
  outcome: { open: 'Open', closed: 'Closed', 'auto-closed': 'Closed automatically' },
} as const;

/** Weekday 1 (Monday) to 7 (Sunday), as ISO and PostgreSQL's isodow count them. */
export const weekdayName = (weekday: number) => WEEKDAYS[weekday - 1]?.label ?? String(weekday);

/** A business or clock hours figure as a person reads it: '12 min' under an hour, then '2.5 h', '46 h'. */
export function hoursWords(hours: number | null): string {
  if (hours === null) return REPORTS_TEXT.none;
  if (hours < 1) return `${Math.round(hours * 60)} min`;
  const rounded = hours >= 10 ? Math.round(hours) : Math.round(hours * 10) / 10;
  return `${rounded.toLocaleString('en-NZ')} h`;
}

/** A share as a whole percentage: '67%'. */
export const percentWords = (share: number | null) =>
  share === null ? REPORTS_TEXT.none : `${Math.round(share * 100)}%`;

const SHORT_DAY = formatter({ timeZone: 'UTC', day: 'numeric', month: 'short' });
/** A day in a chart's axis: '3 Apr'. */
export const shortDay = remembered('shortDay', (day: string) => SHORT_DAY().format(new Date(`${day}T12:00:00Z`)));

/** How a figure's ticket ended up: still open, closed by the team, or closed automatically. */
export const REPORT_OUTCOMES = ['open', 'closed', 'auto-closed'] as const;

/** What a figure's list holds, in words (the admin by email, when the figure is one admin's). */
export function figureTitle(query: ReportTicketsQuery, adminEmail: string | null): string {
  const who = adminEmail ?? 'this admin';
  const day = query.day ? formatNzDay(query.day) : '';
  switch (query.figure) {
    case 'created':
      return 'Tickets created';
    case 'first-response':
      return 'Tickets with a first answer';
    case 'first-response-met':
      return 'First answer within target';
    case 'first-response-missed':
      return 'First answer late, or still waiting past the target';
    case 'resolution':
      return 'Tickets closed';
    case 'resolution-met':
      return 'Closed within the resolution target';
    case 'resolution-missed':
      return 'Past the resolution target';
    case 'spread': {
      const bucket = SPREAD_BUCKETS.find((b) => b.key === query.bucket);
      return `First answer in ${bucket ? bucket.label.replace(/^U/, 'u').replace(/^O/, 'o') : ''} (clock hours)`;
    }
    case 'hour':
      return `Created on ${weekdayName(query.weekday ?? 0)}s, ${REPORTS_TEXT.hourSpan(query.hour ?? 0)}`;
    case 'created-day':
      return `Created on ${day}`;
    case 'closed-day':
      return `Closed on ${day}`;
    case 'backlog-day':
      return `Open at the end of ${day}`;
    case 'ratings':
      return 'Rated tickets';
    case 'rating-week':
      return `Rated in the week of ${day}`;
    case 'admin-answered':
      return `Answered by ${who}`;
    case 'admin-first':
      return `First answered by ${who}`;
    case 'admin-rated':
      return `Rated tickets answered by ${who}`;
    case 'claims':
      return CLAIM_REPORT_TEXT.listAll;
    case 'claims-decided':
      return CLAIM_REPORT_TEXT.listDecided;
    case 'claim-kind':
      return CLAIM_REPORT_TEXT.listKind(query.claimKind ?? '');
    case 'claim-outcome':
      return CLAIM_REPORT_TEXT.listOutcome(query.claimOutcome ?? 'upheld');
  }
}

// --- The CSV -----------------------------------------------------------------------------------------

export const CSV_COLUMNS = [
  'Ticket',
  'Reason',
  'Created (NZ time)',
  'First response (NZ time)',
  'First response (business hours)',
  'First response (clock hours)',
  'Closed (NZ time)',
  'Resolution (business hours)',
  'Resolution (clock hours)',
  'Assignee',
  'Rating',
  'Rating comment',
  'Outcome',
  'Labels',
] as const;
