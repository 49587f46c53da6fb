import { COMPANY_TEXT_FIELDS, type CompanyTextField, LICENCE_FIELD_TEXT, LICENCE_TYPES_TEXT } from './companies.ts';
import type { RequestChanges, RequestedChanges } from './partner-changes.schemas.ts';

/**
 * Changes requested (docs/decisions/113-changes-requested.md): instead of rejecting an application
 * for one bad file or field, an admin asks for what is wrong from fixed reasons, and the applicant
 * sends only that on the status page, which puts the application back in review.
 */

export const CHANGE_REASONS = [
  'license-unreadable',
  'license-expired',
  'wrong-document',
  'name-mismatch',
  'missing-document',
  'other',
] as const;
export type ChangeReason = (typeof CHANGE_REASONS)[number];

/** What an applicant can be asked to send again: the licence file or one of the registration's fields. */
export const CHANGEABLE_FIELDS = ['license', ...COMPANY_TEXT_FIELDS] as const;
export type ChangeableField = 'license' | CompanyTextField;

/** What each reason opens for the applicant to change ('other' opens the fields the admin picks). */
export const REASON_FIELDS: Record<ChangeReason, ChangeableField[]> = {
  'license-unreadable': ['license'],
  'license-expired': ['license'],
  'wrong-document': ['license'],
  'name-mismatch': ['companyName', 'license'],
  'missing-document': ['license'],
  other: [],
};
/** Reasons that only a new licence file answers: with one of them, the file is required. */
export const LICENSE_REQUIRED_BY: readonly ChangeReason[] = [
  'license-unreadable',
  'license-expired',
  'wrong-document',
  'missing-document',
];

export const CHANGE_NOTE_MAX = 1000;

export const CHANGES_TEXT = {
  /** The console. */
  button: 'Ask for changes',
  formTitle: 'Ask the applicant for changes',
  reasonsLegend: 'What is wrong',
  reasons: {
    'license-unreadable': 'Licence unreadable',
    'license-expired': 'Licence expired',
    'wrong-document': 'Wrong document',
    'name-mismatch': 'Name does not match the licence',
    'missing-document': 'Missing document',
    other: 'Other',
  } satisfies Record<ChangeReason, string>,
  fieldsLegend: 'With Other: what the applicant may change',
  noteLabel: 'Note to the applicant',
  noteHint: 'Optional, except with Other. The applicant reads it on their status page and in the email.',
  send: 'Send the request',
  cancel: 'Cancel',
  requested: (emailed: boolean) =>
    emailed
      ? 'Changes requested. We emailed the applicant a link to send them.'
      : 'Changes requested. There is no contact email: tell the company another way.',
  waiting: 'Waiting for the applicant to send the changes asked for.',
  fieldsOpen: 'They may change:',
  resubmittedLabel: 'Changes sent',
  stageLabels: { received: 'Received', in_review: 'In review', changes_requested: 'Changes requested' },
  /** The applicant's words for each reason. */
  applicantReasons: {
    'license-unreadable': 'We could not read your licence. Please send a clearer photo or scan of it.',
    'license-expired': 'The licence you sent has expired. Please send your current licence.',
    'wrong-document': 'The file you sent is not a commercial licence. Please send your commercial licence.',
    'name-mismatch':
      'The company name does not match the name on your licence. Please correct the company name, or send the licence in this name.',
    'missing-document': 'We did not receive your licence. Please send it.',
    other: 'Please see the note from our team.',
  } satisfies Record<ChangeReason, string>,
  /** The status page. */
  dueHeading: 'What we need from you',
  noteHeading: 'Note from our team',
  sendTitle: 'Send your changes',
  licenseLabel: `New commercial licence (${LICENCE_TYPES_TEXT})`,
  licenseHint: LICENCE_FIELD_TEXT.hint,
  submit: 'Send changes',
  /** `day`: the review due date in words ('Tue 15 Dec'). */
  sent: (day: string) => `Thank you. We have your changes and will review them by ${day}.`,
  renewalTitle: 'Send a new licence',
  renewalHint: 'When your licence is renewed, send the new one here. We check it and let you know by email.',
  renewalSubmit: 'Send licence',
  renewalSent: 'Thank you. We have your new licence and will check it soon.',
  renewalWaiting: (day: string) => `We have the new licence you sent on ${day} and will check it soon.`,
} as const;

export const CHANGES_MESSAGES = {
  reasonRequired: 'Choose at least one thing that is wrong',
  noteRequired: 'With Other, say in the note what needs to change',
  fieldsRequired: 'With Other, choose what the applicant may change',
  noteTooLong: `The note can be at most ${CHANGE_NOTE_MAX} characters`,
  notPending: 'Only an application waiting for a decision can be sent back for changes.',
  alreadyRequested: 'Changes are already requested: wait for the applicant to send them.',
  licenseRequired: 'Please choose the new licence file',
  nothingDue: 'There is nothing to send for this application now.',
  notAsked: 'This was not asked for: only what is listed can be changed.',
  sendFailed: 'Your changes could not be sent. Please try again.',
} as const;

/** The fields a request opens: its reasons' and, with Other, the admin's picks, in the form's order. */
export function requestedChanges(request: RequestChanges): RequestedChanges {
  const open = new Set<ChangeableField>([...request.reasons.flatMap((r) => REASON_FIELDS[r]), ...request.fields]);
  return {
    reasons: CHANGE_REASONS.filter((r) => request.reasons.includes(r)),
    fields: CHANGEABLE_FIELDS.filter((f) => open.has(f)),
    note: request.note,
  };
}

/** Whether the request needs a new licence file (a name mismatch may be answered by the name alone). */
export const licenseRequired = (changes: RequestedChanges) =>
  changes.reasons.some((reason) => LICENSE_REQUIRED_BY.includes(reason));

/** The history line of a request, in the applicant's words: each reason, then the note. */
export function changesHistoryText(changes: RequestedChanges): string {
  return [
    ...changes.reasons.map((r) => CHANGES_TEXT.applicantReasons[r]),
    ...(changes.note ? [changes.note] : []),
  ].join(' ');
}
