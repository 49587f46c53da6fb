import { CLAIM_OUTCOME_TEXT, type ClaimOutcome, claimKindLabel } from './claims.ts';

/**
 * The report's claims (/admin/reports, docs/decisions/152-incident-claims.md): the incident claims
 * made in the report's New Zealand days (by the claim's own time, the app's clock when it was made),
 * limited to the report's label when it has one. Every word the section, its lists and its CSV show
 * lives here.
 *
 * - Decided: claims with at least one decision. Their shares count each claim's first decision (an
 *   appeal's decision is not counted again), so a share says how the team first judged.
 * - Paid: the claims' amounts as they stand now (after an appeal, the appeal's), upheld in full or in part.
 * - Working days to the first decision: the working days of the team's calendar (New Zealand dates
 *   with opening hours in business_intervals) after the claim's New Zealand date, up to and
 *   including the decision's. Decided the same day: 0; made on Friday, decided on Monday: 1.
 * - Median and 90th percentile by nearest rank (PostgreSQL's percentile_disc): the smallest count
 *   of days that at least half (nine in ten) of the decided claims took no longer than. Always a
 *   whole number of days one claim really took.
 */

export const CLAIM_REPORT_TEXT = {
  title: 'Claims',
  lead: 'Incident claims made in these days. Choose a number to see its tickets.',
  kindsTitle: 'Claims by what happened',
  kindsAxis: 'What happened',
  claimsColumn: 'Claims',
  made: (n: number) => `${n.toLocaleString('en-NZ')} ${n === 1 ? 'claim' : 'claims'} made`,
  decidedTitle: 'First decisions',
  decidedHint:
    'Of the claims made in these days that have been decided, by their first decision: a decision on appeal is not counted here.',
  decidedOf: (decided: number, made: number) =>
    `${decided.toLocaleString('en-NZ')} decided of ${made.toLocaleString('en-NZ')}`,
  shareOf: (n: number, of: number) => `${n.toLocaleString('en-NZ')} of ${of.toLocaleString('en-NZ')}`,
  amountsTitle: 'Amounts',
  paid: 'Paid',
  paidHint: 'Upheld in full or in part, at the amount decided last (after an appeal, the appeal’s).',
  claimed: 'Item value claimed',
  claimedHint: 'What the items were worth, as the customers said.',
  timeTitle: 'Working days to the first decision',
  timeHint:
    'Working days of the team’s calendar after the day the claim was made, up to the day of its first decision: decided the same day is 0. Median and 90th percentile by nearest rank: the most days that half (nine in ten) of the decided claims took.',
  median: 'Median',
  p90: '90th percentile',
  days: (n: number | null) => (n === null ? '—' : `${n} working ${n === 1 ? 'day' : 'days'}`),
  none: 'No claims were made in these days.',
  downloadCsv: 'Download the claims (CSV)',
  csvAbout:
    'One row per claim made in these days: what happened, the values, its first decision and the working days it took.',
  needsKind: 'Choose what happened: lost, damaged, late, not as described or something else.',
  needsOutcome: 'Choose a decision: upheld in full, in part, or declined.',
  // The lists' titles.
  listAll: 'Claims made',
  listDecided: 'Claims decided',
  listKind: (kind: string) => `Claims: ${claimKindLabel(kind)}`,
  listOutcome: (outcome: ClaimOutcome) => `Claims ${CLAIM_OUTCOME_TEXT[outcome].toLowerCase()} at their first decision`,
} as const;

export const CLAIMS_CSV_COLUMNS = [
  'Ticket',
  'Claimed (NZ time)',
  'What happened',
  'Delivery reference',
  'Item value (NZD)',
  'State',
  'First decision',
  'First decision (NZ time)',
  'Working days to the first decision',
  'Decision now',
  'Amount paid (NZD)',
] as const;
