import { endpoint } from '../endpoint.ts';
import { ReportQuerySchema, ReportSchema, ReportTicketsQuerySchema, ReportTicketsSchema } from '../reports.schemas.ts';
import { z } from '../zod.ts';

const ADMIN_ERRORS = [400, 401, 403] as const;

/** Reports on the desk (docs/decisions/109-reports-and-charts.md): figures, a figure's tickets, and the CSV. */
export const reportsApi = {
  report: endpoint({
    method: 'GET',
    path: '/api/admin/reports',
    access: 'reports.read',
    tags: ['admin'],
    summary:
      'The desk over New Zealand days ?from=&to= (YYYY-MM-DD, both included; the last 28 days by default): ' +
      'first response and resolution (median and 90th percentile, business and clock hours, share within target), ' +
      'the first-response spread, created/closed/open per day, new tickets per weekday and hour, ratings per week ' +
      'and their comments, per admin, and the incident claims made in those days (by kind, first decisions, ' +
      'amounts paid and claimed, working days to the first decision)',
    query: ReportQuerySchema,
    answers: { 200: ReportSchema },
    errors: ADMIN_ERRORS,
  }),
  tickets: endpoint({
    method: 'GET',
    path: '/api/admin/reports/tickets',
    access: 'reports.read',
    tags: ['admin'],
    summary:
      'The tickets behind one figure of the report: ?from=&to=&figure= and, as the figure needs, ' +
      '&bucket= (spread), &day= (a day, or the Monday of a ratings week), &weekday=&hour= (busiest hours), &admin= (per admin), ' +
      '&claimKind= (claims by what happened), &claimOutcome= (claims by their first decision)',
    query: ReportTicketsQuerySchema,
    answers: { 200: ReportTicketsSchema },
    errors: ADMIN_ERRORS,
  }),
  csv: endpoint({
    method: 'GET',
    path: '/api/admin/reports/tickets.csv',
    access: 'reports.read',
    tags: ['admin'],
    summary:
      'Every ticket created in ?from=&to= as a CSV download (text/csv, an attachment): its times in New Zealand ' +
      'time with business and clock hours, reason, assignee, rating and outcome',
    query: ReportQuerySchema,
    answers: { 200: z.string() },
    errors: ADMIN_ERRORS,
  }),
  claimsCsv: endpoint({
    method: 'GET',
    path: '/api/admin/reports/claims.csv',
    access: 'reports.read',
    tags: ['admin'],
    summary:
      'Every incident claim made in ?from=&to= as a CSV download (text/csv, an attachment): its ticket, kind, delivery, ' +
      'item value, state, first decision with the working days it took, and the amount paid',
    query: ReportQuerySchema,
    answers: { 200: z.string() },
    errors: ADMIN_ERRORS,
  }),
} as const;
