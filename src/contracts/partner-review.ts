import { formatter, remembered } from './dates.ts';
import type { AdminCompany } from './partner-review.schemas.ts';

/** Reviewing partner applications in the admin console (docs/product.md §2.9). */

/** 'on-hold': approved, and its licence expired with no new one accepted yet (docs/decisions/115-licence-expiry.md). */
export const COMPANY_STATUSES = ['pending', 'verified', 'on-hold', 'rejected', 'banned'] as const;
export type CompanyStatus = (typeof COMPANY_STATUSES)[number];
export const COMPANY_STATUS_LABELS: Record<CompanyStatus, string> = {
  pending: 'Pending',
  verified: 'Verified',
  'on-hold': 'On hold',
  rejected: 'Rejected',
  banned: 'Banned',
};
/** `verified` values (docs/product.md §3.4, §4.2): 0 on creation, 1 approved, 2 rejected (ignored by duplicate checks). */
export const VERIFIED = { pending: 0, verified: 1, rejected: 2 } as const;

export const REJECTION_REASON_MAX = 1000;

export const COMPANY_REVIEW_MESSAGES = {
  notFound: 'That application does not exist.',
  alreadyApproved: 'This application is already approved.',
  alreadyRejected: 'This application is already rejected.',
  alreadyBanned: 'This company is already banned.',
  notBanned: 'This company is not banned.',
  reasonRequired: 'Please give the reason for the rejection',
  reasonTooLong: `The reason can be at most ${REJECTION_REASON_MAX} characters`,
  nameTaken:
    'Another live application already uses this company name, phone number or email, so this one cannot be approved. Reject or ban the other one first.',
  nothingToNotify: 'There is no decision to email yet: approve or reject the application first.',
} as const;

export const REVIEW_STAGES = ['received', 'in_review', 'changes_requested'] as const;

/**
 * Review due dates (docs/decisions/111-partner-review-due.md): an application waiting for a decision
 * is due for review on the second New Zealand working day after the day it was submitted, and is
 * late from the day after that.
 */
export const REVIEW_WORKING_DAYS = 2;
/** `due=late`: only the pending applications past their review due date. */
export const COMPANY_DUE_FILTERS = ['all', 'late'] as const;
export type CompanyDueFilter = (typeof COMPANY_DUE_FILTERS)[number];
/** `sort=due`: the pending queue by review due date, the earliest first (`submitted`: oldest application first). */
export const COMPANY_SORTS = ['submitted', 'due'] as const;
export type CompanySort = (typeof COMPANY_SORTS)[number];

const SHORT_DAY = formatter({ timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' });
/** A New Zealand calendar date ('YYYY-MM-DD') as the partner list writes it: 'Wed 3 Dec' (put together from parts). */
export const reviewDay = remembered('reviewDay', (date: string) => {
  const part = Object.fromEntries(
    SHORT_DAY()
      .formatToParts(new Date(`${date}T12:00:00Z`))
      .map((p) => [p.type, p.value]),
  );
  return `${part.weekday} ${part.day} ${part.month}`;
});

export const REVIEW_DUE_TEXT = {
  column: 'Review',
  due: (date: string) => `Review due ${reviewDay(date)}`,
  late: 'Late',
  wasDue: (date: string) => `was due ${reviewDay(date)}`,
  filterLabel: 'Review due',
  anyDue: 'All pending',
  lateOnly: (count: number) => `Late (${count})`,
  sortLabel: 'Order',
  sortSubmitted: 'Oldest first',
  sortDue: 'Due first',
  noLate: 'No pending application is late for review.',
  lateOnHome: (count: number) =>
    count === 1 ? '1 partner application is late for review.' : `${count} partner applications are late for review.`,
  lateLink: 'See the late applications',
} as const;

/** What happened to the decision mail: accepted by the mailer, nowhere to send it, or refused. */
export const MAIL_OUTCOMES = ['queued', 'no-address'] as const;
export type MailOutcome = (typeof MAIL_OUTCOMES)[number];

export function companyStatusOf(
  company: Pick<AdminCompany, 'verified' | 'isBanned'> & { licenseHoldAt?: unknown },
): CompanyStatus {
  if (company.isBanned) return 'banned';
  if (company.verified === VERIFIED.verified) return company.licenseHoldAt ? 'on-hold' : 'verified';
  if (company.verified === VERIFIED.rejected) return 'rejected';
  return 'pending';
}

// --- Licence expiry (docs/decisions/115-licence-expiry.md) ----------------------------------------------

/** Reminders go this many days before the licence's expiry date; 0 is the expiry itself (on hold). */
export const LICENSE_REMINDER_DAYS = [30, 14, 3] as const;

const LONG_DAY = formatter({ timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
/** A New Zealand calendar date ('YYYY-MM-DD') with its year: 'Wed 3 Dec 2027'. */
export const licenceDay = remembered('licenceDay', (date: string) => {
  const part = Object.fromEntries(
    LONG_DAY()
      .formatToParts(new Date(`${date}T12:00:00Z`))
      .map((p) => [p.type, p.value]),
  );
  return `${part.weekday} ${part.day} ${part.month} ${part.year}`;
});

export const LICENCE_TEXT = {
  expiresLabel: 'Licence expires on',
  expiresHint: 'The date on the commercial licence. We remind the partner 30, 14 and 3 days before it.',
  dateRequired: 'Please give the date the licence expires',
  dateInvalid: 'Please give the expiry as a date, like 2027-12-03',
  datePast: 'The licence has already expired: give a date from today on',
  expires: (date: string) =>
    date === LICENCE_NEVER ? 'Licence does not expire' : `Licence expires ${licenceDay(date)}`,
  neverLabel: 'This licence does not expire',
  neverHint: 'No reminders are sent for a licence that does not expire.',
  expired: (date: string) => `Licence expired ${licenceDay(date)}`,
  noExpiry: 'No licence expiry recorded',
  fieldLabel: 'Licence expiry',
  onHold: (date: string) => `On hold: licence expired on ${licenceDay(date)}`,
  renewalHeading: 'New licence',
  renewalSent: (day: string) => `New licence sent on ${day}`,
  renewalDownload: 'Download the new licence',
  accept: 'Accept the new licence',
  acceptTitle: 'Accept the new licence',
  refuse: 'Refuse the new licence',
  refuseTitle: 'Refuse the new licence',
  refuseReasonLabel: 'Reason',
  refuseReasonRequired: 'Please give the reason the new licence is refused',
  accepted: 'The new licence is accepted.',
  refused: 'The new licence is refused.',
  noRenewal: 'There is no new licence waiting: it was accepted or refused meanwhile.',
  notApproved: 'Only an approved partner has a licence to renew.',
  renewalNotFound: 'There is no new licence to download.',
} as const;

/** The licence file on the console's partner page (docs/decisions/130-pdf-licences.md). */
export const LICENCE_VIEW_TEXT = {
  heading: 'Commercial licence',
  imageAlt: (company: string) => `Commercial licence of ${company}`,
  pdfPreviewTitle: (company: string) => `Commercial licence of ${company} (PDF, from its first page)`,
  download: 'Download the licence',
  downloadPdf: 'Download the licence (PDF)',
  none: 'No licence was uploaded.',
} as const;

/** 'YYYY-MM-DD', a real calendar date (whether it is in the past is the server's check, on the app's clock). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/**
 * A licence that does not expire, in the API's words (`licenseExpiresOn: 'never'`): stored as the
 * date 'infinity', which no reminder and no hold ever reaches (docs/decisions/115-licence-expiry.md).
 */
export const LICENCE_NEVER = 'never';
