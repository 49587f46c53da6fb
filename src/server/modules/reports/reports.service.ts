import {
  CSV_COLUMNS,
  figureTitle,
  REPORT_DEFAULT_DAYS,
  REPORT_LIST_LIMIT,
  REPORT_MAX_DAYS,
  REPORTS_TEXT,
} from '../../../contracts/reports.ts';
import type {
  Report,
  ReportQuery,
  ReportTicket,
  ReportTickets,
  ReportTicketsQuery,
  TimeFigure,
} from '../../../contracts/reports.schemas.ts';
import { CLAIM_OUTCOME_TEXT, CLAIM_STATE_TEXT, type ClaimState, claimKindLabel } from '../../../contracts/claims.ts';
import { CLAIMS_CSV_COLUMNS } from '../../../contracts/report-claims.ts';
import { reasonLabel } from '../../../contracts/support.ts';
import { ratingWord } from '../../../contracts/ticket-words.ts';
import { addDays, newZealandDate } from '../../calendar/business-calendar.ts';
import type { Clock } from '../../clock.ts';
import { iso } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import type { ClaimCsvRow } from './claims-report.repository.ts';
import type { Range } from './filters.ts';
import type { FactRow, ReportsRepository } from './reports.repository.ts';
import type { TimeRow } from './rollup-figures.ts';

const hoursOf = (minutes: number | null) => (minutes === null ? null : minutes / 60);
const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));
const isoOrNull = (value: unknown) => (value === null || value === undefined ? null : iso(value));

/** Days between two 'YYYY-MM-DD' dates, both included. */
const daysIn = (range: Range) =>
  Math.round((Date.parse(`${range.to}T12:00:00Z`) - Date.parse(`${range.from}T12:00:00Z`)) / 86_400_000) + 1;

function timeFigure(row: TimeRow): TimeFigure {
  const judged = row.met + row.late;
  return {
    count: row.count,
    medianBusinessHours: hoursOf(row.median_min),
    p90BusinessHours: hoursOf(row.p90_min),
    medianClockHours: row.median_hours,
    p90ClockHours: row.p90_hours,
    withinTarget: row.met,
    late: row.late,
    shareWithinTarget: judged === 0 ? null : row.met / judged,
  };
}

function ticketOf(row: FactRow): ReportTicket {
  return {
    id: row.id,
    ticketNo: Number(row.ticket_no),
    reason: row.reason,
    createdAt: iso(row.creation_date),
    firstResponseAt: isoOrNull(row.first_answer_at),
    firstResponseBusinessHours: hoursOf(numberOrNull(row.fr_min)),
    firstResponseClockHours: numberOrNull(row.fr_hours),
    closedAt: isoOrNull(row.closed_at),
    resolutionBusinessHours: hoursOf(numberOrNull(row.res_min)),
    resolutionClockHours: numberOrNull(row.res_hours),
    assignee: row.assignee,
    rating: row.good === null ? null : row.good ? 'good' : 'bad',
    outcome: row.outcome,
    labels: row.labels ?? [],
  };
}

// --- CSV ---------------------------------------------------------------------------------------------

