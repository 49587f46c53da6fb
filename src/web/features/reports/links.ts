import type { ClaimKind, ClaimOutcome } from '../../../contracts/claims.ts';
import type { ReportFigure, SpreadBucket } from '../../../contracts/reports.ts';

/** The report's page and a figure's list, at a range of New Zealand days. */
export const REPORT_PAGE = '/admin/reports';
export const REPORT_LIST_PAGE = '/admin/reports/tickets';

export interface RangeOf {
  from: string;
  to: string;
  /** Only the tickets with this label (its id). */
  label?: string | undefined;
  /** Only the tickets of this reason (TICKET_REASON_VALUES). */
  reason?: string | undefined;
  /** Only the tickets assigned to this admin (their user id). */
  agent?: string | undefined;
}

/** What picks the report's tickets: the range and its filters, as a query (the CSVs' too). */
export const rangeQuery = (range: Partial<RangeOf>) => ({
  from: range.from,
  to: range.to,
  label: range.label,
  reason: range.reason,
  agent: range.agent,
});

/** What picks one figure's tickets besides the range. */
export interface FigureParams {
  figure: ReportFigure;
  bucket?: SpreadBucket;
  day?: string;
  weekday?: number;
  hour?: number;
  admin?: string;
  claimKind?: ClaimKind;
  claimOutcome?: ClaimOutcome;
}

const search = (values: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(values)
      .filter(([, value]) => value !== undefined && value !== '')
      .map(([key, value]) => [key, String(value)]),
  ).toString();

export const reportPath = (range: Partial<RangeOf>) => {
  const query = search(rangeQuery(range));
  return query ? `${REPORT_PAGE}?${query}` : REPORT_PAGE;
};

/** The list of a figure's tickets: /admin/reports/tickets?from=&to=&figure=… */
export const figurePath = (range: RangeOf, params: FigureParams) =>
  `${REPORT_LIST_PAGE}?${search({ ...rangeQuery(range), ...params })}`;
