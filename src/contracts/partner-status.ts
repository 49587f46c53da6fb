import { formatter, remembered } from './dates.ts';
import { reviewDay } from './partner-review.ts';

/**
 * The applicant's status page (docs/decisions/112-application-status-page.md): a private link,
 * mailed with the 'application received' mail, that shows one application as it was submitted, its
 * state in plain words, what is due and the history of decisions. No account is needed.
 */

/** The page's path for a token (the mail's link is the public base URL and this). */
export const statusPagePath = (token: string) => `/partners/status/${token}`;

/** A token as made at registration: 32 random bytes, base64url (43 characters). */
export const STATUS_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const APPLICATION_STATES = [
  'received',
  'in-review',
  'changes-requested',
  'approved',
  'not-approved',
  'on-hold',
] as const;
export type ApplicationState = (typeof APPLICATION_STATES)[number];

export const APPLICATION_EVENT_KINDS = [
  'received',
  'approved',
  'rejected',
  'banned',
  'unbanned',
  'review_started',
  'changes_requested',
  'resubmitted',
  'license_expired',
  'license_sent',
  'license_accepted',
  'license_refused',
] as const;
export type ApplicationEventKind = (typeof APPLICATION_EVENT_KINDS)[number];

export const APPLICATION_STATUS_TEXT = {
  title: 'Your partner application',
  mailButton: 'See your application',
  notFound: 'This link is not valid. Check the link in your email, or contact us through our support page.',
  notFoundTitle: 'Link not valid',
  supportLink: 'Go to the support page',
  tooMany: 'Too many requests for application pages from your network. Please wait a minute and try again.',
  stateLabel: 'Status',
  states: {
    received: 'Received',
    'in-review': 'In review',
    'changes-requested': 'Changes requested',
    approved: 'Approved',
    'not-approved': 'Not approved',
    'on-hold': 'On hold',
  } satisfies Record<ApplicationState, string>,
  /** What is due: only a pending application has something due. */
  reviewBy: (dueDate: string) => `We will review it by ${reviewDay(dueDate)}`,
  onHold: 'Your application is on hold. Contact us through our support page if you have questions.',
  licenseHold:
    'Your partnership is on hold because your commercial licence has expired. Send us your new licence below.',
  licenseExpires: (day: string) => `Your licence expires on ${day}`,
  licenseNeverExpires: 'Your licence does not expire',
  detailsHeading: 'What you sent',
  historyHeading: 'History',
  events: {
    received: 'Received',
    approved: 'Approved',
    rejected: 'Not approved',
    banned: 'On hold',
    unbanned: 'Active again',
    review_started: 'In review',
    changes_requested: 'Changes requested',
    resubmitted: 'Changes sent',
    license_expired: 'Licence expired: on hold',
    license_sent: 'New licence sent',
    license_accepted: 'New licence accepted',
    license_refused: 'New licence not accepted',
  } satisfies Record<ApplicationEventKind, string>,
  reasonLabel: 'Reason',
  sentLabel: 'What you sent',
  fields: {
    companyName: 'Company name',
    nzbn: 'NZBN',
    phoneNumber: 'Phone number',
    address: 'Address 1',
    street: 'Address 2',
    contactPersonName: 'Contact person name',
    contactPersonJobTitle: 'Contact person job title',
    contactPersonPhoneNumber: 'Contact person phone number',
    contactPersonEmail: 'Contact person email',
    license: 'Commercial licence',
  },
  /** /partners/status: a new link for an applicant who lost theirs, or never had one. */
  findTitle: 'Find your partner application',
  findIntro:
    'Enter the contact email you gave when you applied. If an application uses it, we email a new private link to its page there.',
  findEmailLabel: 'Contact person email',
  findSubmit: 'Email me the link',
  findSent:
    'If an application uses this address, we have emailed a link to its page there. It can take a few minutes; check your spam folder too.',
  findLink: 'Lost the link? Get a new one',
  emailInvalid: 'Enter the email address you gave in your application',
  linkMailButton: 'See your application',
  licenseSent: 'Sent',
  licenseNotSent: 'Not sent',
  notGiven: 'Not given',
} as const;

const DAY = formatter({
  timeZone: 'Pacific/Auckland',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});
/** An instant as the history writes it, on New Zealand's calendar: 'Wed 3 Dec 2025'. */
export const historyDay = remembered('historyDay', (iso: string) => {
  const part = Object.fromEntries(
    DAY()
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${part.weekday} ${part.day} ${part.month} ${part.year}`;
});