/** 'YYYY-MM-DD HH:MM' on the New Zealand wall clock: what a spreadsheet reads as a date and time. */
const NZ_WALL = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Pacific/Auckland',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
export function nzWallTime(instant: string | null): string {
  if (!instant) return '';
  const parts = Object.fromEntries(NZ_WALL.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

const hoursCell = (hours: number | null) => (hours === null ? '' : hours.toFixed(2));

/**
 * One CSV field: a value a spreadsheet would run as a formula (starting with =, +, -, @, or a tab
 * or carriage return that hides one) gets a leading apostrophe; a field with a comma, quote or
 * line break is quoted, its quotes doubled (RFC 4180).
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvOf(tickets: ReportTicket[], comments: Map<string, string | null>): string {
  const rows = tickets.map((t) => [
    String(t.ticketNo),
    reasonLabel(t.reason),
    nzWallTime(t.createdAt),
    nzWallTime(t.firstResponseAt),
    hoursCell(t.firstResponseBusinessHours),
    hoursCell(t.firstResponseClockHours),
    nzWallTime(t.closedAt),
    hoursCell(t.resolutionBusinessHours),
    hoursCell(t.resolutionClockHours),
    // The words the report's pages show: 'Unassigned', the customer's 'Good' or 'Bad', 'Closed automatically'.
    t.assignee ?? REPORTS_TEXT.unassigned,
    t.rating === null ? '' : ratingWord(t.rating === 'good'),
    comments.get(t.id) ?? '',
    REPORTS_TEXT.outcome[t.outcome],
    t.labels.join('; '),
  ]);
  return csvText([[...CSV_COLUMNS], ...rows]);
}

/** A byte-order mark, so a spreadsheet reads the file as UTF-8; CRLF line ends (RFC 4180). */
const csvText = (rows: string[][]) => `\uFEFF${rows.map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;

/** Cents as a spreadsheet's number of dollars: 12050 → '120.50' (blank for none). */
const dollarsCell = (cents: number | null) => (cents === null ? '' : (cents / 100).toFixed(2));

export function claimsCsvOf(rows: ClaimCsvRow[]): string {
  const lines = rows.map((c) => [
    String(c.ticket_no),
    nzWallTime(iso(c.created_at)),
    claimKindLabel(c.kind),
    c.delivery_reference,
    dollarsCell(c.item_value_cents),
    CLAIM_STATE_TEXT[c.state as ClaimState] ?? c.state,
    c.first_outcome ? CLAIM_OUTCOME_TEXT[c.first_outcome] : '',
    nzWallTime(isoOrNull(c.first_decided_at)),
    c.decision_days === null ? '' : String(c.decision_days),
    c.outcome ? CLAIM_OUTCOME_TEXT[c.outcome] : '',
    // Paid: the amount as it stands, for a claim upheld in full or in part; nothing for a declined one.
    c.outcome === 'upheld' || c.outcome === 'part' ? dollarsCell(c.amount_cents) : c.outcome ? '0.00' : '',
  ]);
  return csvText([[...CLAIMS_CSV_COLUMNS], ...lines]);
}

// --- The service -------------------------------------------------------------------------------------

export function createReportsService(deps: { repository: ReportsRepository; clock: Clock }) {
  const { repository, clock } = deps;

  /**
   * The range asked for, or the last REPORT_DEFAULT_DAYS New Zealand days by the app's clock, with
   * the label asked for (its name, for the page's words; a label that does not exist is refused).
   */
  async function rangeOf(query: ReportQuery): Promise<Range & { labelName: string | null }> {
    const to = query.to ?? (query.from ? addDays(query.from, REPORT_DEFAULT_DAYS - 1) : newZealandDate(clock.now()));
    const from = query.from ?? addDays(to, -(REPORT_DEFAULT_DAYS - 1));
    if (to < from) {
      throw new AppError('INVALID_ARGUMENT', REPORTS_TEXT.rangeBackwards, {
        fields: { to: REPORTS_TEXT.rangeBackwards },
      });
    }
    if (daysIn({ from, to }) > REPORT_MAX_DAYS) {
      throw new AppError('INVALID_ARGUMENT', REPORTS_TEXT.rangeTooLong, {
        fields: { from: REPORTS_TEXT.rangeTooLong },
      });
    }
    const labelName = query.label ? await repository.labelName(query.label) : null;
    if (query.label && labelName === null) {
      throw new AppError('INVALID_ARGUMENT', REPORTS_TEXT.labelUnknown, {
        fields: { label: REPORTS_TEXT.labelUnknown },
      });
    }
    if (query.agent && (await repository.adminEmail(query.agent)) === null) {
      throw new AppError('INVALID_ARGUMENT', REPORTS_TEXT.agentUnknown, {
        fields: { agent: REPORTS_TEXT.agentUnknown },
      });
    }
    return {
      from,
      to,
      ...(query.label ? { label: query.label } : {}),
      ...(query.reason ? { reason: query.reason } : {}),
      ...(query.agent ? { agent: query.agent } : {}),
      labelName,
    };
  }

  return {
    rangeOf,

    async report(query: ReportQuery): Promise<Report> {
      const range = await rangeOf(query);
      const now = clock.now();
      const r = await repository.report(range, now);
      const days: Report['days'] = [];
      let backlog = r.backlogBefore;
      for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
        const created = r.createdPerDay.get(day) ?? 0;
        const closed = r.closedPerDay.get(day) ?? 0;
        backlog += created - closed;
        days.push({ day, created, closed, backlog: Math.max(0, backlog) });
      }
      const counts = new Map(r.hours.map((h) => [`${h.weekday}-${h.hour}`, h.count]));
      const hours: Report['hours'] = [];
      for (let weekday = 1; weekday <= 7; weekday++) {
        for (let hour = 0; hour < 24; hour++)
          hours.push({ weekday, hour, count: counts.get(`${weekday}-${hour}`) ?? 0 });
      }
      return {
        from: range.from,
        to: range.to,
        label: range.label && range.labelName !== null ? { id: range.label, name: range.labelName } : null,
        now: now.toISOString(),
        created: r.created,
        firstResponse: timeFigure(r.firstResponse),
        resolution: timeFigure(r.resolution),
        spread: r.spread,
        days,
        hours,
        ratings: {
          good: r.weeks.reduce((sum, w) => sum + w.good, 0),
          total: r.weeks.reduce((sum, w) => sum + w.total, 0),
          weeks: r.weeks,
          comments: r.comments.map((c) => ({
            ticketId: c.id,
            ticketNo: Number(c.ticket_no),
            good: c.good,
            comment: c.comment,
            ratedAt: iso(c.rated_at),
          })),
        },
        labels: r.byLabel.map((row) => ({
          labelId: row.label_id,
          name: row.name,
          created: Number(row.created),
          answered: Number(row.answered),
          medianFirstResponseBusinessHours: hoursOf(row.median_min),
          medianFirstResponseClockHours: row.median_hours,
          firstResponseWithinTarget: Number(row.fr_met),
          closed: Number(row.closed),
          good: Number(row.good),
          rated: Number(row.rated),
        })),
        admins: r.admins.map((a) => ({
          userId: a.user_id,
          email: a.email,
          answered: a.answered,
          firstAnswers: a.first_answers,
          medianFirstResponseBusinessHours: hoursOf(a.median_min),
          medianFirstResponseClockHours: a.median_hours,
          good: a.good,
          rated: a.rated,
        })),
        claims: {
          made: r.claims.made,
          kinds: r.claims.kinds,
          decided: r.claims.decided,
          outcomes: r.claims.outcomes,
          paidCents: r.claims.paidCents,
          claimedCents: r.claims.claimedCents,
          medianDecisionDays: r.claims.medianDays,
          p90DecisionDays: r.claims.p90Days,
        },
      };
    },

    async tickets(query: ReportTicketsQuery): Promise<ReportTickets> {
      const range = await rangeOf(query);
      const [rows, email] = await Promise.all([
        repository.figureTickets(range, query, clock.now(), REPORT_LIST_LIMIT),
        query.admin ? repository.adminEmail(query.admin) : Promise.resolve(null),
      ]);
      return {
        from: range.from,
        to: range.to,
        figure: query.figure,
        label: range.label && range.labelName !== null ? { id: range.label, name: range.labelName } : null,
        title: figureTitle(query, email),
        tickets: rows.slice(0, REPORT_LIST_LIMIT).map(ticketOf),
        truncated: rows.length > REPORT_LIST_LIMIT,
      };
    },

    /** The CSV of every ticket created in the range, and its file name. */
    async csv(query: ReportQuery): Promise<{ name: string; body: string }> {
      const range = await rangeOf(query);
      const rows = await repository.createdTickets(range, clock.now());
      const comments = new Map(rows.map((row) => [row.id, row.comment]));
      return { name: `tickets-${range.from}-to-${range.to}.csv`, body: csvOf(rows.map(ticketOf), comments) };
    },

    /** The CSV of every claim made in the range, and its file name. */
    async claimsCsv(query: ReportQuery): Promise<{ name: string; body: string }> {
      const range = await rangeOf(query);
      const rows = await repository.claimRows(range);
      return { name: `claims-${range.from}-to-${range.to}.csv`, body: claimsCsvOf(rows) };
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
